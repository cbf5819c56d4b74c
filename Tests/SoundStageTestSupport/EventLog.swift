import Foundation
import SoundStage

/// Collects a player's events from the delegate, with the thread each arrived on and when.
package final class EventLog: PlayerDelegate, @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var items: [String] = []
    package private(set) var threads: [String] = []
    private var stamps: [ContinuousClock.Instant] = []
    package var events: [String] { lock.withLock { items } }
    /// When each event reached the delegate.
    package var times: [ContinuousClock.Instant] { lock.withLock { stamps } }
    private func add(_ s: String) {
        lock.withLock {
            items.append(s)
            stamps.append(.now)
            threads.append(AudioEngine.isServiceThread ? "service" : Thread.isMainThread ? "main" : "other")
        }
    }
    package func playerDidFinishPlaying(_ player: Player, successfully: Bool) { add("finished(\(successfully))") }
    package func playerBeginInterruption(_ player: Player) { add("began") }
    package func playerEndInterruption(_ player: Player) { add("ended") }
    package func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) { add("decodeError(\(error))") }
}
