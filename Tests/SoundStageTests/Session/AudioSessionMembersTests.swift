import Foundation
import Synchronization
import Testing
import SoundStage
@testable import SoundStageSession
@testable import SoundStageEngine
import SoundStageTestSupport

/// Engines joining, leaving and going while another thread changes the session: a member's
/// last reference may go on any thread, inside anything the session does with its members, and
/// its deinit tells the session (AudioSession.memberGone), which takes the session's state.
/// Once in the quick tier a documentation sample stopped with "LockedState<SessionState>
/// opened again from inside its own closure": a member had been loaded inside that lock.
@Suite("AudioSession's members: engines come and go on one thread while another changes the session")
struct AudioSessionMembersTests {
    @Test("400 engines made, joined and let go (a third shut down, a third kept one more round) while another thread toggles activation, category and interruptions: no crash, and only the living are members at the end")
    func membersComeAndGo() throws {
        let session = AudioSession(name: "members test session")
        let stop = Atomic<Bool>(false)
        let changes = Atomic<Int>(0)
        let changer = Thread {
            var k = 0
            while !stop.load(ordering: .relaxed) {
                k += 1
                try? session.setActive(k % 2 == 0)
                try? session.setCategory(k % 3 == 0 ? .ambient : .playback, options: k % 5 == 0 ? [.duckOthers] : [])
                if k % 4 == 0 { session.beginInterruption() } else { session.endInterruption(shouldResume: k % 8 == 0) }
                changes.add(1, ordering: .relaxed)
            }
        }
        changer.start()
        defer { stop.store(true, ordering: .relaxed) }
        var kept: [AudioEngine] = []
        for i in 0..<400 {
            let engine = try AudioSessionTests.engine(session)
            if i % 3 == 0 { engine.shutdown() }
            // One kept a round longer goes when the next one is made: a deinit on this thread
            // while the other thread may hold the session's members.
            if i % 3 == 1 { kept.append(engine) } else if i % 3 == 2 { kept.removeAll() }
        }
        #expect(kept.count <= 1)
        kept.removeAll()
        stop.store(true, ordering: .relaxed)
        while !changer.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        print("AudioSessionMembersTests: 400 engines came and went beside \(changes.load(ordering: .relaxed)) changes of the session")
        #expect(changes.load(ordering: .relaxed) > 0)
        #expect(session.members.isEmpty, "members left: \(session.members.count)")
    }
}

