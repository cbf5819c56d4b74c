import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The frame-based twins of the seconds-based API: play(atFrame:), currentFrame,
/// seek(toFrame:), loop regions in frames, the engine's currentFrame.
extension PlayerTests {
    @Test("play(atFrame:) starts on that exact engine frame, alone and together", arguments: [false, true])
    func playAtFrame(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [10], streamed: streamed)
        let one = engine.makePlayer(sound)
        try one.play(atFrame: 2_345)
        let first = onsets(try engine.render(frames: 9_600).channel(0))
        #expect(first == [2_355], "onsets \(first)")
        #expect(engine.currentFrame == 9_600)
        // Two players on one frame: one onset, at twice the level of one.
        let a = engine.makePlayer(sound), b = engine.makePlayer(sound)
        try engine.play([a, b], atFrame: 9_600 + 1_000)
        let both = try engine.render(frames: 4_800).channel(0)
        #expect(onsets(both) == [1_010], "onsets \(onsets(both))")
        expectError(.invalidArgument, mentioning: ["current frame"]) { try one.play(atFrame: 100) }
    }

    @Test("currentFrame is the exact frame; seek(toFrame:) and setting it land on the frame", arguments: [false, true])
    func frames(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 48_000, at: [30_000], streamed: streamed))
        try player.play()
        _ = try engine.render(frames: 1_337)
        #expect(player.currentFrame == 1_337)
        #expect(player.durationFrames == 48_000)
        try player.seek(toFrame: 29_000)
        let heard = onsets(try engine.render(frames: 2_000).channel(0))
        #expect(heard == [1_000], "onsets \(heard)")
        player.pause()
        player.currentFrame = 20_000
        #expect(player.currentFrame == 20_000)
        try player.play()
        let again = onsets(try engine.render(frames: 12_000).channel(0))
        #expect(again == [10_000], "onsets \(again)")
        expectError(.invalidArgument, mentioning: ["0...48000"]) { try player.seek(toFrame: 48_001) }
        expectError(.invalidArgument) { try player.seek(toFrame: -1) }
    }

    @Test("a loop region set in frames plays as the same region set in seconds")
    func loopRegionFrames() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 9_600, at: [1_000, 5_000])
        let player = engine.makePlayer(sound)
        try player.setLoopRegion(frames: 4_800..<9_600)
        #expect(player.loopRegionFrames == 4_800..<9_600)
        #expect(player.loopRegion == 0.1..<0.2)
        try player.play()
        let out = onsets(try engine.render(frames: 30_000).channel(0))
        #expect(out == [1_000, 5_000, 9_800, 14_600, 19_400, 24_200, 29_000], "onsets \(out)")
    }
}
