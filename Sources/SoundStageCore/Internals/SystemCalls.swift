#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Current `CLOCK_MONOTONIC` time in microseconds.
package func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
}

/// `strerror` for an errno value, as a Swift string.
package func errnoDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// Gives the heap memory freed so far back to the system: glibc's `malloc_trim(0)`, looked up
/// at run time (nothing where the C library has none). A context's voices hold about 10 MB of
/// OpenAL Soft's memory; freed, glibc keeps the pages unless they sit at the top of its heap,
/// so without this every device move left the process 10 MB larger than before it (measured
/// by `scripts/soak.sh`).
func releaseFreedHeap() {
    _ = HeapTrim.trim?(0)
}

private enum HeapTrim {
    static let trim: (@convention(c) (Int) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim")
        .map { unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self) }
}

/// glibc's `pthread_mutex_clocklock` (2.30 and later), looked up at run time: the Swift module
/// does not declare it. Nil where the C library has none (``RecursiveLock``'s bounded wait is
/// then of the realtime clock).
enum MutexClockLock {
    typealias Lock = @convention(c) (UnsafeMutablePointer<pthread_mutex_t>, clockid_t, UnsafePointer<timespec>) -> Int32
    static let lock: Lock? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_mutex_clocklock")
        .map { unsafeBitCast($0, to: Lock.self) }
}
