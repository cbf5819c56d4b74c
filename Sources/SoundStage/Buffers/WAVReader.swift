import Foundation

/// Reads WAV files (RIFF and WAVE_FORMAT_EXTENSIBLE; one to eight channels), validating every
/// size against the bytes present. Formats OpenAL Soft plays natively stay as they are:
/// 8-bit and 16-bit PCM, float32, u-law, a-law, IMA ADPCM and MS ADPCM (so compressed sounds
/// stay small in memory); 24-bit and 32-bit PCM and float64 become float32.
enum WAVReader {
    struct Decoded {
        var bytes: [UInt8]
        var format: BufferFormat
        var sampleRate: Int
        var encoding: String
    }

    typealias Format = (code: Int, channels: Int, rate: Int, blockAlign: Int, bits: Int, samplesPerBlock: Int)

    /// Turns the data chunk into buffer bytes. A truncated file keeps the whole frames (or
    /// ADPCM blocks) that are there.
    static func convert(_ payload: ArraySlice<UInt8>, _ f: Format, _ layout: ChannelLayout, _ fail: (String) -> SoundStageError) throws -> Decoded {
        let c = f.channels
        func whole(_ bytesPerFrame: Int) -> ArraySlice<UInt8> { payload.prefix(payload.count / bytesPerFrame * bytesPerFrame) }
        func check(_ format: BufferFormat) throws {
            guard f.blockAlign == format.bytesPerBlock else {
                throw fail("block align \(f.blockAlign) does not match \(format) (\(format.bytesPerBlock) bytes)")
            }
        }
        switch (f.code, f.bits) {
        case (1, 8), (1, 16), (3, 32), (7, 8), (6, 8):
            let encoding: SampleEncoding = f.code == 7 ? .muLaw : f.code == 6 ? .aLaw : f.bits == 8 ? .uint8 : f.bits == 16 ? .int16 : .float32
            let format = BufferFormat(encoding, layout)
            try check(format)
            guard format.alFormat != nil else { throw fail("\(format) is not a format OpenAL Soft plays") }
            let name = ["uint8": "pcm-u8", "int16": "pcm-s16", "float32": "float32", "mu-law": "mu-law", "a-law": "a-law"]["\(encoding)"] ?? "\(encoding)"
            return Decoded(bytes: Array(whole(format.bytesPerBlock)), format: format, sampleRate: f.rate, encoding: name)
        case (1, 24), (1, 32), (3, 64):
            let width = f.bits / 8
            guard f.blockAlign == width * c else { throw fail("block align \(f.blockAlign) does not match \(c) channels of \(f.bits)-bit samples") }
            let data = whole(width * c)
            var floats = [Float](repeating: 0, count: data.count / width)
            var i = data.startIndex
            for k in floats.indices {
                var v: UInt64 = 0
                for j in (0..<width).reversed() { v = v << 8 | UInt64(data[i + j]) }
                if f.code == 3 {
                    floats[k] = Float(Double(bitPattern: v))
                } else {
                    let shift = UInt64(64 - f.bits)
                    floats[k] = Float(Int64(bitPattern: v << shift) >> Int64(shift)) / Float(UInt64(1) << UInt64(f.bits - 1))
                }
                i += width
            }
            guard floats.allSatisfy(\.isFinite) else { throw fail("the float samples include NaN or infinity") }
            return Decoded(bytes: floats.withUnsafeBytes { Array($0) }, format: BufferFormat(.float32, layout), sampleRate: f.rate,
                           encoding: f.code == 3 ? "float64" : "pcm-s\(f.bits)")
        case (0x11, 4), (2, 4):
            let ima = f.code == 0x11
            let perChannel = f.blockAlign / max(c, 1)
            guard perChannel > (ima ? 4 : 7) else { throw fail("block align \(f.blockAlign) is too small for \(ima ? "IMA" : "MS") ADPCM blocks") }
            let frames = f.samplesPerBlock > 0 ? f.samplesPerBlock : (ima ? (perChannel - 4) * 2 + 1 : (perChannel - 7) * 2 + 2)
            let format = BufferFormat(ima ? .imaADPCM(framesPerBlock: frames) : .msADPCM(framesPerBlock: frames), layout)
            guard format.alFormat != nil else { throw fail("\(format) is not a format OpenAL Soft plays (ADPCM is mono or stereo)") }
            if let problem = format.blockAlignmentProblem { throw fail(problem) }
            try check(format)
            return Decoded(bytes: Array(whole(format.bytesPerBlock)), format: format, sampleRate: f.rate, encoding: ima ? "ima-adpcm" : "ms-adpcm")
        default:
            throw fail("format \(f.code) with \(f.bits)-bit samples is not one SoundStage reads")
        }
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
        var fmt: Format?
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
                // cbSize at 16; for ADPCM, wSamplesPerBlock follows at 18.
                let extra = size >= 18 && available >= 18 ? u16(body + 16) : 0
                let samplesPerBlock = extra >= 2 && size >= 20 && available >= 20 ? u16(body + 18) : 0
                fmt = (code, u16(body + 2), u32(body + 4), u16(body + 12), u16(body + 14), samplesPerBlock)
            case "data":
                guard let f = fmt else { throw fail("the data chunk comes before any fmt chunk") }
                guard f.channels > 0, let layout = ChannelLayout(channelCount: f.channels) else {
                    throw fail("\(f.channels) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
                }
                guard (1...384_000).contains(f.rate) else { throw fail("sample rate \(f.rate) Hz is out of range") }
                let payload = b[body..<(body + min(size, available))]
                return try convert(payload, f, layout, fail)
            default:
                break   // LIST, fact, cue and anything else
            }
            guard size <= available else { break }
            offset = body + size + (size & 1)
        }
        throw fail(fmt == nil ? "no fmt chunk" : "no data chunk")
    }
}
