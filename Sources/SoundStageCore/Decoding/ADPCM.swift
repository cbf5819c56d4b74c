/// ADPCM decoding to 16-bit linear samples, for the encodings OpenAL Soft does not take
/// (Apple IMA4 from AIFC and CAF) and for reading WAV IMA and MS ADPCM in Swift (metering,
/// conversion, streaming with frame-accurate seeks). Every function decodes whole blocks
/// and reads only inside the bytes it is given.
enum ADPCM {
    static let imaSteps: [Int32] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97,
        107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796,
        876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871,
        5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623,
        27086, 29794, 32767,
    ]
    static let imaIndexSteps: [Int32] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]

    /// One IMA channel's state: the predicted sample and the step index.
    struct IMAState {
        var sample: Int32
        var index: Int32

        /// Decodes one 4-bit code and returns the new sample.
        mutating func decode(_ nibble: UInt8) -> Int16 {
            let step = ADPCM.imaSteps[Int(index)]
            var diff = step >> 3
            if nibble & 1 != 0 { diff += step >> 2 }
            if nibble & 2 != 0 { diff += step >> 1 }
            if nibble & 4 != 0 { diff += step }
            sample = min(32_767, max(-32_768, nibble & 8 != 0 ? sample - diff : sample + diff))
            index = min(88, max(0, index + ADPCM.imaIndexSteps[Int(nibble & 15)]))
            return Int16(sample)
        }
    }

    /// Decodes one WAV (Microsoft/DVI) IMA ADPCM block of `frames` frames: per channel a
    /// 4-byte header (first sample, step index), then 4-byte groups of 8 codes, channel by
    /// channel, low nibble first. Writes `frames * channels` interleaved samples to `out`.
    static func decodeIMABlock(_ block: UnsafeRawBufferPointer, channels: Int, frames: Int, into out: UnsafeMutablePointer<Int16>) {
        var states: [IMAState] = []
        for c in 0..<channels {
            let first = Int16(bitPattern: UInt16(block[4 * c]) | UInt16(block[4 * c + 1]) << 8)
            states.append(IMAState(sample: Int32(first), index: min(88, Int32(block[4 * c + 2]))))
            out[c] = first
        }
        var offset = 4 * channels
        var frame = 1
        while frame < frames {
            for c in 0..<channels {
                for k in 0..<8 {
                    let byte = block[offset + k / 2]
                    let code = k & 1 == 0 ? byte & 15 : byte >> 4
                    let sample = states[c].decode(code)
                    if frame + k < frames { out[(frame + k) * channels + c] = sample }
                }
                offset += 4
            }
            frame += 8
        }
    }

    /// Decodes one Apple IMA4 packet: per channel 34 bytes (a big-endian header holding the
    /// predictor's top 9 bits and the step index, then 64 codes, low nibble first), channels
    /// one after the other. Writes `64 * channels` interleaved samples to `out`.
    static func decodeAppleIMA4Packet(_ packet: UnsafeRawBufferPointer, channels: Int, into out: UnsafeMutablePointer<Int16>) {
        for c in 0..<channels {
            let base = 34 * c
            let header = UInt16(packet[base]) << 8 | UInt16(packet[base + 1])
            var state = IMAState(sample: Int32(Int16(bitPattern: header & 0xFF80)), index: min(88, Int32(header & 0x7F)))
            for k in 0..<64 {
                let byte = packet[base + 2 + k / 2]
                out[k * channels + c] = state.decode(k & 1 == 0 ? byte & 15 : byte >> 4)
            }
        }
    }

    static let msCoefficients: [(Int, Int)] = [(256, 0), (512, -256), (0, 0), (192, 64), (240, 0), (460, -208), (392, -232)]
    static let msAdaptation: [Int] = [230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230]

    /// Decodes one Microsoft ADPCM block of `frames` frames (the standard seven coefficient
    /// pairs): per channel a predictor index, then the deltas, second and first samples,
    /// then codes interleaved across channels, high nibble first.
    static func decodeMSBlock(_ block: UnsafeRawBufferPointer, channels: Int, frames: Int, into out: UnsafeMutablePointer<Int16>) {
        func s16(_ o: Int) -> Int { Int(Int16(bitPattern: UInt16(block[o]) | UInt16(block[o + 1]) << 8)) }
        var coef: [(Int, Int)] = [], delta: [Int] = [], s1: [Int] = [], s2: [Int] = []
        for c in 0..<channels {
            coef.append(msCoefficients[min(6, Int(block[c]))])
            delta.append(s16(channels + 2 * c))
            s1.append(s16(3 * channels + 2 * c))
            s2.append(s16(5 * channels + 2 * c))
            out[c] = Int16(s2[c])
            if frames > 1 { out[channels + c] = Int16(s1[c]) }
        }
        var offset = 7 * channels
        var index = 2 * channels
        let total = frames * channels
        while index < total {
            let byte = block[offset]
            offset += 1
            for code in [byte >> 4, byte & 15] where index < total {
                let c = index % channels
                let signed = Int(code) - (code & 8 != 0 ? 16 : 0)
                let predicted = (s1[c] * coef[c].0 + s2[c] * coef[c].1) >> 8
                let sample = min(32_767, max(-32_768, predicted + signed * delta[c]))
                s2[c] = s1[c]
                s1[c] = sample
                // A damaged block can grow the step without bound; no real one comes near 2^24.
                delta[c] = min(1 << 24, max(16, (msAdaptation[Int(code)] * delta[c]) >> 8))
                out[index] = Int16(sample)
                index += 1
            }
        }
    }
}
