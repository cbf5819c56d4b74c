import Synchronization
import SoundStageCore
import SoundStageSession

/// Errors waiting to be posted, behind a lock of their own: what an engine's context error
/// sink appends to, from wherever the error was found.
final class ErrorQueue: Sendable {
    private let errors = LockedBox<[SoundStageError]>([])

    func append(_ error: SoundStageError) { errors.withLock { $0.append(error) } }

    /// The errors waiting, in order, and empties the queue.
    func take() -> [SoundStageError] {
        errors.withLock { errors in
            defer { errors = [] }
            return errors
        }
    }
}
