import CVorbis
import Foundation

/// Decodes Ogg Vorbis with libvorbisfile (`ov_open_callbacks` over SoundStage's own reader
/// of the bytes, ``ByteSource``, a file read into memory) to interleaved Float32 in OpenAL's channel order, with
/// frame-exact seeks (`ov_pcm_seek`).
final class VorbisDecoder: NamedDecoder {
    let name: String
    let channels: ChannelLayout
    let sampleRate: Int
    let frameCount: Int
    private(set) var position = 0
    private let source: ByteSource
    private let opaque: Unmanaged<ByteSource>
    private let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
    private let map: [Int]
    private var decodedAny = false
    private(set) var damage: [DecodeDamage.Span] = []
    /// The most the stream may decode to.
    private let limit: DecodeLimit

    var container: SoundFile.Container { .ogg }
    var encoding: String { "vorbis" }
    var outputFormat: BufferFormat { BufferFormat(.float32, channels) }

    /// Vorbis orders 5.1, 6.1 and 7.1 channels differently from OpenAL: for each OpenAL
    /// channel, the Vorbis channel it comes from.
    static func channelMap(_ count: Int) -> [Int] {
        switch count {
        case 6: return [0, 2, 1, 5, 3, 4]          // FL FC FR RL RR LFE -> FL FR FC LFE RL RR
        case 7: return [0, 2, 1, 6, 5, 3, 4]       // FL FC FR SL SR RC LFE -> FL FR FC LFE RC SL SR
        case 8: return [0, 2, 1, 7, 5, 6, 3, 4]    // FL FC FR SL SR RL RR LFE -> FL FR FC LFE RL RR SL SR
        default: return Array(0..<count)
        }
    }

    private static var callbacks: ov_callbacks {
        var callbacks = ov_callbacks()
        callbacks.read_func = { buffer, size, count, datasource in
            guard let buffer, let datasource, size > 0 else { return 0 }
            return Unmanaged<ByteSource>.fromOpaque(datasource).takeUnretainedValue().read(into: buffer, count: size * count) / size
        }
        callbacks.seek_func = { datasource, offset, whence in
            guard let datasource else { return -1 }
            return Unmanaged<ByteSource>.fromOpaque(datasource).takeUnretainedValue().seek(Int(offset), whence: whence) ? 0 : -1
        }
        callbacks.tell_func = { datasource in
            guard let datasource else { return -1 }
            return Unmanaged<ByteSource>.fromOpaque(datasource).takeUnretainedValue().position
        }
        callbacks.close_func = nil
        return callbacks
    }

    init(_ data: Data, name: String) throws {
        self.name = name
        source = ByteSource(data.startIndex == 0 ? data : Data(data))
        opaque = Unmanaged.passRetained(source)
        func fail(_ reason: String) -> SoundStageError {
            SoundFile.failure(.decodingFailed, "decode(Ogg Vorbis)", object: name, reason)
        }
        let opened = ov_open_callbacks(opaque.toOpaque(), file, nil, 0, Self.callbacks)
        guard opened == 0 else {
            opaque.release()
            file.deallocate()
            throw fail(opened == OV_ENOTVORBIS ? "not an Ogg Vorbis stream" : "libvorbisfile could not open the stream (error \(opened))")
        }
        var layout: ChannelLayout?, rate = 0
        if let info = ov_info(file, -1) {
            layout = ChannelLayout(channelCount: Int(info.pointee.channels))
            rate = Int(info.pointee.rate)
        }
        guard let layout, Limits.bufferSampleRates.contains(rate) else {
            let count = ov_info(file, -1).map { Int($0.pointee.channels) } ?? 0
            ov_clear(file)
            opaque.release()
            file.deallocate()
            throw fail(layout == nil ? "\(count) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)" : "sample rate \(rate) Hz is out of range")
        }
        channels = layout
        sampleRate = rate
        // What the stream states (its last granule), kept to the limit: a lying granule
        // promises no more.
        limit = DecodeLimit(inputBytes: data.count, frameBytes: 4 * layout.channelCount)
        frameCount = limit.capped(Int(ov_pcm_total(file, -1)))
        map = Self.channelMap(layout.channelCount)
    }

    deinit {
        ov_clear(file)
        file.deallocate()
        opaque.release()
    }

    func read(maxFrames: Int) throws -> [UInt8] {
        let count = channels.channelCount
        let frameBytes = 4 * count
        // The stated length may lie: room for no more than what is left plus a page, within
        // the limit and capped; anything beyond goes to `overflow`.
        let capacity = min(max(0, maxFrames), max(0, frameCount - position) + 8_192, limit.room(1 << 26, at: position)) * frameBytes
        var overflow: [UInt8] = []
        var remaining = max(0, maxFrames)
        let result = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var section: Int32 = 0
            while remaining > 0 {
                let frames = Int(ov_read_float(file, &pcm, Int32(min(remaining, 4096)), &section))
                if frames == 0 {
                    noteEnd()
                    break
                }
                if frames == Int(OV_HOLE) {
                    // A gap in the data: skipped, as players do, and noted.
                    damage.append(DecodeDamage.Span(kind: .damaged, frame: position, reason: "libvorbisfile found a gap in the data (OV_HOLE) and skipped it"))
                    continue
                }
                guard frames > 0, let pcm else {
                    if decodedAny {
                        // Damaged after some audio: what decoded stays.
                        noteEnd("libvorbisfile cannot decode on (error \(frames))")
                        break
                    }
                    throw SoundFile.failure(.decodingFailed, "decode(Ogg Vorbis)", object: name,
                                            "the stream is damaged (libvorbisfile error \(frames))")
                }
                guard Int(ov_info(file, -1)?.pointee.channels ?? 0) == count else {
                    throw SoundFile.failure(.decodingFailed, "decode(Ogg Vorbis)", object: name,
                                            "a chained stream changes its channel count")
                }
                try limit.check(position, adding: frames, format: "Ogg Vorbis", name: name)
                decodedAny = true
                let bytes = frames * frameBytes
                if initialized + bytes <= capacity, let base = buffer.baseAddress {
                    interleave(pcm, frames: frames, into: UnsafeMutableRawPointer(base + initialized))
                    initialized += bytes
                } else {
                    let start = overflow.count
                    overflow.append(contentsOf: repeatElement(0, count: bytes))
                    overflow.withUnsafeMutableBytes { interleave(pcm, frames: frames, into: $0.baseAddress! + start) }
                }
                remaining -= frames
                position += frames
            }
        }
        return overflow.isEmpty ? result : result + overflow
    }

    /// Notes where decoding ended before the length the stream states (once).
    private func noteEnd(_ reason: String? = nil) {
        guard position < frameCount || reason != nil, !damage.contains(where: { $0.kind == .cutShort }) else { return }
        // At the end of a stream with gaps, the frames missing are the gaps'.
        if reason == nil, damage.contains(where: { $0.kind == .damaged }) { return }
        let lost = max(0, frameCount - position)
        damage.append(DecodeDamage.Span(kind: .cutShort, frame: position, framesLost: lost,
                                        reason: reason ?? "the data ends at frame \(position) of the \(frameCount) the stream states"))
    }

    /// Writes `frames` frames of libvorbisfile's planar output interleaved, in OpenAL's channel
    /// order, as native Float32 bytes at `out`.
    private func interleave(_ pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, frames: Int, into out: UnsafeMutableRawPointer) {
        let count = map.count
        if count == 2, let left = pcm[map[0]], let right = pcm[map[1]] {
            for frame in 0..<frames {
                out.storeBytes(of: left[frame], toByteOffset: 8 * frame, as: Float.self)
                out.storeBytes(of: right[frame], toByteOffset: 8 * frame + 4, as: Float.self)
            }
            return
        }
        for channel in 0..<count {
            guard let plane = pcm[map[channel]] else {
                for frame in 0..<frames { out.storeBytes(of: 0, toByteOffset: 4 * (frame * count + channel), as: Float.self) }
                continue
            }
            for frame in 0..<frames {
                out.storeBytes(of: plane[frame], toByteOffset: 4 * (frame * count + channel), as: Float.self)
            }
        }
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "\(name) has \(frameCount) frames") }
        let result = ov_pcm_seek(file, ogg_int64_t(frame))
        guard result == 0 else { throw seekError(frame, "libvorbisfile could not seek in \(name) (error \(result))", code: .decodingFailed) }
        position = frame
    }
}
