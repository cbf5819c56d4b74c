import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

/// Fault injection: `shutdown()` while other threads play, pause, seek and start voices,
/// 100 cycles. Nothing crashes, OpenAL sees no bad value (the traps are on), every call
/// either works or throws a typed error, and every player ends stopped or idle.
@Suite("Fault injection: shutdown while other threads play and seek")
struct FaultInjectionShutdownTests {
    @Test("100 cycles of shutdown() racing four threads of player and voice calls")
    func shutdownRacesCalls() throws {
        let outcomes = LockedBox((worked: 0, refused: 0))
        for cycle in 0..<100 {
            let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
            let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 0.2)
            let players = (0..<4).map { _ in engine.makePlayer(tone) }
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for (t, player) in players.enumerated() {
                group.enter()
                Thread {
                    start.wait()
                    var worked = 0, refused = 0
                    for i in 0..<50 {
                        do {
                            switch (i + t) % 5 {
                            case 0: try player.play()
                            case 1: try player.seek(to: Double(i % 10) / 100)
                            case 2: player.pause()
                            case 3: try engine.play(tone, at: [Float(t), 0, -1])
                            default: _ = try engine.render(frames: 480)
                            }
                            worked += 1
                        } catch let error as SoundStageError {
                            refused += 1
                            #expect(!error.object.isEmpty && !error.reason.isEmpty, "cycle \(cycle): \(error)")
                        } catch {
                            Issue.record("cycle \(cycle): untyped \(error)")
                        }
                    }
                    outcomes.withLock { $0.worked += worked; $0.refused += refused }
                    group.leave()
                }.start()
            }
            for _ in players { start.signal() }
            Thread.sleep(forTimeInterval: Double(cycle % 5) / 1000)
            engine.shutdown()
            group.wait()
            engine.shutdown()
            #expect(engine.device.isClosed, "cycle \(cycle)")
            #expect(throws: SoundStageError.self) { _ = try engine.render(frames: 480) }
            for player in players {
                let status = player.state.withLockedValue { $0.status }
                // Nothing starts after the shutdown: every player ends stopped or idle.
                #expect(status == .stopped || status == .idle, "cycle \(cycle): \(status)")
            }
        }
        let (worked, refused) = outcomes.withLock { $0 }
        print("shutdown races: \(worked) calls worked, \(refused) refused with a typed error, in 100 cycles")
        #expect(worked + refused == 100 * 4 * 50)
    }
}
