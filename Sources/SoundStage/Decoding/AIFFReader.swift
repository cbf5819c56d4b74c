import Foundation

/// Reads AIFF and AIFC: big-endian PCM (8, 16, 24, 32 bit), 'sowt' (little-endian 16-bit),
/// 'fl32' and 'fl64' floats, and G.711 'ulaw' and 'alaw'. 16-bit PCM and G.711 are kept in
/// a form OpenAL Soft plays as is; 8-bit becomes unsigned 8-bit, 24/32-bit and floats become
/// Float32. Every size is checked against the bytes present.
enum AIFFReader {
    struct Decoded {
        var bytes: [UInt8]
        var format: BufferFormat
        var sampleRate: Int
        var encoding: String
    }

    static func decode(_ data: Data, name: String) throws -> Decoded {
        func fail(_ reason: String) -> SoundStageError {
            SoundStageError(.decodingFailed, operation: "AIFF decode", object: name, reason: reason)
        }
        let b = [UInt8](data)
        func u16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        func tag(_ o: Int) -> String { String(decoding: b[o..<(o + 4)], as: UTF8.self) }
        guard b.count >= 12, tag(0) == "FORM", tag(8) == "AIFF" || tag(8) == "AIFC" else { throw fail("not an AIFF or AIFC file") }
        let isAIFC = tag(8) == "AIFC"
        var comm: (channels: Int, frames: Int, bits: Int, rate: Double, compression: String)?
        var sound: Range<Int>?
        var offset = 12
        while offset + 8 <= b.count {
            let id = tag(offset), size = u32(offset + 4), body = offset + 8
            let available = b.count - body
            switch id {
            case "COMM":
                guard available >= 18, size >= 18 else { throw fail("the COMM chunk is too short") }
                var compression = "NONE"
                if isAIFC {
                    guard available >= 22, size >= 22 else { throw fail("the AIFC COMM chunk has no compression type") }
                    compression = tag(body + 18)
                }
                comm = (u16(body), u32(body + 2), u16(body + 6), extended80(Array(b[(body + 8)..<(body + 18)])), compression)
            case "SSND":
                guard available >= 8 else { throw fail("the SSND chunk is too short") }
                let start = body + 8 + u32(body)
                let end = body + min(size, available)
                guard start <= end else { throw fail("the SSND data offset points past the chunk") }
                sound = start..<end
            default:
                break
            }
            guard size <= available else { break }
            offset = body + size + (size & 1)
        }
        guard let comm else { throw fail("no COMM chunk") }
        guard let sound else { throw fail("no SSND chunk") }
        guard comm.channels > 0, let layout = ChannelLayout(channelCount: comm.channels) else {
            throw fail("\(comm.channels) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
        }
        guard comm.rate.isFinite, comm.rate >= 1, comm.rate <= 384_000 else { throw fail("sample rate \(comm.rate) Hz is out of range") }
        let rate = Int(comm.rate.rounded())
        let raw = b[sound]
        func frames(_ bytesPerSample: Int) -> Int { min(comm.frames, raw.count / (bytesPerSample * comm.channels)) }

        switch (comm.compression, comm.bits) {
        case ("NONE", 8), ("twos", 8):
            let n = frames(1) * comm.channels
            return Decoded(bytes: raw.prefix(n).map { $0 ^ 0x80 }, format: BufferFormat(.uint8, layout), sampleRate: rate, encoding: "pcm-s8")
        case ("NONE", 16), ("twos", 16), ("sowt", 16):
            let n = frames(2) * comm.channels
            var out = [UInt8](repeating: 0, count: n * 2)
            let little = comm.compression == "sowt"
            var i = raw.startIndex
            for k in 0..<n {
                out[2 * k] = little ? b[i] : b[i + 1]
                out[2 * k + 1] = little ? b[i + 1] : b[i]
                i += 2
            }
            return Decoded(bytes: out, format: BufferFormat(.int16, layout), sampleRate: rate, encoding: little ? "pcm-s16le" : "pcm-s16")
        case ("NONE", 24), ("in24", 24), ("NONE", 32), ("in32", 32):
            let width = comm.bits / 8
            let n = frames(width) * comm.channels
            let scale = Float(1 << (comm.bits - 1))
            var floats = [Float](repeating: 0, count: n)
            var i = raw.startIndex
            for k in 0..<n {
                var v: Int32 = 0
                for j in 0..<width { v = v << 8 | Int32(b[i + j]) }
                v <<= Int32(32 - comm.bits)                   // sign-extend from the top
                floats[k] = Float(v >> Int32(32 - comm.bits)) / scale
                i += width
            }
            return Decoded(bytes: floats.withUnsafeBytes { Array($0) }, format: BufferFormat(.float32, layout), sampleRate: rate, encoding: "pcm-s\(comm.bits)")
        case ("fl32", _), ("FL32", _):
            let n = frames(4) * comm.channels
            var floats = [Float](repeating: 0, count: n)
            for k in 0..<n { floats[k] = Float(bitPattern: UInt32(u32(raw.startIndex + 4 * k))) }
            guard floats.allSatisfy(\.isFinite) else { throw fail("the float samples include NaN or infinity") }
            return Decoded(bytes: floats.withUnsafeBytes { Array($0) }, format: BufferFormat(.float32, layout), sampleRate: rate, encoding: "float32")
        case ("fl64", _), ("FL64", _):
            let n = frames(8) * comm.channels
            var floats = [Float](repeating: 0, count: n)
            for k in 0..<n {
                let o = raw.startIndex + 8 * k
                floats[k] = Float(Double(bitPattern: UInt64(u32(o)) << 32 | UInt64(u32(o + 4))))
            }
            guard floats.allSatisfy(\.isFinite) else { throw fail("the float samples include NaN or infinity") }
            return Decoded(bytes: floats.withUnsafeBytes { Array($0) }, format: BufferFormat(.float32, layout), sampleRate: rate, encoding: "float64")
        case ("ulaw", _), ("ULAW", _), ("alaw", _), ("ALAW", _):
            let mu = comm.compression.lowercased() == "ulaw"
            let format = BufferFormat(mu ? .muLaw : .aLaw, layout)
            guard format.alFormat != nil else { throw fail("\(format) is not a format OpenAL Soft plays") }
            return Decoded(bytes: Array(raw.prefix(frames(1) * comm.channels)), format: format, sampleRate: rate, encoding: mu ? "mu-law" : "a-law")
        default:
            throw fail("compression '\(comm.compression)' with \(comm.bits)-bit samples is not read (IMA4 is not read yet)")
        }
    }

    /// An IEEE 754 80-bit extended float, big-endian, as AIFF stores its sample rate.
    static func extended80(_ bytes: [UInt8]) -> Double {
        let exponent = Int(bytes[0] & 0x7F) << 8 | Int(bytes[1])
        var mantissa: UInt64 = 0
        for i in 2..<10 { mantissa = mantissa << 8 | UInt64(bytes[i]) }
        if exponent == 0 && mantissa == 0 { return 0 }
        if exponent == 0x7FFF { return .nan }
        let value = Double(mantissa) * pow(2, Double(exponent - 16383 - 63))
        return bytes[0] & 0x80 != 0 ? -value : value
    }
}
