#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The kernel's name of a thread SoundStage starts: what `top -H`, `gdb`, `perf` and
/// `/proc/PID/task/TID/comm` show, and what a test or a profiler finds a thread by.
///
/// Set by the thread itself, first thing. Foundation's `Thread.name` is not a way to set it:
/// its setter names the kernel's thread only once the new thread's id has been stored, which
/// the starting thread does after `pthread_create` returns, so a thread that ran first kept
/// its creator's name (an engine's service thread was "oot.default-qos", the dispatch pool's,
/// in 4 of 20 starts beside three busy loops, and 1 of 200 serial threads idle).
package enum ThreadName {
    /// The most the kernel keeps, in bytes (16 with the terminating zero).
    static let longestBytes = 15

    /// Names the calling thread `name`, cut to ``longestBytes`` bytes on a character boundary
    /// (written to `/proc/thread-self/comm`, as `pthread_setname_np` does on Linux; glibc
    /// declares that one only under `_GNU_SOURCE`, which Swift's Glibc module does not set).
    package static func setCurrent(_ name: String) {
        var kept = ""
        for character in name where kept.utf8.count + String(character).utf8.count <= longestBytes { kept.append(character) }
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = Array(kept.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The kernel's name of the calling thread ("" where it cannot be read).
    package static var current: String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: longestBytes + 2)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix(count).prefix { $0 != 0x0A }, as: UTF8.self)
    }
}
