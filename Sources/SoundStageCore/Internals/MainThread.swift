import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether the calling thread is the main thread, asked once a thread and then remembered in
/// a thread-specific value (Foundation's `Thread.isMainThread` costs about 190 ns on Linux,
/// measured on the per-call setter path; a `pthread_getspecific` costs a few).
struct MainThreadCheck: @unchecked Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "SoundStage: pthread_key_create failed (\(created)); the process has no thread-specific keys left")
        self.key = key
    }

    /// Treats the calling thread as the main one from now on (tests: Swift Testing runs no
    /// test on the main thread, and the main thread's path must be tested too). The thread
    /// must let go of its context before it ends (``OpenAL/releaseCurrent(_:ifItIs:)``).
    func treatCurrentThreadAsMain() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
    }

    /// Whether the calling thread is the main thread.
    @inline(__always)
    package var isCurrent: Bool {
        if let known = pthread_getspecific(key) { return Int(bitPattern: known) == 1 }
        let main = Thread.isMainThread
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: main ? 1 : 2))
        return main
    }
}
