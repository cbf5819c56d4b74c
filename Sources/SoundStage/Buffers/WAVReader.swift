import Foundation

/// Reads linear-PCM WAV files (8-bit unsigned, 16-bit signed, 32-bit float; one to eight
/// channels; RIFF and WAVE_FORMAT_EXTENSIBLE), validating every size against the bytes
/// present. Used by ``AudioBuffer/init(context:contentsOf:)``.
enum WAVReader {
    struct Decoded {
        var bytes: [UInt8]
        var format: BufferFormat
        var sampleRate: Int
    }

    static func decode(_ data: Data, name: String) throws -> Decoded {
        func fail(_ reason: String) -> SoundStageError {
            SoundStageError(.decodingFailed, operation: "WAV decode", object: name, reason: reason)
        }
        let b = [UInt8](data)
        func u16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func tag(_ o: Int) -> String { String(decoding: b[o..<(o + 4)], as: UTF8.self) }
        guard b.count >= 12 else { throw fail(b.isEmpty ? "the file is empty" : "only \(b.count) bytes: too short for a WAV header") }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { throw fail("not a RIFF/WAVE file") }
        var offset = 12
        var fmt: (code: Int, channels: Int, rate: Int, blockAlign: Int, bits: Int)?
        while offset + 8 <= b.count {
            let id = tag(offset), size = u32(offset + 4), body = offset + 8
            let available = b.count - body
            switch id {
            case "fmt ":
                guard size >= 16, available >= 16 else { throw fail("the fmt chunk is \(size) bytes, too short") }
                var code = u16(body)
                if code == 0xFFFE {
                    guard size >= 40, available >= 40 else { throw fail("an extensible fmt chunk must be 40 bytes, got \(size)") }
                    code = u16(body + 24)
                }
                fmt = (code, u16(body + 2), u32(body + 4), u16(body + 12), u16(body + 14))
            case "data":
                guard let f = fmt else { throw fail("the data chunk comes before any fmt chunk") }
                let encoding: SampleEncoding
                switch (f.code, f.bits) {
                case (1, 8): encoding = .uint8
                case (1, 16): encoding = .int16
                case (3, 32): encoding = .float32
                default: throw fail("format \(f.code) with \(f.bits)-bit samples is not linear PCM 8/16-bit or float32")
                }
                guard f.channels > 0, let layout = ChannelLayout(channelCount: f.channels) else {
                    throw fail("\(f.channels) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
                }
                guard (1...384_000).contains(f.rate) else { throw fail("sample rate \(f.rate) Hz is out of range") }
                let format = BufferFormat(encoding, layout)
                guard f.blockAlign == format.bytesPerBlock else {
                    throw fail("block align \(f.blockAlign) does not match \(f.channels) channels of \(f.bits)-bit samples")
                }
                // A truncated file keeps the whole frames that are there.
                let usable = min(size, available) / format.bytesPerBlock * format.bytesPerBlock
                return Decoded(bytes: Array(b[body..<(body + usable)]), format: format, sampleRate: f.rate)
            default:
                break   // LIST, fact, cue and anything else
            }
            guard size <= available else { break }
            offset = body + size + (size & 1)
        }
        throw fail(fmt == nil ? "no fmt chunk" : "no data chunk")
    }
}
