import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// numberOfLoops and loop regions, loaded and streamed.
extension PlayerTests {
    @Test("numberOfLoops N plays exactly N+1 times, back to back, and finishes once",
          arguments: [0, 1, 3, 12], [false, true])
    func loops(n: Int, streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 4_800, at: [100], streamed: streamed))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = n
        try player.play()
        let out = try engine.render(frames: 4_800 * (n + 3))
        let expected = (0...n).map { 100 + $0 * 4_800 }
        #expect(onsets(out.channel(0)) == expected)
        #expect(log.events == ["finished(true)"], "events: \(log.events)")
        #expect(!player.isPlaying)
    }

    @Test("-1 loops until stopped; stop() reports nothing")
    func forever() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 4_800, at: [100]))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = -1
        try player.play()
        #expect(onsets(try engine.render(frames: 48_000).channel(0)).count == 10)
        player.stop()
        #expect(onsets(try engine.render(frames: 9_600).channel(0)).isEmpty)
        #expect(log.events.isEmpty)
    }

    @Test("a 50-frame sound looped 20 times plays 21 times back to back, loaded or streamed", arguments: [false, true])
    func shortLoops(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 50, at: [0], streamed: streamed))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = 20
        try player.play()
        let out = onsets(try engine.render(frames: 4_800).channel(0), gap: 8)
        #expect(out == (0...20).map { $0 * 50 }, "onsets \(out)")
        #expect(log.events == ["finished(true)"])
    }

    @Test("streamed loops stay sample-exact where a play ends inside a chunk", arguments: [2, -1])
    func streamedLoopsAcrossChunks(loops: Int) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        // 10,000 frames: plays do not line up with the 4,800-frame chunks.
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 10_000, at: [100, 9_999], streamed: true))
        player.numberOfLoops = loops
        try player.play()
        let out = onsets(try engine.render(frames: 60_000).channel(0), gap: 16)
        let plays = loops < 0 ? 6 : loops + 1
        let expected = (0..<plays).flatMap { [100 + $0 * 10_000, 9_999 + $0 * 10_000] }
        #expect(out == expected, "onsets \(out)")
        #expect(player.isPlaying == (loops < 0))
    }

    @Test("a loop region repeats exactly after the intro (AL_SOFT_loop_points)")
    func loopPoints() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 9_600, at: [1_000, 5_000])
        let player = engine.makePlayer(sound)
        try player.setLoopRegion(0.1..<0.2)    // frames 4800..<9600
        try player.play()
        let out = onsets(try engine.render(frames: 30_000).channel(0))
        #expect(out == [1_000, 5_000, 9_800, 14_600, 19_400, 24_200, 29_000], "onsets \(out)")
        expectError(.invalidArgument, mentioning: ["within"]) { try player.setLoopRegion(0.1..<3) }
    }

    @Test("numberOfLoops changed while playing, or after prepareToPlay, acts as documented")
    func changedLoops() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [100])
        // Changed while playing: the running play keeps its count, even through a seek.
        let player = engine.makePlayer(sound)
        player.numberOfLoops = 2
        try player.play()
        player.numberOfLoops = -1
        _ = try engine.render(frames: 2_400)
        try player.seek(to: 0.05)
        let out = onsets(try engine.render(frames: 24_000).channel(0))
        #expect(out == [4_900 - 2_400, 9_700 - 2_400], "\(out)")
        #expect(!player.isPlaying)
        // Changed after prepareToPlay: the next start uses the new count.
        let prepared = engine.makePlayer(sound)
        try prepared.prepareToPlay()
        prepared.numberOfLoops = 3
        try prepared.play()
        #expect(onsets(try engine.render(frames: 24_000).channel(0)).count == 4)
    }
}
