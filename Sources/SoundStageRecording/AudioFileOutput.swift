import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore
import SoundStageSession

/// A sound file written a block at a time, as a render of any length is made, without the
/// render kept: WAV and CAF with 16- or 24-bit integer or 32-bit float samples, Ogg Vorbis at
/// a quality. Like ``RenderedAudio/write(to:container:bitDepth:quality:)``, the file appears
/// only when ``finish()`` completes it (written aside, then renamed; an output dropped or
/// failed unfinished leaves nothing), and a destination that is not a regular file
/// (`/dev/null`, a FIFO) is written in place, as WAV unless a container is given.
public final class AudioFileOutput {
    /// The file it writes.
    public let url: URL
    /// The format of what it takes.
    public let format: RenderFormat
    /// Frames written so far.
    public var framesWritten: Int { writer.framesWritten }
    /// The sample rates a file is written at, in Hz.
    public static let sampleRates = 1...768_000

    private let writer: any AudioFileWriter
    private let target: URL
    /// Where it writes until it is finished (the target itself when that is not a regular file).
    private let path: String
    private let special: Bool
    private var finished = false

    /// Starts a file at `url` of `container`, by default the one `url`'s extension names
    /// (`.wav`, `.caf`, `.ogg`), for audio of `format`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a file name whose
    ///   extension names no format SoundStage writes, a bit depth (16, 24, 32) or quality
    ///   (-0.1...1) out of range, a sample rate outside ``sampleRates``, or more than 8 channels;
    ///   ``SoundStageError/Code-swift.struct/fileAccess`` when the file cannot be written.
    public init(url: URL, format: RenderFormat, container: RecordingContainer? = nil, bitDepth: Int = 16, quality: Float = 0.5) throws {
        let member = "init(url:format:container:bitDepth:quality:)"
        let fail = { (code: SoundStageError.Code, reason: String) in SoundStageError(code, operation: "AudioFileOutput.\(member)", object: url.path, reason: reason) }
        target = url.resolvingSymlinksInPath()
        var info = stat()
        special = stat(target.path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        guard let container = container ?? RecordingContainer(pathExtension: url.pathExtension) ?? (special ? .wav : nil) else {
            throw fail(.invalidArgument, "cannot tell the format from the name \(url.lastPathComponent): "
                       + "name it .wav, .caf or .ogg (the formats SoundStage writes)")
        }
        let channels = format.channels.channelCount
        guard (1...8).contains(channels) else { throw fail(.invalidArgument, "a file of \(channels) channels cannot be written") }
        guard Self.sampleRates.contains(format.sampleRate) else {
            throw fail(.invalidArgument, "the sample rate must be in \(Self.sampleRates) Hz, got \(format.sampleRate)")
        }
        if container == .oggVorbis {
            guard quality.isFinite, OggVorbisWriter.qualities.contains(quality) else {
                throw fail(.invalidArgument, "the Ogg Vorbis quality must be in \(OggVorbisWriter.qualities), got \(quality)")
            }
        } else if !RecorderSettings.bitDepths.contains(bitDepth) {
            throw fail(.invalidArgument, "the bit depth must be 16, 24 or 32 (float), got \(bitDepth)")
        }
        path = special ? target.path
            : target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(UUID().uuidString.prefix(8))").path
        self.url = url
        self.format = format
        do {
            switch container {
            case .wav: writer = try WAVFileWriter(path: path, sampleRate: format.sampleRate, channels: channels, bits: bitDepth)
            case .caf: writer = try CAFFileWriter(path: path, sampleRate: format.sampleRate, channels: channels, bits: bitDepth)
            case .oggVorbis: writer = try OggVorbisWriter(path: path, sampleRate: format.sampleRate, channels: channels, quality: quality)
            }
        } catch let error as SoundStageError {
            if !special { unlink(path) }
            throw fail(error.code, error.reason)
        }
    }

    deinit { cancel() }

    /// Gives the file up unfinished: what was written aside is removed (a destination that is
    /// not a regular file keeps what it took), and nothing more is taken. Does nothing once
    /// finished. A process about to exit calls it, as no deinitializer runs then.
    public func cancel() {
        guard !finished else { return }
        finished = true
        if !special { unlink(path) }
    }

    /// Appends interleaved samples of the output's format, in -1...1 (beyond is clipped).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for samples that are not
    ///   whole frames, or after ``finish()``; ``SoundStageError/Code-swift.struct/fileAccess``
    ///   when they cannot be written (the file is then left unfinished).
    public func append(samples: [Float]) throws {
        let fail = { (code: SoundStageError.Code, reason: String) in SoundStageError(code, operation: "AudioFileOutput.append(samples:)", object: self.url.path, reason: reason) }
        guard !finished else { throw fail(.invalidArgument, "the file is finished or cancelled") }
        guard samples.count % format.channels.channelCount == 0 else {
            throw fail(.invalidArgument, "\(samples.count) samples are not whole frames of \(format.channels.channelCount) channels")
        }
        do { try writer.append(samples) } catch let error as SoundStageError { throw fail(error.code, error.reason) }
    }

    /// Appends a block of rendered audio of the output's format.
    ///
    /// - Throws: as ``append(samples:)``, and ``SoundStageError/Code-swift.struct/invalidArgument``
    ///   for audio of another sample rate or channel layout.
    public func append(_ audio: RenderedAudio) throws {
        guard audio.format.sampleRate == format.sampleRate, audio.format.channels == format.channels else {
            throw SoundStageError(.invalidArgument, operation: "AudioFileOutput.append(_:)", object: url.path,
                                  reason: "the audio is \(audio.format.sampleRate) Hz \(audio.format.channels.rawValue), the file \(format.sampleRate) Hz \(format.channels.rawValue)")
        }
        try append(samples: audio.samples)
    }

    /// Completes the file (its sizes, Ogg's last page) and puts it in place. Once finished (or
    /// cancelled) it takes nothing more; a second call does nothing.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when it cannot be completed
    ///   or put in place (nothing is left at the destination then).
    public func finish() throws {
        guard !finished else { return }
        let fail = { (reason: String) in SoundStageError(.fileAccess, operation: "AudioFileOutput.finish()", object: self.url.path, reason: reason) }
        do { try writer.finish() } catch let error as SoundStageError { throw fail(error.reason) }
        if !special, rename(path, target.path) != 0 {
            throw fail("cannot write \(target.path) (\(String(cString: strerror(errno))))")
        }
        finished = true
    }
}
