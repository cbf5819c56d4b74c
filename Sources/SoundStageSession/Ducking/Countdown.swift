import Foundation
import SoundStageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Answers the ducking waits for from the server, and what they gave back.
final class Countdown: Sendable {
    private let box = LockedBox((pending: 0, restored: [String]()))
    func add() { box.withLock { $0.pending += 1 } }
    func finish() { box.withLock { $0.pending -= 1 } }
    func note(restored name: String) { box.withLock { $0.restored.append(name) } }
    /// Whether every answer came.
    var isDone: Bool { box.withLock { $0.pending == 0 } }
    var restored: [String] { box.withLock { $0.restored } }
    /// Waits until every answer came, up to `timeout`; whether they all did.
    func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while box.withLock({ $0.pending > 0 }) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(500)
        }
        return true
    }
}
