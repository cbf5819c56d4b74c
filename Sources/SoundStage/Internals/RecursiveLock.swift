#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Proof that the calling thread holds ``OpenAL/lock``.
///
/// Only the lock makes one, and only for the length of a `withLock` closure; it cannot be
/// copied, stored or made elsewhere. A function that must run under the lock takes one as a
/// `borrowing LockHeld` parameter, so the compiler refuses a call made without the lock:
/// the rule is in the types, not in a `...Locked` suffix.
struct LockHeld: ~Copyable {
    fileprivate init() {}
    /// Another proof, made from one in hand (for a scope that carries it along).
    init(_ proof: borrowing LockHeld) {}
}

/// A recursive mutex whose `withLock` hands its body a ``LockHeld`` proof.
///
/// Recursive because releasing the last reference to an OpenAL object runs its `deinit`,
/// which deletes the OpenAL name under this lock, and that can happen while the lock is held
/// (a player dropping its source, a source dropping the buffer it played).
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How many `withLock` calls the holding thread is inside; read and written only by the
    /// thread holding the mutex.
    private var depthValue = 0

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held.
    @inline(__always)
    func withLock<R>(_ body: (borrowing LockHeld) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        depthValue += 1
        defer {
            depthValue -= 1
            pthread_mutex_unlock(mutex)
        }
        return try body(LockHeld())
    }

    /// How many `withLock` calls the holding thread is inside (1 for the outermost).
    func depth(_ held: borrowing LockHeld) -> Int { depthValue }
}
