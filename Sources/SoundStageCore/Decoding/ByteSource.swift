import Foundation

/// The bytes a C decoder library reads through SoundStage's callbacks, and its read position
/// (libvorbisfile and libopusfile read this way: from a file read into memory, or data).
final class ByteSource {
    let data: Data
    var position = 0
    init(_ data: Data) { self.data = data }

    /// Copies up to `count` bytes to `buffer` from the position; returns how many.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let n = max(0, min(count, data.count - position))
        data.withUnsafeBytes { raw in buffer.copyMemory(from: raw.baseAddress! + position, byteCount: n) }
        position += n
        return n
    }

    /// Moves to `offset` from the start, the position (`SEEK_CUR`) or the end; false outside
    /// the bytes.
    func seek(_ offset: Int, whence: Int32) -> Bool {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = data.count
        default: return false
        }
        let target = base + offset
        guard target >= 0, target <= data.count else { return false }
        position = target
        return true
    }
}
