import Foundation
import SoundStage

/// Collects a player's events from the delegate, with the thread each arrived on.
final class EventLog: PlayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private(set) var threads: [String] = []
    var events: [String] { lock.withLock { items } }
    private func add(_ s: String) {
        lock.withLock {
            items.append(s)
            threads.append(AudioEngine.isServiceThread ? "service" : Thread.isMainThread ? "main" : "other")
        }
    }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) { add("finished(\(successfully))") }
    func playerBeginInterruption(_ player: Player) { add("began") }
    func playerEndInterruption(_ player: Player) { add("ended") }
}
