import Foundation
import Synchronization
import Testing
import SoundStage
@testable import SoundStageSession
import SoundStageTestSupport

/// Players made and let go on two threads at once: each player made looks over the engine's
/// players for those gone, and a player's deinit counts its source back into the engine's
/// state, so no player may be loaded inside that state's lock.
@Suite("AudioEngine's players: made and let go on two threads at once")
struct AudioEnginePlayersComeAndGoTests {
    @Test("two threads each make and let go of 2,000 players of one sound, every other one played: no crash, and once those have played out the engine plays again")
    func playersComeAndGo() throws {
        let engine = try AudioSessionTests.engine(AudioSession(name: "players test session"))
        let sound = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 0.1)
        let done = Atomic<Int>(0)
        let threads = (0..<2).map { _ in
            Thread {
                for i in 0..<2_000 {
                    let player = engine.makePlayer(sound)
                    if i % 2 == 0 { try? player.play() }
                }
                done.add(1, ordering: .relaxed)
            }
        }
        threads.forEach { $0.start() }
        while done.load(ordering: .relaxed) < 2 { Thread.sleep(forTimeInterval: 0.001) }
        // The players let go while playing play to their ends (0.1 s), and give their sources back.
        _ = try engine.render(frames: EngineRig.rate / 4)
        engine.update()
        let kept = engine.makePlayer(sound)
        try kept.play()
        #expect(kept.isPlaying)
    }
}
