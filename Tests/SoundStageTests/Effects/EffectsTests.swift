import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// EFX effects, slots, filters and sends, heard in loopback renders under the OpenAL error trap.
@Suite("Effects: reverb, echo, filters and sends heard in the render; every parameter checked first")
struct EffectsTests {
    /// A source playing `samples` once (mono, at the rig's rate), straight ahead.
    static func oneShot(_ rig: LoopbackRig, _ samples: [Float]) throws -> AudioSource {
        let source = try AudioSource(context: rig.context)
        try source.setBuffer(try AudioBuffer(context: rig.context, samples: samples, sampleRate: rig.sampleRate))
        try source.set(.isRelative, to: true)
        return source
    }

    /// The levels in dB of a `low` and a `high` tone played together through a direct-path
    /// filter with `settings` (none for nil), in the left channel.
    static func bandLevels(_ settings: FilterSettings?, low: Float, high: Float) throws -> (low: Double, high: Double) {
        let rig = try LoopbackRig()
        let rate = rig.sampleRate
        let mix = zip(Tone.samples(frequency: low, sampleRate: rate, amplitude: 0.3), Tone.samples(frequency: high, sampleRate: rate, amplitude: 0.3)).map(+)
        let source = try oneShot(rig, mix)
        try source.set(.isLooping, to: true)
        if let settings { try source.setDirectFilter(try AudioFilter(context: rig.context, settings)) }
        try source.play()
        let left = try rig.render(frames: 9_600).channel(0)
        return (toneDB(left, frequency: Double(low), sampleRate: rate), toneDB(left, frequency: Double(high), sampleRate: rate))
    }

    /// The RMS level in dB of both channels of `audio` from `from` to `to` seconds.
    static func level(_ audio: RenderedAudio, _ from: Double, _ to: Double) -> Double {
        let rate = Double(audio.format.sampleRate)
        let l = audio.channel(0), r = audio.channel(1)
        return Measure.dB(Array(l[Int(from * rate)..<Int(to * rate)]) + Array(r[Int(from * rate)..<Int(to * rate)]))
    }

    @Test("every one of the 113 reverb presets loads into an effect and a slot, as EAX reverb")
    func presets() throws {
        let rig = try LoopbackRig()
        #expect(rig.context.hasEFX && ReverbPreset.allCases.count == 113)
        let slot = try EffectSlot(context: rig.context)
        for preset in ReverbPreset.allCases {
            let effect = try AudioEffect(context: rig.context, .reverb(Reverb(preset: preset)))
            #expect(effect.usesEAXReverb)
            try slot.setEffect(effect)
        }
        #expect(Reverb(preset: .cave).decayTime == 2.91 && ReverbPreset.castleSmallroom.rawValue == "CASTLE_SMALLROOM")
    }

    /// The tail's fall in dB from 0.2-0.3 s to 0.4-0.5 s after a 10 ms noise burst sent to a
    /// reverb with `decayTime` (the dry path muted by a filter of gain 0).
    static func tailFall(decayTime: Float) throws -> (fall: Double, tail: Double) {
        let rig = try LoopbackRig()
        var reverb = Reverb()
        reverb.decayTime = decayTime
        reverb.decayHFRatio = 1
        let slot = try EffectSlot(context: rig.context)
        try slot.setEffect(try AudioEffect(context: rig.context, .reverb(reverb)))
        var noise = SystemRandomNumberGenerator()
        let burst = (0..<480).map { _ in Float.random(in: -0.5...0.5, using: &noise) }
        let source = try oneShot(rig, burst)
        try source.setDirectFilter(try AudioFilter(context: rig.context, .lowpass(gain: 0, gainHF: 1)))
        try source.setSend(0, to: slot)
        try source.play()
        let audio = try rig.render(frames: 48_000, settle: 0)
        return (level(audio, 0.2, 0.3) - level(audio, 0.4, 0.5), level(audio, 0.2, 0.3))
    }

    @Test("a reverb's tail falls at the rate its decay time says: 60 dB per decay time")
    func reverbDecay() throws {
        let short = try Self.tailFall(decayTime: 1), long = try Self.tailFall(decayTime: 2)
        // 0.2 s apart: 12 dB for a 1 s decay, 6 dB for 2 s.
        #expect(abs(short.fall - 12) < 4, "decay 1 s: fell \(short.fall) dB in 0.2 s")
        #expect(abs(long.fall - 6) < 3, "decay 2 s: fell \(long.fall) dB in 0.2 s")
        #expect(short.tail > -60 && long.tail > -60, "the tail is heard: \(short.tail), \(long.tail) dB")
    }

    @Test("an echo repeats the sound after its delay")
    func echo() throws {
        let rig = try LoopbackRig()
        let slot = try EffectSlot(context: rig.context)
        try slot.setEffect(try AudioEffect(context: rig.context, .echo(Echo(delay: 0.1, lrDelay: 0.1, damping: 0, feedback: 0))))
        var click = [Float](repeating: 0, count: 480)
        click[0] = 1
        let source = try Self.oneShot(rig, click)
        try source.setSend(0, to: slot)
        try source.play()
        let audio = try rig.render(frames: 24_000, settle: 0)
        // EFX's echo puts its first tap on one side and the second, lrDelay later, on the other.
        let both = zip(audio.channel(0), audio.channel(1)).enumerated().map { $0.offset < 480 ? 0 : abs($0.element.0) + abs($0.element.1) }
        let heard = onsets(both, threshold: 0.01, gap: 480)
        #expect(heard.count == 2, "two repeats: \(heard)")
        let first = try #require(heard.first, "an echo is heard")
        #expect(abs(first - 4_800) <= 48, "the first repeat at \(first) frames, 0.1 s is 4,800")
        #expect(abs(heard.last! - 9_600) <= 48, "the second, lrDelay later, at \(heard.last!) frames")
    }

    @Test("a lowpass direct filter cuts the highs and leaves the lows; a highpass the reverse")
    func filters() throws {
        func levels(_ settings: FilterSettings?) throws -> (low: Double, high: Double) {
            try Self.bandLevels(settings, low: 150, high: 12_000)
        }
        let dry = try levels(nil)
        let low = try levels(.lowpass(gain: 1, gainHF: 0.1))
        let high = try levels(.highpass(gain: 1, gainLF: 0.1))
        #expect(dry.high - low.high > 10 && abs(dry.low - low.low) < 1, "lowpass: \(dry) -> \(low)")
        #expect(dry.low - high.low > 10 && abs(dry.high - high.high) < 1, "highpass: \(dry) -> \(high)")
    }

    @Test("bad values, sends past those granted and objects of other contexts are typed errors, never OpenAL's")
    func errors() throws {
        let rig = try LoopbackRig(attributes: ContextAttributes(hrtf: .off, auxiliarySends: 4))
        #expect(rig.context.auxiliarySends == 4)
        var reverb = Reverb()
        reverb.decayTime = 100
        expectError(.invalidArgument, mentioning: ["decayTime", "0.1...20"]) { _ = try AudioEffect(context: rig.context, .reverb(reverb)) }
        expectError(.invalidArgument, mentioning: ["delay"]) { _ = try AudioEffect(context: rig.context, .echo(Echo(delay: 1))) }
        expectError(.invalidArgument, mentioning: ["gainHF"]) { _ = try AudioFilter(context: rig.context, .lowpass(gainHF: 2)) }
        let source = try AudioSource(context: rig.context)
        let slot = try EffectSlot(context: rig.context)
        try source.setSend(3, to: slot)
        expectError(.invalidArgument, mentioning: ["4 auxiliary sends"]) { try source.setSend(4, to: slot) }
        let other = try LoopbackRig()
        expectError(.wrongContext) { try source.setSend(0, to: try EffectSlot(context: other.context)) }
        expectError(.wrongContext) { try slot.setEffect(try AudioEffect(context: other.context, .echo(Echo()))) }
        expectError(.invalidArgument) { try slot.setGain(1.5) }
        expectError(.invalidArgument) { _ = try AudioContext(device: rig.device, attributes: ContextAttributes(auxiliarySends: 17)) }
        // Slots past OpenAL Soft's 64 are refused before OpenAL would raise an error.
        var slots: [EffectSlot] = []
        while slots.count < 70, let made = try? EffectSlot(context: other.context) { slots.append(made) }
        #expect(slots.count == other.context.effectSlotLimit)
        expectError(.sourceLimitReached) { _ = try EffectSlot(context: other.context) }
    }
}
