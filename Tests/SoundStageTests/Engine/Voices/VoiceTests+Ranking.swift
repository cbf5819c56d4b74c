import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Ranking in more detail: pinned voices, the quietest stolen, cones, moving many at once,
/// ducking heard on voices under an audible line.
@Suite("Voices ranked: pinned first, cones and distance, the quietest stolen, ducking heard")
struct VoiceRankingTests {
    @Test("pinned voices are real before any priority or audibility; stealQuietest takes the least audible instance")
    func pinnedAndQuietest() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 2))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let far = try engine.play(tone, at: [0, 0, -90], priority: 0, loops: -1, options: VoiceOptions(isPinned: true))
        let loud = try (0..<3).map { _ in try engine.play(tone, at: [0, 0, -1], priority: 255, loops: -1) }
        _ = try engine.render(frames: 480)
        #expect(far.status == .real, "pinned, far and unimportant, still real")
        #expect(loud.filter(\.isReal).count == 1)

        let step = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        try engine.setVoiceRules(VoiceRules(maxInstances: 3, whenFull: .stealQuietest), for: step)
        let steps = try [1, 50, 3].map { try engine.play(step, at: [Float($0), 0, 0], loops: -1) }
        _ = try engine.render(frames: 480)
        let fourth = try engine.play(step, at: [2, 0, 0], loops: -1)
        #expect(steps[1].status == .ended(.stolen) && steps[0].isValid && steps[2].isValid && fourth.isValid,
                "the one 50 m away was the quietest: \(steps.map(\.status))")
    }

    @Test("a cone turned away and setPositions for many voices at once change who is real, as OpenAL would hear it")
    func conesAndMoves() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 1))
        let tone = try EngineRig.sine(engine, amplitude: 0.2, seconds: 0.5)
        // Both 2 m away; the nearer-sounding one faces away with a 0.05 outer gain.
        let away = try engine.play(tone, at: [0, 0, -2], loops: -1,
                                   options: VoiceOptions(cone: VoiceCone(direction: [0, 0, -1], innerAngle: 30, outerAngle: 60, outerGain: 0.05)))
        let side = try engine.play(tone, at: [3, 0, 0], loops: -1)
        _ = try engine.render(frames: 480)
        #expect(side.isReal && !away.isReal, "1/3 beats 1/2 x 0.05: side \(side.status), away \(away.status)")
        // Turned to face the listener (a new cone means a new voice), the coned one wins.
        away.stop()
        let facing = try engine.play(tone, at: [0, 0, -2], loops: -1,
                                     options: VoiceOptions(cone: VoiceCone(direction: [0, 0, 1], innerAngle: 30, outerAngle: 60, outerGain: 0.05)))
        _ = try engine.render(frames: 480)
        #expect(facing.isReal && !side.isReal)
        // One call moves both: the side one comes close, the other goes far.
        #expect(engine.setPositions([(side, [0.5, 0, 0]), (facing, [0, 0, -40]), (away, [0, 0, 0])]) == 2, "the stopped one is skipped")
        _ = try engine.render(frames: 480)
        #expect(side.isReal && !facing.isReal && side.position == [0.5, 0, 0])
    }

    @Test("ducking lowers voices on the target bus by the rule's depth while an audible line plays on the trigger")
    func duckingUnderAudibleLine() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let rate = EngineRig.rate
        let music = Sound(buffer: try AudioBuffer(context: engine.context, samples: Tone.samples(frequency: 500, sampleRate: rate, seconds: 1, amplitude: 0.3),
                                                  sampleRate: rate, label: "music"))
        let line = Sound(buffer: try AudioBuffer(context: engine.context, samples: Tone.samples(frequency: 2_000, sampleRate: rate, seconds: 0.5, amplitude: 0.3),
                                                 sampleRate: rate, label: "line"))
        try engine.addDucking(DuckingRule(trigger: engine.dialogBus, target: engine.musicBus, depthDB: 12, attackSeconds: 0.05, releaseSeconds: 0.1))
        try engine.play(music, loops: -1, bus: engine.musicBus)
        _ = try engine.render(frames: 4_800)
        let before = try engine.render(frames: 4_800).channel(0)
        try engine.play(line, bus: engine.dialogBus)
        _ = try engine.render(frames: 4_800)
        let during = try engine.render(frames: 4_800).channel(0)
        _ = try engine.render(frames: 14_400 + 9_600)   // the line ends at 0.5 s; 0.1 s release
        let after = try engine.render(frames: 4_800).channel(0)
        let (b, d, a) = (toneDB(before, frequency: 500, sampleRate: rate), toneDB(during, frequency: 500, sampleRate: rate),
                         toneDB(after, frequency: 500, sampleRate: rate))
        #expect(abs(d - b + 12) < 0.5, "the music under the line: \(b) -> \(d) dB")
        #expect(abs(a - b) < 0.5, "back after the release: \(a) dB")
        #expect(toneDB(during, frequency: 2_000, sampleRate: rate) > toneDB(during, frequency: 500, sampleRate: rate), "the line is heard over it")
    }
}
