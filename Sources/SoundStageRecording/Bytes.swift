import SoundStageCore
import SoundStageSession

/// Little- and big-endian byte encodings of header fields.
enum Bytes {
    static func le32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, Array.init) }
    static func le16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, Array.init) }
    static func be32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, Array.init) }
    static func be64(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: UInt64(bitPattern: v).bigEndian, Array.init) }
    static func beDouble(_ v: Double) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.bigEndian, Array.init) }
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Samples in -1...1 as little- or big-endian PCM of `bits` (16, 24: integers; 32: float).
    static func pcm(_ samples: [Float], bits: Int, bigEndian: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(samples.count * bits / 8)
        for s in samples {
            let v = max(-1, min(1, s))
            switch bits {
            case 16:
                let i = UInt16(bitPattern: Int16((v * 32_767).rounded()))
                out += bigEndian ? [UInt8(i >> 8), UInt8(i & 0xFF)] : [UInt8(i & 0xFF), UInt8(i >> 8)]
            case 24:
                let i = UInt32(bitPattern: Int32((v * 8_388_607).rounded()))
                let b = [UInt8(i & 0xFF), UInt8((i >> 8) & 0xFF), UInt8((i >> 16) & 0xFF)]
                out += bigEndian ? b.reversed() : b
            default:
                let i = s.bitPattern
                let b = [UInt8(i & 0xFF), UInt8((i >> 8) & 0xFF), UInt8((i >> 16) & 0xFF), UInt8(i >> 24)]
                out += bigEndian ? b.reversed() : b
            }
        }
        return out
    }
}
