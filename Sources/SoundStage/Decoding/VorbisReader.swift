import CVorbis
import Foundation

/// Decodes Ogg Vorbis with libvorbisfile (`ov_open_callbacks` over SoundStage's own
/// in-memory reader) to interleaved Float32 in OpenAL's channel order.
enum VorbisReader {
    /// The bytes being decoded and the read position; handed to the C callbacks.
    final class MemorySource {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    struct Decoded {
        var samples: [Float]
        var channels: ChannelLayout
        var sampleRate: Int
    }

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

    static func decode(_ data: Data, name: String) throws -> Decoded {
        func fail(_ reason: String) -> SoundStageError {
            SoundStageError(.decodingFailed, operation: "Ogg Vorbis decode", object: name, reason: reason)
        }
        let source = MemorySource([UInt8](data))
        let opaque = Unmanaged.passRetained(source)
        defer { opaque.release() }
        var callbacks = ov_callbacks()   // SoundStage's own reader over the bytes in memory
        callbacks.read_func = { buffer, size, count, datasource in
            guard let buffer, let datasource, size > 0 else { return 0 }
            let source = Unmanaged<MemorySource>.fromOpaque(datasource).takeUnretainedValue()
            let wanted = min(size * count, source.bytes.count - source.position)
            source.bytes.withUnsafeBytes { raw in
                buffer.copyMemory(from: raw.baseAddress! + source.position, byteCount: wanted)
            }
            source.position += wanted
            return wanted / size
        }
        callbacks.seek_func = { datasource, offset, whence in
            guard let datasource else { return -1 }
            let source = Unmanaged<MemorySource>.fromOpaque(datasource).takeUnretainedValue()
            let base: Int
            switch whence {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = source.position
            case SEEK_END: base = source.bytes.count
            default: return -1
            }
            let target = base + Int(offset)
            guard target >= 0, target <= source.bytes.count else { return -1 }
            source.position = target
            return 0
        }
        callbacks.tell_func = { datasource in
            guard let datasource else { return -1 }
            return Unmanaged<MemorySource>.fromOpaque(datasource).takeUnretainedValue().position
        }
        callbacks.close_func = nil

        let decoded = try decodeStream(opaque, callbacks, dataSize: data.count, fail: fail)
        guard !decoded.samples.isEmpty else { throw fail("the stream holds no audio (a file cut inside its first audio page)") }
        return decoded
    }

    private static func decodeStream(
        _ opaque: Unmanaged<MemorySource>, _ callbacks: ov_callbacks,
        dataSize: Int, fail: (String) -> SoundStageError
    ) throws -> Decoded {
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        defer { file.deallocate() }
        let opened = ov_open_callbacks(opaque.toOpaque(), file, nil, 0, callbacks)
        guard opened == 0 else {
            throw fail(opened == OV_ENOTVORBIS ? "not an Ogg Vorbis stream" : "libvorbisfile could not open the stream (error \(opened))")
        }
        defer { ov_clear(file) }
        guard let info = ov_info(file, -1) else { throw fail("no stream information") }
        let count = Int(info.pointee.channels), rate = Int(info.pointee.rate)
        guard let layout = ChannelLayout(channelCount: count) else {
            throw fail("\(count) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
        }
        guard (1...384_000).contains(rate) else { throw fail("sample rate \(rate) Hz is out of range") }
        // The stated length may lie: reserve no more than a generous multiple of the input.
        let stated = Int(max(0, ov_pcm_total(file, -1)))
        var samples: [Float] = []
        samples.reserveCapacity(min(stated * count, dataSize * 64))
        let map = channelMap(count)
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        var section: Int32 = 0
        while true {
            let frames = ov_read_float(file, &pcm, 4096, &section)
            if frames == 0 { break }
            if frames == Int(OV_HOLE) { continue }   // a gap in the data: skip it, as players do
            guard frames > 0, let pcm else {
                if !samples.isEmpty { break }        // damaged after some audio: keep what decoded
                throw fail("the stream is damaged (libvorbisfile error \(frames))")
            }
            guard Int(ov_info(file, -1)?.pointee.channels ?? 0) == count else {
                throw fail("a chained stream changes its channel count")
            }
            for frame in 0..<frames {
                for channel in 0..<count { samples.append(pcm[map[channel]]![frame]) }
            }
        }
        return Decoded(samples: samples, channels: layout, sampleRate: rate)
    }
}
