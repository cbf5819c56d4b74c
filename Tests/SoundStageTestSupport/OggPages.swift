import Foundation

/// Ogg pages in a file's bytes, as RFC 3533 lays them out: where each begins, and a page's
/// granule position rewritten with its checksum made again, so a decoder takes the page as
/// real (for streams that lie about their length).
package enum OggPages {
    /// Where each page begins ("OggS" and version 0).
    package static func starts(_ data: Data) -> [Int] {
        let bytes = [UInt8](data)
        guard bytes.count >= 27 else { return [] }
        return (0...(bytes.count - 27)).filter { i in
            bytes[i] == 0x4F && bytes[i + 1] == 0x67 && bytes[i + 2] == 0x67 && bytes[i + 3] == 0x53 && bytes[i + 4] == 0
        }
    }

    /// `data` with the page at `start` stating granule position `granule`, its CRC made again.
    package static func settingGranule(_ granule: UInt64, ofPageAt start: Int, in data: Data) -> Data {
        var bytes = [UInt8](data)
        for i in 0..<8 { bytes[start + 6 + i] = UInt8(truncatingIfNeeded: granule >> UInt64(8 * i)) }
        let segments = Int(bytes[start + 26])
        let body = (0..<segments).reduce(0) { $0 + Int(bytes[start + 27 + $1]) }
        let end = start + 27 + segments + body
        for i in 0..<4 { bytes[start + 22 + i] = 0 }
        let crc = checksum(bytes[start..<end])
        for i in 0..<4 { bytes[start + 22 + i] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * i)) }
        return Data(bytes)
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at 0, no final XOR.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
