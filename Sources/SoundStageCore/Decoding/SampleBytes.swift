import Foundation

/// A sound's encoded samples as a buffer keeps them: an array of their own, or the range of a
/// file read whole into memory that holds them as they are (a native PCM file), kept without
/// copying it out. OpenAL takes its own copy at upload either way; an array is made only when
/// asked for (``array``).
struct SampleBytes: Sendable {
    private enum Storage: Sendable {
        case array([UInt8])
        case file(Data, Range<Int>)
    }

    private let storage: Storage

    init(_ bytes: [UInt8]) { storage = .array(bytes) }

    /// `range` of `data` (the file's bytes), not copied.
    init(_ data: Data, range: Range<Int>) { storage = .file(data, range) }

    var count: Int {
        switch storage {
        case .array(let bytes): bytes.count
        case .file(_, let range): range.count
        }
    }

    var isEmpty: Bool { count == 0 }

    /// The bytes as an array (made now for a file's range).
    var array: [UInt8] {
        switch storage {
        case .array(let bytes): bytes
        case .file(let data, let range): data.withUnsafeBytes { Array(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .array(let bytes): try bytes.withUnsafeBytes(body)
        case .file(let data, let range): try data.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
    }
}
