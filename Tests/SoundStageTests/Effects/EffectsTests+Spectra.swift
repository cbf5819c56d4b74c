import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Each effect changes the spectrum of what is sent through it as its parameters say.
@Suite("Effects heard: each effect changes the spectrum as its parameters say")
struct EffectSpectrumTests {
    /// The wet signal of a looping `frequency` tone sent through `settings` (the dry path
    /// muted), the left channel, after the effect settled.
    static func wet(_ settings: EffectSettings, frequency: Float = 1_000, amplitude: Float = 0.3) throws -> (samples: [Float], rate: Int) {
        let rig = try LoopbackRig()
        let slot = try EffectSlot(context: rig.context)
        try slot.setEffect(try AudioEffect(context: rig.context, settings))
        let source = try EffectsTests.oneShot(rig, Tone.samples(frequency: frequency, sampleRate: rig.sampleRate, amplitude: amplitude))
        try source.set(.isLooping, to: true)
        try source.setDirectFilter(try AudioFilter(context: rig.context, .lowpass(gain: 0, gainHF: 1)))
        try source.setSend(0, to: slot)
        try source.play()
        return (try rig.render(frames: 16_384, settle: 9_600).channel(0), rig.sampleRate)
    }

    @Test("every effect type loads with its defaults and with every parameter at its extremes, with no OpenAL error")
    func everyEffectLoads() throws {
        let rig = try LoopbackRig()
        let all: [EffectSettings] = [
            .reverb(Reverb()), .echo(Echo()), .chorus(Chorus()), .flanger(Flanger()), .distortion(Distortion()), .equalizer(Equalizer()),
            .compressor(Compressor()), .ringModulator(RingModulator()), .autowah(Autowah()), .pitchShifter(PitchShifter()),
            .frequencyShifter(FrequencyShifter()), .dedicatedDialog(Dedicated()), .dedicatedLowFrequency(Dedicated(gain: 0.5)),
            .chorus(Chorus(waveform: .sinusoid, phase: -180, rate: 10, depth: 1, feedback: -1, delay: 0)),
            .flanger(Flanger(waveform: .sinusoid, phase: 180, rate: 0, depth: 0, feedback: 1, delay: 0.004)),
            .distortion(Distortion(edge: 1, gain: 0.01, lowpassCutoff: 80, eqCenter: 24_000, eqBandwidth: 80)),
            .equalizer(Equalizer(lowGain: 0.126, lowCutoff: 800, mid1Gain: 7.943, mid1Center: 3_000, mid1Width: 0.01, mid2Gain: 0.126,
                                 mid2Center: 1_000, mid2Width: 1, highGain: 7.943, highCutoff: 16_000)),
            .compressor(Compressor(isOn: false)), .ringModulator(RingModulator(frequency: 8_000, highpassCutoff: 0, waveform: .square)),
            .autowah(Autowah(attackTime: 0.0001, releaseTime: 1, resonance: 2, peakGain: 31_621)),
            .pitchShifter(PitchShifter(coarseTune: -12, fineTune: 50)), .frequencyShifter(FrequencyShifter(frequency: 24_000, leftDirection: .up, rightDirection: .off)),
        ]
        let slot = try EffectSlot(context: rig.context)
        for settings in all {
            let effect = try AudioEffect(context: rig.context, settings)
            try slot.setEffect(effect)
            #expect(effect.description.contains(settings.label) || effect.usesEAXReverb)
        }
        expectError(.invalidArgument, mentioning: ["phase"]) { _ = try AudioEffect(context: rig.context, .chorus(Chorus(phase: 200))) }
        expectError(.invalidArgument, mentioning: ["coarseTune"]) { _ = try AudioEffect(context: rig.context, .pitchShifter(PitchShifter(coarseTune: 13))) }
        expectError(.invalidArgument, mentioning: ["lowGain"]) { _ = try AudioEffect(context: rig.context, .equalizer(Equalizer(lowGain: 10))) }
    }

    @Test("the pitch shifter moves a 1 kHz tone by the set semitones", arguments: [-5, 7])
    func pitchShifter(semitones: Int) throws {
        let (wet, rate) = try Self.wet(.pitchShifter(PitchShifter(coarseTune: semitones, fineTune: 0)))
        let expected = 1_000 * pow(2, Double(semitones) / 12)
        let heard = Measure.peakFrequency(wet, sampleRate: rate)
        #expect(abs(heard - expected) < expected * 0.01, "\(semitones) semitones: \(heard) Hz, expected \(expected)")
    }

    @Test("the frequency shifter moves a 1 kHz tone by the set Hz, up or down")
    func frequencyShifter() throws {
        let up = try Self.wet(.frequencyShifter(FrequencyShifter(frequency: 300, leftDirection: .up, rightDirection: .up)))
        let down = try Self.wet(.frequencyShifter(FrequencyShifter(frequency: 300, leftDirection: .down, rightDirection: .down)))
        let (u, d) = (Measure.peakFrequency(up.samples, sampleRate: up.rate), Measure.peakFrequency(down.samples, sampleRate: down.rate))
        #expect(abs(u - 1_300) < 10 && abs(d - 700) < 10, "up \(u) Hz, down \(d) Hz")
    }

    @Test("the ring modulator gives the sum and difference frequencies, not the tone itself")
    func ringModulator() throws {
        let (wet, rate) = try Self.wet(.ringModulator(RingModulator(frequency: 300, highpassCutoff: 0, waveform: .sinusoid)))
        let sum = toneDB(wet, frequency: 1_300, sampleRate: rate), difference = toneDB(wet, frequency: 700, sampleRate: rate)
        let original = toneDB(wet, frequency: 1_000, sampleRate: rate)
        #expect(sum > original + 20 && difference > original + 20, "1300 Hz \(sum) dB, 700 Hz \(difference) dB, 1000 Hz \(original) dB")
    }

    @Test("distortion adds harmonics a clean tone lacks")
    func distortion() throws {
        let clean = try Self.wet(.equalizer(Equalizer()), frequency: 500)
        let dirty = try Self.wet(.distortion(Distortion(edge: 1, gain: 1, lowpassCutoff: 24_000)), frequency: 500)
        let third = toneDB(dirty.samples, frequency: 1_500, sampleRate: dirty.rate) - toneDB(dirty.samples, frequency: 500, sampleRate: dirty.rate)
        let cleanThird = toneDB(clean.samples, frequency: 1_500, sampleRate: clean.rate) - toneDB(clean.samples, frequency: 500, sampleRate: clean.rate)
        #expect(third > -30 && cleanThird < -60, "third harmonic: distorted \(third) dB, clean \(cleanThird) dB under the fundamental")
    }

    @Test("the equalizer's low shelf raises a low tone and leaves a mid one")
    func equalizer() throws {
        let flat = try Self.wet(.equalizer(Equalizer()), frequency: 60)
        let boosted = try Self.wet(.equalizer(Equalizer(lowGain: 3.98, lowCutoff: 200)), frequency: 60)
        let mid = try Self.wet(.equalizer(Equalizer(lowGain: 3.98, lowCutoff: 200)), frequency: 2_000)
        let midFlat = try Self.wet(.equalizer(Equalizer()), frequency: 2_000)
        let lift = toneDB(boosted.samples, frequency: 60, sampleRate: boosted.rate) - toneDB(flat.samples, frequency: 60, sampleRate: flat.rate)
        let midLift = toneDB(mid.samples, frequency: 2_000, sampleRate: mid.rate) - toneDB(midFlat.samples, frequency: 2_000, sampleRate: midFlat.rate)
        #expect(abs(lift - 12) < 1.5 && abs(midLift) < 1, "low shelf +12 dB: 60 Hz \(lift) dB, 2 kHz \(midLift) dB")
    }

    @Test("chorus and flanger with depth move the tone's energy away from its frequency; with no depth they leave it there")
    func modulation() throws {
        let cases: [(EffectSettings, EffectSettings)] = [
            (.chorus(Chorus(rate: 5, depth: 0, feedback: 0)), .chorus(Chorus(rate: 5, depth: 1, feedback: 0))),
            (.flanger(Flanger(rate: 5, depth: 0, feedback: 0)), .flanger(Flanger(rate: 5, depth: 1, feedback: 0))),
        ]
        for (still, moving) in cases {
            let a = try Self.wet(still), b = try Self.wet(moving)
            let atTone = toneDB(a.samples, frequency: 1_000, sampleRate: a.rate) - toneDB(b.samples, frequency: 1_000, sampleRate: b.rate)
            let total = Measure.dB(a.samples) - Measure.dB(b.samples)
            #expect(atTone > 10 && abs(total) < 6, "\(still.label): the 1 kHz bin falls \(atTone) dB with depth, the whole wet signal \(total) dB")
        }
    }
}
