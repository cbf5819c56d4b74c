#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Current `CLOCK_MONOTONIC` time in microseconds.
func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
}

/// `strerror` for an errno value, as a Swift string.
func errnoDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
}
