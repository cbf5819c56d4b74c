import COpus
import Foundation

/// Decodes Ogg Opus with libopusfile (`op_open_callbacks` over ``ByteSource``, a file read
/// into memory) to interleaved Float32 at 48 kHz, as Opus always decodes, in OpenAL's channel
/// order. libopusfile drops the stream's pre-skip and seeks to the frame (`op_pcm_seek`).
final class OpusDecoder: NamedDecoder {
    let name: String
    let channels: ChannelLayout
    let sampleRate = 48_000
    let frameCount: Int
    private(set) var position = 0
    private let source: ByteSource
    private let opaque: Unmanaged<ByteSource>
    private let file: OpaquePointer
    /// libopusfile's functions (loaded at the first Opus file decoded).
    private let opus: ss_opusfile
    private let map: [Int]
    private var decodedAny = false
    private(set) var damage: [DecodeDamage.Span] = []
    /// The most the stream may decode to.
    private let limit: DecodeLimit

    var container: SoundFile.Container { .ogg }
    var encoding: String { "opus" }
    var outputFormat: BufferFormat { BufferFormat(.float32, channels) }

    /// Whether `data` is an Ogg stream whose first packet is an Opus header.
    static func isOpus(_ data: Data) -> Bool {
        guard data.prefix(4).elementsEqual("OggS".utf8), data.count > 27 else { return false }
        // The first page's one packet follows its 27-byte header and segment table.
        let start = data.startIndex + 27 + Int(data[data.startIndex + 26])
        return data.count >= start + 8 && data[start..<(start + 8)].elementsEqual("OpusHead".utf8)
    }

    private static var callbacks: OpusFileCallbacks {
        var callbacks = OpusFileCallbacks()
        callbacks.read = { stream, buffer, count in
            guard let stream, let buffer, count > 0 else { return 0 }
            return Int32(Unmanaged<ByteSource>.fromOpaque(stream).takeUnretainedValue().read(into: buffer, count: Int(count)))
        }
        callbacks.seek = { stream, offset, whence in
            guard let stream else { return -1 }
            return Unmanaged<ByteSource>.fromOpaque(stream).takeUnretainedValue().seek(Int(offset), whence: whence) ? 0 : -1
        }
        callbacks.tell = { stream in
            guard let stream else { return -1 }
            return opus_int64(Unmanaged<ByteSource>.fromOpaque(stream).takeUnretainedValue().position)
        }
        callbacks.close = nil
        return callbacks
    }

    init(_ data: Data, name: String) throws {
        self.name = name
        func fail(_ reason: String) -> SoundStageError { SoundFile.failure(.decodingFailed, "decode(Ogg Opus)", object: name, reason) }
        source = ByteSource(data.startIndex == 0 ? data : Data(data))
        opaque = Unmanaged.passRetained(source)
        guard let opus = ss_opusfile()?.pointee else {
            opaque.release()
            throw SoundFile.failure(.libraryMissing, "decode(Ogg Opus)", object: name, OptionalLibrary.opusfile.missing(ss_opusfile_error()))
        }
        self.opus = opus
        var callbacks = Self.callbacks
        var error: Int32 = 0
        guard let file = opus.open_callbacks(opaque.toOpaque(), &callbacks, nil, 0, &error) else {
            opaque.release()
            throw fail(error == OP_ENOTFORMAT ? "not an Ogg Opus stream" : "libopusfile could not open the stream (error \(error))")
        }
        let count = Int(opus.channel_count(file, -1))
        guard let layout = ChannelLayout(channelCount: count) else {
            opus.free(file)
            opaque.release()
            throw fail("\(count) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
        }
        self.file = file
        channels = layout
        // What the stream states (its last granule less the pre-skip), kept to the limit: a
        // lying granule promises no more.
        limit = DecodeLimit(inputBytes: data.count, frameBytes: 4 * count)
        frameCount = limit.capped(Int(opus.pcm_total(file, -1)))
        map = VorbisDecoder.channelMap(count)
    }

    deinit {
        opus.free(file)
        opaque.release()
    }

    func read(maxFrames: Int) throws -> [UInt8] {
        let count = channels.channelCount, frameBytes = 4 * count
        var remaining = max(0, maxFrames)
        // Decoded straight into the bytes returned (a stated length may lie: room for what is
        // left and one packet more, capped; anything beyond grows the array).
        var out = [UInt8](repeating: 0, count: min(remaining, max(0, frameCount - position) + 5_760, limit.room(1 << 24, at: position) + 5_760) * frameBytes)
        var filled = 0
        var scratch = count > 2 ? [Float](repeating: 0, count: 5_760 * count) : []
        while remaining > 0 {
            let want = min(remaining, 5_760)
            if out.count < filled + want * frameBytes { out.append(contentsOf: repeatElement(0, count: filled + want * frameBytes - out.count)) }
            let frames: Int
            if count <= 2 {
                frames = out.withUnsafeMutableBytes { raw in
                    Int(opus.read_float(file, (raw.baseAddress! + filled).assumingMemoryBound(to: Float.self), Int32(want * count), nil))
                }
            } else {
                frames = scratch.withUnsafeMutableBufferPointer { Int(opus.read_float(file, $0.baseAddress, Int32(want * count), nil)) }
            }
            if frames == 0 {
                noteEnd()
                break
            }
            if frames == Int(OP_HOLE) {
                // A gap in the data: skipped, as players do, and noted.
                damage.append(DecodeDamage.Span(kind: .damaged, frame: position, reason: "libopusfile found a gap in the data (OP_HOLE) and skipped it"))
                continue
            }
            guard frames > 0 else {
                if decodedAny {
                    // Damaged after some audio: what decoded stays.
                    noteEnd("libopusfile cannot decode on (error \(frames))")
                    break
                }
                throw SoundFile.failure(.decodingFailed, "decode(Ogg Opus)", object: name, "the stream is damaged (libopusfile error \(frames))")
            }
            guard Int(opus.channel_count(file, -1)) == count else {
                throw SoundFile.failure(.decodingFailed, "decode(Ogg Opus)", object: name, "a chained stream changes its channel count")
            }
            try limit.check(position, adding: frames, format: "Ogg Opus", name: name)
            decodedAny = true
            if count > 2 {
                out.withUnsafeMutableBytes { raw in
                    let dst = (raw.baseAddress! + filled).assumingMemoryBound(to: Float.self)
                    for f in 0..<frames { for c in 0..<count { dst[f * count + c] = scratch[f * count + map[c]] } }
                }
            }
            filled += frames * frameBytes
            remaining -= frames
            position += frames
        }
        if out.count > filled { out.removeLast(out.count - filled) }
        return out
    }

    /// How far before a seek's frame decoding restarts: libopusfile pre-rolls the 80 ms the
    /// format asks for, but its band energies then still read about 1.6 dB low for a while
    /// (measured on a steady tone); a longer run-up converges them.
    static let seekRunUp = 24_000

    /// Notes where decoding ended before the length the stream states (once; at the end of a
    /// stream with gaps, the frames missing are the gaps').
    private func noteEnd(_ reason: String? = nil) {
        guard position < frameCount || reason != nil, !damage.contains(where: { $0.kind == .cutShort }) else { return }
        if reason == nil, damage.contains(where: { $0.kind == .damaged }) { return }
        damage.append(DecodeDamage.Span(kind: .cutShort, frame: position, framesLost: max(0, frameCount - position),
                                        reason: reason ?? "the data ends at frame \(position) of the \(frameCount) the stream states"))
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "\(name) has \(frameCount) frames") }
        let start = max(0, frame - Self.seekRunUp)
        let result = opus.pcm_seek(file, ogg_int64_t(start))
        guard result == 0 else { throw seekError(frame, "libopusfile could not seek in \(name) (error \(result))", code: .decodingFailed) }
        position = start
        if frame > start { _ = try read(maxFrames: frame - start) }
        position = frame
    }
}
