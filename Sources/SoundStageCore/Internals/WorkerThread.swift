#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A joinable POSIX thread running `body`.
///
/// `body` (a `@Sendable` closure) is retained for the thread through
/// `Unmanaged.passRetained` and released by the thread itself when `body`
/// returns, or here if `pthread_create` fails, so it never leaks.
package struct WorkerThread: Sendable {
    /// The thread id (an integer on Linux, hence `Sendable`).
    let id: pthread_t

    /// `pthread_create` failed with error number `code`.
    package struct SpawnError: Error { package let code: Int32 }

    /// Starts a thread running `body`.
    package static func spawn(_ body: @escaping @Sendable () -> Void) throws(SpawnError) -> WorkerThread {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var tid = pthread_t()
        let rc = pthread_create(&tid, nil, { raw in
            // Takes over the +1 reference created by passRetained.
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SpawnError(code: rc)
        }
        return WorkerThread(id: tid)
    }

    /// True when called from this thread itself.
    package var isCurrent: Bool { pthread_equal(pthread_self(), id) != 0 }

    /// Waits for the thread to finish; if called from the thread itself
    /// (e.g. `stop()` from inside a callback) it detaches instead, since a
    /// thread cannot join itself. Must be called exactly once.
    package func joinOrDetach() {
        if isCurrent {
            pthread_detach(id)
        } else {
            pthread_join(id, nil)
        }
    }
}
