import Dispatch
import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

/// An engine let go while its players are in use, and what its event stream does then.
extension AudioEngineTests {
    @Test("an engine released by one thread while another pauses and stops its player never traps")
    func releasedWhilePlayerInUse() async throws {
        // The trials block and spin, so they run on threads of their own, not the test pool.
        let failures = try await withCheckedThrowingContinuation { (done: CheckedContinuation<[String], any Error>) in
            Thread { done.resume(with: Result { try Self.releaseRaceTrials(150) }) }.start()
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Trials of one thread dropping an engine while another schedules, pauses and stops its
    /// player; a trap ends the test process. Returns what went wrong otherwise.
    private static func releaseRaceTrials(_ trials: Int) throws -> [String] {
        final class Box: @unchecked Sendable { var engine: AudioEngine? }
        var failures: [String] = []
        for trial in 0..<trials {
            let box = Box()
            let player: Player
            do {
                // Only the box holds the engine.
                let engine = try EngineRig.offline()
                box.engine = engine
                player = engine.makePlayer(try EngineRig.clicks(engine, frames: 480, at: [10]))
                player.numberOfLoops = -1
            }
            let inPause = Atomic<Bool>(false)
            let done = DispatchSemaphore(value: 0)
            Thread {
                while true {
                    // Scheduled, then paused: pause() unschedules and retains through the engine.
                    do { try player.play(atTime: 1_000) } catch {   // throws once the engine is gone
                        inPause.store(true, ordering: .sequentiallyConsistent)
                        break
                    }
                    inPause.store(true, ordering: .sequentiallyConsistent)
                    player.pause()
                    player.stop()
                }
                done.signal()
            }.start()
            while !inPause.load(ordering: .sequentiallyConsistent) { sched_yield() }
            for _ in 0..<Int.random(in: 0..<2_000) { _ = inPause.load(ordering: .relaxed) }
            box.engine = nil
            done.wait()
            if player.engine != nil || player.isPlaying { failures.append("trial \(trial): the player outlived its engine playing") }
        }
        return failures
    }

    @Test("engine.events() ends when the engine goes away")
    func eventsEnd() async throws {
        weak var weakEngine: AudioEngine?
        var stream: AsyncStream<EngineEvent>?
        do {
            let engine = try EngineRig.offline()
            weakEngine = engine
            stream = engine.events()
        }
        #expect(weakEngine == nil)
        let events = try #require(stream)
        let ended = await withTaskGroup(of: Bool.self) { group -> Bool in
            group.addTask { for await _ in events {}; return !Task.isCancelled }
            group.addTask { try? await Task.sleep(for: .seconds(5)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(ended, "the stream of a released engine must finish")
    }
}
