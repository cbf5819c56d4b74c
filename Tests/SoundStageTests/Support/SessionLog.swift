import Foundation
import Synchronization
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// Collects a session's events from its delegate, noting whether each arrived on the
/// session's thread.
final class SessionLog: AudioSessionDelegate {
    private let items = Mutex<[(event: String, onSessionThread: Bool)]>([])

    var events: [String] { items.withLock { $0.map(\.event) } }
    var allOnSessionThread: Bool { items.withLock { $0.allSatisfy(\.onSessionThread) } }

    func audioSession(_ session: AudioSession, didReceive event: SessionEvent) {
        let onThread = session.isSessionThread
        items.withLock { $0.append(("\(event)", onThread)) }
    }

    /// Waits up to `seconds` for `count` events; returns them.
    @discardableResult
    func wait(for count: Int, seconds: Double = 2) -> [String] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while events.count < count && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return events
    }
}
