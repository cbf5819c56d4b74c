import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// A play the rules refuse is the rules working: `play` returns a refused voice and counts
/// it, and throws only for a wrong call. Errors name public API only.
@Suite("Voices: refusals are handles, not errors")
struct VoiceRefusalTests {
    @Test("the README's rules (8 instances, 30 ms apart): 300 plays 10 ms apart, none throws; the accepted are heard, the rest refused as tooSoon and counted")
    func rapidFireNeverThrows() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let maraca = try EngineRig.clicks(engine, frames: 480, at: [0])
        try engine.setVoiceRules(VoiceRules(maxInstances: 8, minimumInterval: 0.03, variation: Variation(pitch: 0.95...1.05)), for: maraca)
        var voices: [Voice] = []
        var out: [Float] = []
        for _ in 0..<300 {
            voices.append(try engine.play(maraca, at: [0, 0, -1]))   // as the README writes it: never throws for a refusal
            out += try engine.render(frames: 480).channel(0)
        }
        let refused = voices.filter { $0.refusal != nil }
        let accepted = voices.count - refused.count
        #expect(accepted == 100, "accepted \(accepted) of 300: one every 30 ms for 3 s is 100")
        #expect(refused.allSatisfy { $0.refusal == .tooSoon && $0.status == .ended(.refused) && !$0.isValid })
        #expect(engine.voiceCounts.refused == refused.count, "\(engine.voiceCounts)")
        let heard = onsets(out, threshold: 0.05, gap: 240)
        #expect(heard.count == accepted, "heard \(heard.count) clicks for \(accepted) accepted plays")
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $1 - $0 >= 1_440 - 1 }, "clicks at least 30 ms apart")
    }

    @Test("a refused voice is harmless and says why: setters do nothing, stop() is false, the throwing forms throw voiceEnded naming Voice")
    func refusedHandle() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let click = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        try engine.setVoiceRules(VoiceRules(maxInstances: 1, whenFull: .refuse), for: click)
        let first = try engine.play(click, loops: -1)
        let second = try engine.play(click, at: [0, 0, -1])
        #expect(first.refusal == nil && first.isValid)
        #expect(second.refusal == .instanceLimit)
        #expect("\(second)" == "refused voice (clicks: \(VoiceRefusal.instanceLimit))", "\(second)")
        second.volume = 0.5
        second.position = [1, 0, 0]
        #expect(second.stop() == false && second.pause() == false && second.resume() == false)
        #expect(second.position == nil && second.playheadFrames == nil)
        let error = expectError(.voiceEnded, mentioning: ["Voice.setVolume", "refused"]) { try second.setVolume(0.5) }
        #expect(error.map { !"\($0)".contains("VoicePool") } ?? false, "\(String(describing: error))")
        _ = try engine.render(frames: 480)
        #expect(first.isValid, "the refusal stole nothing: \(first.status)")
        // Pinned voices with nothing weaker: the full pool refuses.
        try engine.configureVoices(VoiceConfiguration(realVoices: 2, maxVoices: 2))
        let tone = try EngineRig.sine(engine, amplitude: 0.1)
        _ = try engine.play(tone, loops: -1, options: VoiceOptions(isPinned: true))
        #expect(try engine.play(tone).refusal == .poolFull)
        // Quieter than the real voices, and told to stop when virtual.
        try engine.configureVoices(VoiceConfiguration(realVoices: 1, maxVoices: 8))
        _ = try engine.render(frames: 480)
        let far = try engine.play(tone, at: [0, 0, -500], priority: 0, options: VoiceOptions(whenVirtual: .stop))
        #expect(far.refusal == .wouldStartVirtual, "\(far): \(far.status)")
        #expect(engine.voiceCounts.refused == 3, "\(engine.voiceCounts)")
    }

    @Test("wrong calls still throw, and every message names public API: AudioEngine, Voice, Bus")
    func errorsNamePublicAPI() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1)
        var messages: [String] = []
        func record(_ error: SoundStageError?) { messages.append(error.map { "\($0)" } ?? "") }
        record(expectError(.invalidArgument, mentioning: ["AudioEngine.play("]) { try engine.play(tone, volume: -1) })
        record(expectError(.invalidArgument, mentioning: ["AudioEngine.configureVoices"]) { try engine.configureVoices(VoiceConfiguration(maxVoices: 0)) })
        let voice = try engine.play(tone, loops: -1)
        record(expectError(.invalidArgument, mentioning: ["Voice.setPitch"]) { try voice.setPitch(100) })
        record(expectError(.invalidArgument, mentioning: ["Bus.setVolume"]) { try engine.effectsBus.setVolume(2) })
        record(expectError(.invalidArgument, mentioning: ["AudioEngine.makeBus"]) { _ = try engine.makeBus(named: "effects") })
        voice.stop()
        record(expectError(.voiceEnded, mentioning: ["Voice.setPosition", "stopped"]) { try voice.setPosition([0, 0, 1]) })
        let internalNames = ["VoicePool", "VoiceSlot", "StreamFeed", "PlaylistDecoder", "EngineState"]
        #expect(messages.allSatisfy { m in !m.isEmpty && !internalNames.contains { m.contains($0) } }, "\(messages)")
    }
}
