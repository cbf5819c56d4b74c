#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Proof that the calling thread holds ``OpenAL/lock``.
///
/// Only the lock makes one, and only for the length of a `withLock` closure; it cannot be
/// copied, stored or made elsewhere. A function that must run under the lock takes one as a
/// `borrowing LockHeld` parameter, so the compiler refuses a call made without the lock:
/// the rule is in the types, not in a `...Locked` suffix.
package struct LockHeld: ~Copyable {
    /// Made only by the lock (`withLock`, usable from other modules' inlined code).
    @usableFromInline init() {}
    /// Another proof, made from one in hand (for a scope that carries it along).
    init(_ proof: borrowing LockHeld) {}
}

/// A recursive mutex whose `withLock` hands its body a ``LockHeld`` proof.
///
/// Recursive because releasing the last reference to an OpenAL object runs its `deinit`,
/// which deletes the OpenAL name under this lock, and that can happen while the lock is held
/// (a player dropping its source, a source dropping the buffer it played).
///
/// A value over storage that is never freed: the one gateway lock lives as long as the
/// process, and using it costs no reference counting (each retain and release is an atomic
/// operation, as costly as the lock itself on the per-call setter path).
package struct RecursiveLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// How many `withLock` calls the holding thread is inside; only the holder touches it.
    @usableFromInline let depth: UnsafeMutablePointer<Int>
    /// The holding thread, 0 when free: written only by the holder (as it takes the lock
    /// and before it lets go), so a thread reading its own id here holds the lock.
    @usableFromInline let owner: UnsafeMutablePointer<Atomic<UInt>>

    /// Makes a lock that lives as long as the process.
    init() {
        mutex = Self.recursiveMutex()
        depth = .allocate(capacity: 1)
        depth.initialize(to: 0)
        owner = .allocate(capacity: 1)
        owner.initialize(to: Atomic(0))
    }

    /// A recursive pthread mutex that lives as long as the process (never freed).
    static func recursiveMutex() -> UnsafeMutablePointer<pthread_mutex_t> {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return mutex
    }

    /// Runs `body` with the lock held.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: (borrowing LockHeld) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        depth.pointee += 1
        if depth.pointee == 1 { owner.pointee.store(UInt(pthread_self()), ordering: .relaxed) }
        defer {
            depth.pointee -= 1
            if depth.pointee == 0 {
                // A thread that holds no lock holds no OpenAL context either.
                OpenAL.releaseThreadContext()
                owner.pointee.store(0, ordering: .relaxed)
                pthread_mutex_unlock(mutex)
                Log.flushWaiting()
            } else {
                pthread_mutex_unlock(mutex)
            }
        }
        return try body(LockHeld())
    }

    /// Takes the lock, runs `body`, and never lets go: for the process's last words (its exit
    /// handler), after which no other thread may call into OpenAL. Waits at most `seconds`
    /// for another thread to let go; returns false (nothing run, the lock not held) when none
    /// did: that thread is stuck (in a call to a sound server that does not answer).
    func holdForTheRestOfTheProcess(within seconds: Double, _ body: (borrowing LockHeld) -> Void) -> Bool {
        guard Self.lock(mutex, within: seconds) else { return false }
        depth.pointee += 1
        if depth.pointee == 1 { owner.pointee.store(UInt(pthread_self()), ordering: .relaxed) }
        body(LockHeld())
        return true
    }

    /// Takes `mutex` within `seconds` (0 to an hour, of the monotonic clock): whether it did.
    /// A step of the wall clock (NTP, the user setting the time) neither ends the wait early
    /// nor makes it longer, as `pthread_mutex_timedlock`'s realtime deadline would: an early
    /// end read as "busy" to the engine's question of the server's default.
    static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, within seconds: Double) -> Bool {
        let clockLock = MutexClockLock.lock
        let clock = clockLock == nil ? CLOCK_REALTIME : CLOCK_MONOTONIC
        var deadline = timespec()
        clock_gettime(clock, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(max(0, min(seconds, 3_600)) * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        if let clockLock { return clockLock(mutex, clock, &deadline) == 0 }
        return pthread_mutex_timedlock(mutex, &deadline) == 0
    }

    /// Whether the calling thread holds the lock (is inside a `withLock` call).
    @inline(__always)
    var isHeldByCurrentThread: Bool { owner.pointee.load(ordering: .relaxed) == UInt(pthread_self()) }
}
