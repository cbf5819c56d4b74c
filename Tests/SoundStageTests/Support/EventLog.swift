import Foundation
import SoundStage

/// Collects a player's events from the delegate, with the thread each arrived on and when.
final class EventLog: PlayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private(set) var threads: [String] = []
    private var stamps: [ContinuousClock.Instant] = []
    var events: [String] { lock.withLock { items } }
    /// When each event reached the delegate.
    var times: [ContinuousClock.Instant] { lock.withLock { stamps } }
    private func add(_ s: String) {
        lock.withLock {
            items.append(s)
            stamps.append(.now)
            threads.append(AudioEngine.isServiceThread ? "service" : Thread.isMainThread ? "main" : "other")
        }
    }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) { add("finished(\(successfully))") }
    func playerBeginInterruption(_ player: Player) { add("began") }
    func playerEndInterruption(_ player: Player) { add("ended") }
    func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) { add("decodeError(\(error))") }
}
