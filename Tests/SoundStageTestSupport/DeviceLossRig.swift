import Foundation

/// What the device-loss tests read: the times `soundstage session` prints, and a WAV file
/// still being written by OpenAL Soft's wave backend.
package enum DeviceLossRig {
    /// The milliseconds a `soundstage session` line was printed at.
    package static func milliseconds(_ line: String) -> Double? {
        Double(line.split(separator: " ", omittingEmptySubsequences: true).first ?? "")
    }

    /// The first channel of a WAV file still being written (its sizes not filled in yet):
    /// the format from its `fmt ` chunk, the samples from after its `data` chunk's header.
    package static func firstChannel(ofLiveWAV data: Data) -> ([Float], Int)? {
        let bytes = [UInt8](data)
        func find(_ tag: String) -> Int? {
            let t = Array(tag.utf8)
            return (12..<(bytes.count - 8)).first { Array(bytes[$0..<($0 + 4)]) == t }
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard let fmt = find("fmt "), let chunk = find("data") else { return nil }
        let channels = u16(fmt + 10), rate = u32(fmt + 12), bits = u16(fmt + 22)
        let body = Array(bytes[(chunk + 8)...])
        let frameBytes = channels * bits / 8
        guard channels > 0, bits == 16 || bits == 32 else { return nil }
        let frames = body.count / frameBytes
        let samples: [Float] = (0..<frames).map { f in
            let at = f * frameBytes
            if bits == 16 { return Float(Int16(bitPattern: UInt16(body[at]) | UInt16(body[at + 1]) << 8)) / 32768 }
            return Float(bitPattern: UInt32(body[at]) | UInt32(body[at + 1]) << 8 | UInt32(body[at + 2]) << 16 | UInt32(body[at + 3]) << 24)
        }
        return (samples, rate)
    }
}
