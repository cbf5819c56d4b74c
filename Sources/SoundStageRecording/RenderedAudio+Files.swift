import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore
import SoundStageSession

extension RenderedAudio {
    /// Writes the audio to a file of `container`, by default the one `url`'s extension names
    /// (`.wav`, `.caf`, `.ogg`), as a ``Recorder`` writes it: WAV and CAF with `bitDepth`-bit
    /// samples (16 or 24 integers, 32 floats), Ogg Vorbis at `quality` (-0.1...1). The file
    /// appears only when complete (written aside, then renamed); a destination that is not a
    /// regular file (`/dev/null`, a FIFO) is written in place, as WAV unless a container is
    /// given. A symbolic link's target is written.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a file name whose
    ///   extension names no format SoundStage writes, a bit depth or quality out of range, or
    ///   more than 8 channels; ``SoundStageError/Code-swift.struct/fileAccess`` when the file
    ///   cannot be written.
    public func write(to url: URL, container: RecordingContainer? = nil, bitDepth: Int = 16, quality: Float = 0.5) throws {
        let member = "write(to:container:bitDepth:quality:)"
        let target = url.resolvingSymlinksInPath()
        var info = stat()
        let special = stat(target.path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        guard let container = container ?? RecordingContainer(pathExtension: url.pathExtension) ?? (special ? .wav : nil) else {
            throw failure(.invalidArgument, member, "cannot tell the format from the name \(url.lastPathComponent): "
                          + "name it .wav, .caf or .ogg (the formats SoundStage writes)")
        }
        let channels = format.channels.channelCount
        guard (1...8).contains(channels) else { throw failure(.invalidArgument, member, "a file of \(channels) channels cannot be written") }
        if container == .oggVorbis {
            guard quality.isFinite, OggVorbisWriter.qualities.contains(quality) else {
                throw failure(.invalidArgument, member, "the Ogg Vorbis quality must be in \(OggVorbisWriter.qualities), got \(quality)")
            }
        } else if !RecorderSettings.bitDepths.contains(bitDepth) {
            throw failure(.invalidArgument, member, "the bit depth must be 16, 24 or 32 (float), got \(bitDepth)")
        }
        let path = special ? target.path
            : target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(UUID().uuidString.prefix(8))").path
        do {
            let writer: any AudioFileWriter
            switch container {
            case .wav: writer = try WAVFileWriter(path: path, sampleRate: format.sampleRate, channels: channels, bits: bitDepth)
            case .caf: writer = try CAFFileWriter(path: path, sampleRate: format.sampleRate, channels: channels, bits: bitDepth)
            case .oggVorbis: writer = try OggVorbisWriter(path: path, sampleRate: format.sampleRate, channels: channels, quality: quality)
            }
            // A second at a time: the WAV and CAF writers rewrite their sizes after each block.
            let block = max(1, format.sampleRate) * channels
            var start = 0
            while start < samples.count {
                try writer.append(Array(samples[start..<min(samples.count, start + block)]))
                start += block
            }
            try writer.finish()
            if !special, rename(path, target.path) != 0 {
                throw failure(.fileAccess, member, "cannot write \(target.path) (\(String(cString: strerror(errno))))")
            }
        } catch {
            if !special { unlink(path) }
            if let error = error as? SoundStageError, error.code == .fileAccess {
                throw SoundStageError(.fileAccess, operation: Self.operationName(member), object: url.path, reason: error.reason)
            }
            throw error
        }
    }
}
