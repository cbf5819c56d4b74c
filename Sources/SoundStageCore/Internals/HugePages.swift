#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asks the kernel for transparent huge pages (`madvise(MADV_HUGEPAGE)`) under memory about
/// to be written for the first time, so that writing it faults in a page per 2 MB rather than
/// per 4 KB. Only the whole 2 MB pages inside the range are advised (the call needs page
/// alignment and the memory around may be someone else's); a kernel that declines leaves
/// 4 KB pages, which is only slower.
enum HugePages {
    /// The size of a huge page on x86-64 and arm64 with 4 KB pages.
    static let size = 2 << 20

    /// Advises the whole huge pages inside `count` bytes from `start`.
    static func advise(_ start: UnsafeMutableRawPointer, count: Int) {
        let first = (Int(bitPattern: start) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: start) + count) & ~(size - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
    }
}
