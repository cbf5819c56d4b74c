import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// The voice pool, heard in offline renders under the OpenAL error trap.
@Suite("Voices: a pool of real sources, thousands of virtual voices that keep time, priorities, stealing, limits, variation")
struct VoiceTests {
    /// The audibility the pool should compute for a voice at `position` heard from `listener`
    /// under OpenAL's default model (inverse distance clamped, reference 1, rolloff 1).
    static func audibility(_ position: SIMD3<Float>, _ listener: SIMD3<Float>) -> Double {
        let d = (0..<3).map { Double(position[$0] - listener[$0]) }.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return min(1, 1 / max(d, 1))
    }

    @Test("10,000 looping voices over a field, 64 real: at every tick the real ones are the 64 most audible")
    func fieldOfVoices() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 64))
        let chirp = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.25)
        var generator = SystemRandomNumberGenerator()
        var field: [(Voice, SIMD3<Float>)] = []
        for _ in 0..<10_000 {
            let p = SIMD3<Float>(Float.random(in: -100...100, using: &generator), 0, Float.random(in: -100...100, using: &generator))
            field.append((try engine.play(chirp, at: p, loops: -1), p))
        }
        #expect(engine.voiceCounts.playing == 10_000)
        for tick in 0..<60 {
            // The listener walks across the field, 1 m a tick.
            let listener = SIMD3<Float>(-30 + Float(tick), 0, 5)
            try engine.context.listener.set(.position, to: listener)
            let audio = try engine.render(frames: 480)
            let real = field.map(\.0.isReal)
            let audible = field.map { Self.audibility($0.1, listener) }
            #expect(real.filter { $0 }.count == 64, "tick \(tick): \(real.filter { $0 }.count) real voices")
            let quietestReal = zip(real, audible).filter(\.0).map(\.1).min() ?? 0
            let loudestVirtual = zip(real, audible).filter { !$0.0 }.map(\.1).max() ?? 0
            #expect(quietestReal >= loudestVirtual * (1 - 1e-5),
                    "tick \(tick): a virtual voice (\(loudestVirtual)) is more audible than a real one (\(quietestReal))")
            if tick > 0 { #expect(Measure.dB(audio, channel: 0) > -60, "tick \(tick): the real voices are heard") }
        }
        let counts = engine.voiceCounts
        #expect(counts.real == 64 && counts.virtual == 9_936 && counts.stolen == 0, "\(counts)")
    }

    /// Renders `seconds` of a looping 441 Hz tone voice that walks out of range (virtual) at
    /// 0.3 s and back at 0.8 s, or that never moves.
    static func walkingTone(streamed: Bool, walks: Bool) throws -> [Float] {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.context.set(.distanceModel, to: .linearClamped)
        let samples = Tone.samples(frequency: 441, sampleRate: EngineRig.rate, seconds: 0.5, amplitude: 0.5)
        let tone = try EngineRig.sound(engine, samples, streamed: streamed)
        let near = SIMD3<Float>(0, 0, -1)
        let voice = try engine.play(tone, at: near, loops: -1, options: VoiceOptions(maxDistance: 10))
        var out: [Float] = []
        for tick in 0..<150 {
            if walks, tick == 30 { voice.position = [0, 0, -50] }
            if walks, tick == 80 { voice.position = near }
            out += try engine.render(frames: 480).channel(0)
            if walks, tick == 30 { #expect(voice.status == .virtual, "out of range, the voice is virtual") }
            if walks, tick == 80 { #expect(voice.status == .real, "back in range, the voice is real again") }
        }
        return out
    }

    @Test("a tone voice walks out of range and back: it comes back in phase, as if it had never stopped", arguments: [false, true])
    func comesBackInPhase(streamed: Bool) throws {
        let walked = try Self.walkingTone(streamed: streamed, walks: true)
        let reference = try Self.walkingTone(streamed: streamed, walks: false)
        // Away it is silent; back, after OpenAL's fade-in over its first mix (the tick that
        // starts at frame 81 x 480), it is the tone
        // that never stopped, sample for sample.
        let away = Array(walked[(31 * 480)..<(80 * 480)])
        #expect(Measure.dB(away) == -160, "silent while virtual: \(Measure.dB(away)) dB")
        let back = 82 * 480
        let snr = Measure.snrDB(Array(walked[back...]), against: Array(reference[back...]), count: walked.count - back)
        #expect(snr > 90, "after coming back the tone matches the one that never left: SNR \(snr) dB")
    }

    @Test("priorities are a hard tier: a quiet important voice is real before loud unimportant ones, and never stolen for them")
    func priorities() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 4, maxVoices: 8))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 1)
        let loud = try (0..<8).map { _ in try engine.play(tone, at: [0, 0, -1], priority: 10, loops: -1) }
        _ = try engine.render(frames: 480)
        // Full: a far, quiet voice of higher priority steals a slot and a source.
        let important = try engine.play(tone, at: [0, 0, -80], priority: 200, loops: -1)
        _ = try engine.render(frames: 480)
        #expect(important.status == .real, "priority first: \(important.status)")
        #expect(loud.filter { $0.status == .ended(.stolen) }.count == 1, "one low-priority voice was stolen")
        #expect(engine.voiceCounts.stolen == 1)
        // Fill the pool with important voices: a low-priority play is refused, nothing stolen.
        let more = try (0..<7).map { _ in try engine.play(tone, at: [0, 0, -2], priority: 200, loops: -1) }
        #expect(loud.allSatisfy { !$0.isValid }, "every low-priority voice made room")
        let refused = try engine.play(tone, at: [0, 0, -1], priority: 10)
        #expect(refused.refusal == .poolFull && refused.status == .ended(.refused), "\(refused): \(refused.status)")
        let kept = (more + [important]).filter { $0.isValid }.count
        #expect(kept == 8, "no higher-priority voice was stolen for a lower one")
        #expect(engine.voiceCounts.refused == 1)
        // The stolen handle says so, and its throwing setters name why.
        let stolen = loud.first { $0.status == .ended(.stolen) }!
        expectError(.voiceEnded) { try stolen.setVolume(0.5) }
        stolen.volume = 0.5   // harmless
        #expect(stolen.stop() == false)
    }

    @Test("instance limits steal the oldest or refuse, and a retrigger interval holds rapid fire back")
    func limits() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let click = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        try engine.setVoiceRules(VoiceRules(maxInstances: 3, whenFull: .stealOldest), for: click)
        let first = try (0..<3).map { _ in try engine.play(click, loops: -1) }
        _ = try engine.render(frames: 480)
        let fourth = try engine.play(click, loops: -1)
        #expect(first[0].status == .ended(.stolen) && fourth.isValid && first[1].isValid)
        try engine.setVoiceRules(VoiceRules(maxInstances: 3, whenFull: .refuse), for: click)
        let refused = try engine.play(click)
        #expect(refused.refusal == .instanceLimit && !refused.isValid, "\(refused)")
        engine.stopVoices()

        // Rapid fire: 100 plays over one second, at most one per 100 ms is heard.
        let shot = try EngineRig.clicks(engine, frames: 480, at: [0])
        try engine.setVoiceRules(VoiceRules(minimumInterval: 0.1), for: shot)
        var accepted = 0
        var out: [Float] = []
        for _ in 0..<100 {
            if try engine.play(shot).refusal == nil { accepted += 1 }
            out += try engine.render(frames: 480).channel(0)
        }
        let heard = onsets(out, threshold: 0.1, gap: 240)
        #expect(accepted == 10 && heard.count == 10, "accepted \(accepted), heard \(heard.count)")
        #expect(zip(heard, heard.dropFirst()).allSatisfy { $1 - $0 >= 4_800 }, "onsets at least 100 ms apart: \(heard)")
    }

    /// Renders 0.5 s of 20 voices with pitch and volume variation, from `seed`.
    static func variedRender(seed: UInt64) throws -> [Float] {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(seed: seed))
        let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.2)
        try engine.setVoiceRules(VoiceRules(variation: Variation(pitch: 0.8...1.25, volume: 0.5...1)), for: tone)
        var out: [Float] = []
        for i in 0..<50 {
            if i % 2 == 0 { try engine.play(tone, at: [Float(i % 7) - 3, 0, -2]) }
            out += try engine.render(frames: 480).samples
        }
        return out
    }

    @Test("variation: two renders with the same seed are identical, another seed differs")
    func seededVariation() throws {
        let a = try Self.variedRender(seed: 42), b = try Self.variedRender(seed: 42), c = try Self.variedRender(seed: 7)
        #expect(a == b, "same seed, same samples")
        #expect(a != c, "another seed, other pitches and volumes")
        #expect(Measure.dB(a) > -50)
    }

    @Test("no source or buffer is left once the engine goes, and stopped voices give their sources back")
    func nothingLeft() throws {
        var engine: AudioEngine? = try EngineRig.offline()
        let context = engine!.context
        let tone = try EngineRig.sine(engine!, amplitude: 0.1, seconds: 0.1)
        try engine!.configureVoices(VoiceConfiguration(realVoices: 16))
        let voices = try (0..<100).map { try engine!.play(tone, at: [Float($0 % 10), 0, -1], loops: -1) }
        _ = try engine!.render(frames: 4_800)
        #expect(context.sourceCount <= 20, "the pool holds at most its real voices and a margin: \(context.sourceCount)")
        engine = nil
        #expect(context.sourceCount == 0, "\(context.sourceCount) sources left")
        #expect(voices.allSatisfy { $0.status == .ended(.engineGone) })
        expectError(.voiceEnded) { try voices[0].setPitch(1.5) }
    }

    @Test("bad arguments are typed errors naming the play, and nothing plays")
    func badArguments() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.1)
        expectError(.invalidArgument) { try engine.play(tone, volume: 17) }
        expectError(.invalidArgument) { try engine.play(tone, at: [.nan, 0, 0]) }
        expectError(.invalidArgument) { try engine.play(tone, pitch: 0) }
        expectError(.invalidArgument) { try engine.play(tone, priority: 256) }
        expectError(.invalidArgument) { try engine.play(tone, options: VoiceOptions(maxDistance: -1)) }
        expectError(.invalidArgument) { try engine.setVoiceRules(VoiceRules(maxInstances: 0), for: tone) }
        expectError(.invalidArgument) { try engine.configureVoices(VoiceConfiguration(realVoices: 100_000)) }
        let other = try EngineRig.offline()
        expectError(.invalidArgument) { try engine.play(tone, bus: other.musicBus) }
        #expect(engine.voiceCounts.playing == 0)
    }
}

extension VoiceTests {
    @Test("players go through the same pool: a player's source displaces the weakest voice, which comes back when the player goes")
    func playersShareThePool() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 4))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let voices = try (1...4).map { try engine.play(tone, at: [0, 0, -Float($0)], loops: -1) }
        _ = try engine.render(frames: 480)
        #expect(engine.voiceCounts.real == 4)
        var player: Player? = engine.makePlayer(tone)
        player!.numberOfLoops = -1
        try player!.play()
        _ = try engine.render(frames: 480)
        let counts = engine.voiceCounts
        #expect(counts.real == 3 && counts.players == 1 && counts.virtual == 1, "\(counts)")
        #expect(voices[3].status == .virtual, "the farthest voice gave its source up")
        // More players than real voices still get sources: the context's limit is theirs.
        var more: [Player]? = try (0..<6).map { _ -> Player in
            let p = engine.makePlayer(tone)
            try p.play()
            return p
        }
        _ = try engine.render(frames: 480)
        #expect(engine.voiceCounts.real == 0 && engine.voiceCounts.players == 7 && more!.allSatisfy(\.isPlaying))
        for p in more! { p.stop() }
        _ = try engine.render(frames: 480)
        #expect(engine.voiceCounts.players == 7, "stopped players keep their sources until they go")
        player!.stop()
        player = nil
        more = nil
        _ = try engine.render(frames: 480)
        let after = engine.voiceCounts
        #expect(after.players == 0 && after.real == 4, "the players gave their sources back and the voices are real again: \(after)")
    }
}
