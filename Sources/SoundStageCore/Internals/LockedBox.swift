#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock of its own (a pthread mutex), reachable only inside ``withLock(_:)``:
/// for state that is not under the gateway lock (``LockedState``), such as a watcher's, a
/// sound's cache or an engine's output.
///
/// It stands where `Synchronization.Mutex` would: ThreadSanitizer cannot see `Mutex`'s futex
/// on Linux (Swift 6.3.1: two threads appending under one `Mutex` are reported as racing),
/// while it knows pthread mutexes, so `scripts/sanitize.sh thread` can tell a real race from
/// a locked access.
///
/// The value lives in memory of its own rather than in a stored property, so its `inout`
/// access is not checked at run time (the mutex, which is not recursive, already makes it
/// exclusive: opening the box again from inside would deadlock, in every build).
package final class LockedBox<Value>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Takes the lock and runs `body` on the value.
    @inlinable @inline(__always)
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }

    /// Takes the lock if it comes within `timeout` (0 to an hour; of the monotonic clock, as
    /// ``RecursiveLock``'s bounded wait) and runs `body` on the value; nil, and `body` not run,
    /// when it did not come (another thread held it all that time). For a thread that must not
    /// wait long, such as an engine's service thread.
    package func withLock<R, E: Error>(waitingAtMost timeout: Duration, _ body: (inout Value) throws(E) -> R) throws(E) -> R? {
        let (seconds, attoseconds) = timeout.components
        guard RecursiveLock.lock(mutex, within: Double(seconds) + Double(attoseconds) * 1e-18) else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
