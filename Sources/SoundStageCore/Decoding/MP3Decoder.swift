import CMPG123
import Foundation

/// Decodes MP3 with libmpg123 over ``ByteSource`` (the file read into memory) to interleaved Float32.
/// libmpg123 reads the LAME/Xing gapless information and leaves out the encoder's delay and
/// padding, so a looped MP3 made by LAME has no gap; the whole stream is scanned once so the
/// length and every seek are exact to the frame.
final class MP3Decoder: NamedDecoder {
    let name: String
    let channels: ChannelLayout
    let sampleRate: Int
    let frameCount: Int
    private(set) var position = 0
    private let source: ByteSource
    private let opaque: Unmanaged<ByteSource>
    private let handle: OpaquePointer
    /// libmpg123's functions.
    private let mpg123: ss_mpg123
    private(set) var damage: [DecodeDamage.Span] = []

    /// Frames libmpg123 decodes and drops before the frame a seek lands in, so that what it
    /// gives from there is what reading in order gives: a Layer III frame takes part of its
    /// data from the frames before it (its bit reservoir) and overlaps the one before it, and
    /// at low rates that reaches far back. libmpg123's default (4 in Debian 12's 1.31.2) left
    /// the samples after a seek up to 0.74 away from the same samples read in order (a mutated
    /// 24 kHz stream, the decoder fuzzer's property); in lame's 8 kb/s at 24 kHz
    /// (`MP3DecoderTests/lowBitrateSeeks`) 12 and 16 frames left them 0.24 to 0.27 away, 24 and
    /// more within 1e-6. A seek decodes these frames more.
    static let preframes = 32

    var container: SoundFile.Container { .mp3 }
    var encoding: String { "mp3" }
    var outputFormat: BufferFormat { BufferFormat(.float32, channels) }

    /// libmpg123's functions, loaded at the first MP3 decoded, after its one-time set-up
    /// (needed by versions before 1.27, harmless after); nil when it cannot be loaded.
    private static let library: ss_mpg123? = {
        guard let functions = ss_mpg123()?.pointee else { return nil }
        _ = functions.initialize()
        return functions
    }()

    /// Whether `data` starts as an MP3 file does: an ID3v2 tag, or an MPEG audio layer III
    /// frame header.
    static func isMP3(_ data: Data) -> Bool {
        if data.prefix(3).elementsEqual("ID3".utf8) { return true }
        guard data.count >= 4 else { return false }
        let b0 = data[data.startIndex], b1 = data[data.startIndex + 1]
        return b0 == 0xFF && b1 & 0xE0 == 0xE0 && b1 & 0x06 == 0x02
    }

    init(_ data: Data, name: String) throws {
        self.name = name
        func fail(_ reason: String) -> SoundStageError { SoundFile.failure(.decodingFailed, "decode(MP3)", object: name, reason) }
        guard let mpg123 = Self.library else {
            throw SoundFile.failure(.libraryMissing, "decode(MP3)", object: name, OptionalLibrary.mpg123.missing(ss_mpg123_error()))
        }
        self.mpg123 = mpg123
        source = ByteSource(data.startIndex == 0 ? data : Data(data))
        var error: Int32 = 0
        guard let handle = mpg123.new_handle(nil, &error) else { throw fail("libmpg123 could not make a decoder (error \(error))") }
        let opaque = Unmanaged.passRetained(source)
        func release() {
            mpg123.delete_handle(handle)
            opaque.release()
        }
        func close(_ reason: String) -> SoundStageError {
            release()
            return fail(reason)
        }
        // Float output, gapless, quiet (errors are ours to report), and a stream that changes
        // format mid-way (a "Frankenstein" stream) ends there rather than decoding on.
        _ = mpg123.param2(handle, Int32(MPG123_FLAGS.rawValue), Int(MPG123_GAPLESS.rawValue | MPG123_FORCE_FLOAT.rawValue | MPG123_QUIET.rawValue | MPG123_NO_FRANKENSTEIN.rawValue), 0)
        _ = mpg123.param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), 4096, 0)
        _ = mpg123.param2(handle, Int32(MPG123_PREFRAMES.rawValue), Self.preframes, 0)
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = { stream, buffer, count in
            guard let stream, let buffer else { return -1 }
            return Unmanaged<ByteSource>.fromOpaque(stream).takeUnretainedValue().read(into: buffer, count: count)
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { stream, offset, whence in
            guard let stream else { return -1 }
            let source = Unmanaged<ByteSource>.fromOpaque(stream).takeUnretainedValue()
            return source.seek(Int(offset), whence: whence) ? off_t(source.position) : -1
        }
        guard mpg123.replace_reader_handle(handle, read, seek, nil) == MPG123_OK.rawValue,
              mpg123.open_handle(handle, opaque.toOpaque()) == MPG123_OK.rawValue else {
            throw close("libmpg123 could not open the stream")
        }
        var rate = 0, count: Int32 = 0, encoding: Int32 = 0
        guard mpg123.getformat(handle, &rate, &count, &encoding) == MPG123_OK.rawValue else {
            throw close("no MPEG audio frame found: not an MP3 file, or a damaged one")
        }
        guard let layout = ChannelLayout(channelCount: Int(count)), Limits.bufferSampleRates.contains(rate) else {
            throw close("\(count) channels at \(rate) Hz is not a format OpenAL Soft plays")
        }
        // Fixed from here: a later frame of another format is an error, not a surprise.
        _ = mpg123.format_none(handle)
        _ = mpg123.format(handle, rate, Int32(count), Int32(MPG123_ENC_FLOAT_32.rawValue))
        // One pass over the frames gives the exact length and a seek index.
        guard mpg123.scan(handle) == MPG123_OK.rawValue else { throw close("the stream could not be scanned") }
        let length = mpg123.length(handle)
        guard length > 0 else { throw close("the stream holds no audio") }
        // The scan counted the frames the stream holds: past the limit, refused now.
        do {
            try DecodeLimit(inputBytes: data.count, frameBytes: 4 * Int(count)).check(0, adding: Int(length), format: "MP3", name: name)
        } catch {
            release()
            throw error
        }
        self.handle = handle
        self.opaque = opaque
        channels = layout
        sampleRate = rate
        frameCount = Int(length)
    }

    deinit {
        mpg123.delete_handle(handle)
        opaque.release()
    }

    func read(maxFrames: Int) throws -> [UInt8] {
        let frameBytes = 4 * channels.channelCount
        let wanted = max(0, min(maxFrames, frameCount - position)) * frameBytes
        guard wanted > 0 else {
            if position >= frameCount { noteEarlyEnd(at: position) }
            return []
        }
        var out = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            var done = 0
            let status = out.withUnsafeMutableBytes { raw in
                mpg123.read(handle, raw.baseAddress! + filled, wanted - filled, &done)
            }
            filled += done
            if status == MPG123_DONE.rawValue {
                noteEarlyEnd(at: position + filled / frameBytes)
                break
            }
            if status == MPG123_NEW_FORMAT.rawValue { continue }
            guard status == MPG123_OK.rawValue else {
                let reason = mpg123.plain_strerror(status).map { String(cString: $0) } ?? "error \(status)"
                if filled > 0 || position > 0 {
                    // Damaged after some audio: what decoded stays.
                    let at = position + filled / frameBytes
                    if !damage.contains(where: { $0.kind == .cutShort }) {
                        damage.append(DecodeDamage.Span(kind: .cutShort, frame: at, framesLost: max(0, frameCount - at), reason: "libmpg123: \(reason)"))
                    }
                    break
                }
                throw SoundFile.failure(.decodingFailed, "decode(MP3)", object: name, "the stream is damaged (libmpg123: \(reason))")
            }
            if done == 0 { break }
        }
        filled -= filled % frameBytes
        position += filled / frameBytes
        return filled == wanted ? out : Array(out.prefix(filled))
    }

    /// At the end of the stream: where libmpg123 stopped in the file. Ending well before the
    /// end of the bytes (more than a few tags' worth), it met data it could not resync past,
    /// and the rest of the file never decodes: noted once.
    private func noteEarlyEnd(at frame: Int) {
        let stopped = Int(mpg123.tell_stream(handle))
        guard stopped >= 0, source.data.count - stopped > 4_096, !damage.contains(where: { $0.kind == .cutShort }) else { return }
        damage.append(DecodeDamage.Span(kind: .cutShort, frame: frame,
                                        reason: "libmpg123 stopped at byte \(stopped) of \(source.data.count): damaged data it cannot resync past, and nothing after it decodes"))
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "\(name) has \(frameCount) frames") }
        let result = mpg123.seek(handle, off_t(frame), SEEK_SET)
        guard result >= 0 else { throw seekError(frame, "libmpg123 could not seek in \(name) (error \(result))", code: .decodingFailed) }
        position = frame
    }
}
