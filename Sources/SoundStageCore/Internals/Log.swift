import Logging
import Synchronization

/// Where SoundStage reports what it cannot throw: an error met on the service thread with
/// no player to tell, one met while releasing an object, one OpenAL reported for property
/// writes and found by an unrelated call.
///
/// Messages go through swift-log under the label `SoundStage`; a game routes them with
/// `LoggingSystem.bootstrap` (the default prints to standard error). A report made while the
/// calling thread holds the gateway lock is logged when the lock is let go, so that a log
/// handler never runs inside SoundStage's locked state (where calling back into a player
/// would trap, and a slow handler would hold up every thread's sound).
package enum Log {
    static let logger = Logger(label: "SoundStage")

    private static let waiting = LockedBox<[(level: Logger.Level, message: String)]>([])
    /// Whether reports wait for the lock to be let go (read on every outermost unlock).
    private static let hasWaiting = Atomic<Bool>(false)

    /// Logs an error SoundStage could not hand to a caller.
    package static func report(_ error: any Error) { log(.error, "\(error)") }

    /// Logs what a caller can also read for itself but may not look for (a sound file that
    /// decoded short, say).
    package static func warn(_ message: String) { log(.warning, message) }

    private static func log(_ level: Logger.Level, _ message: String) {
        guard OpenAL.lock.isHeldByCurrentThread else {
            logger.log(level: level, "\(message)")
            return
        }
        waiting.withLock { $0.append((level, message)) }
        hasWaiting.store(true, ordering: .releasing)
    }

    /// Logs the reports made under the lock. Called by the lock as it is let go, outermost.
    @inline(__always)
    @usableFromInline static func flushWaiting() {
        guard hasWaiting.load(ordering: .acquiring) else { return }
        let messages = waiting.withLock { messages -> [(level: Logger.Level, message: String)] in
            hasWaiting.store(false, ordering: .relaxed)
            defer { messages = [] }
            return messages
        }
        for (level, message) in messages { logger.log(level: level, "\(message)") }
    }
}
