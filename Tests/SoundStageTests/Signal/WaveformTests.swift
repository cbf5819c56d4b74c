import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("Waveform: freealut waveforms")
struct WaveformTests {
    /// Amplitude of the component at `frequency` (a single-bin DFT over whole periods).
    private func amplitude(_ x: [Float], at frequency: Double, rate: Int) -> Double {
        var re = 0.0, im = 0.0
        for (n, v) in x.enumerated() {
            let a = 2 * Double.pi * frequency * Double(n) / Double(rate)
            re += Double(v) * cos(a); im -= Double(v) * sin(a)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(x.count)
    }

    private func make(_ shape: Waveform, _ frequency: Float, phase: Float = 0, duration: Float = 1) throws -> (AudioBuffer, [Float]) {
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, waveform: shape, frequency: frequency, phase: phase, duration: duration)
        return (buffer, buffer.floatSamples())
    }

    @Test("a sine is at its frequency and lasts its duration")
    func sine() throws {
        let (buffer, x) = try make(.sine, 440, duration: 1)
        #expect(buffer.channelCount == 1 && abs(buffer.duration - 1) < 0.001, "\(buffer.frameCount) frames at \(buffer.sampleRate) Hz")
        let f = Measure.peakFrequency(x, sampleRate: buffer.sampleRate)
        #expect(abs(f - 440) / 440 < 0.005, "peak at \(f) Hz")
        #expect(20 * log10(amplitude(x, at: 880, rate: buffer.sampleRate) / amplitude(x, at: 440, rate: buffer.sampleRate)) < -40, "a pure tone")
    }

    @Test("a square has odd harmonics at 1/n; a sawtooth has all harmonics at 1/n")
    func harmonics() throws {
        let (sq, x) = try make(.square, 500)
        let fundamental = amplitude(x, at: 500, rate: sq.sampleRate)
        let third = 20 * log10(amplitude(x, at: 1_500, rate: sq.sampleRate) / fundamental)
        let second = 20 * log10(amplitude(x, at: 1_000, rate: sq.sampleRate) / fundamental)
        #expect(abs(third - 20 * log10(1.0 / 3)) < 1.5, "square 3rd harmonic \(third) dB")
        #expect(second < -30, "square 2nd harmonic \(second) dB")
        let (saw, y) = try make(.sawtooth, 500)
        let sawSecond = 20 * log10(amplitude(y, at: 1_000, rate: saw.sampleRate) / amplitude(y, at: 500, rate: saw.sampleRate))
        #expect(abs(sawSecond - 20 * log10(0.5)) < 1.5, "sawtooth 2nd harmonic \(sawSecond) dB")
    }

    @Test("an impulse train clicks once per period; white noise has no tone; phase 90 starts at the crest")
    func impulseNoisePhase() throws {
        let (imp, x) = try make(.impulse, 100)
        let clicks = onsets(x, threshold: 0.5, gap: imp.sampleRate / 200)
        #expect(abs(clicks.count - 100) <= 1, "\(clicks.count) clicks")
        let (noise, n) = try make(.whiteNoise, 440)
        #expect(Measure.dB(n) > -20)
        // The power of the 21 one-hertz bins around 440 Hz against those around 1234 Hz: one
        // bin of noise against another differs by over 20 dB a few times in a hundred (the
        // test failed so once), 21 against 21 by more than 6 dB almost never.
        func band(_ center: Double) -> Double {
            (-10...10).map { pow(amplitude(n, at: center + Double($0), rate: noise.sampleRate), 2) }.reduce(0, +)
        }
        #expect(abs(10 * log10(band(440) / band(1_234))) < 6, "no 440 Hz tone in the noise")
        let (_, p) = try make(.sine, 100, phase: 90, duration: 0.1)
        #expect(p[0] > 0.9 * p.map(abs).max()!, "starts at \(p[0])")
    }

    @Test("out-of-range waveform arguments give a typed error")
    func invalid() throws {
        let scene = try LoopbackRig()
        expectError(.invalidArgument, mentioning: ["frequency"]) { _ = try AudioBuffer(context: scene.context, waveform: .sine, frequency: 0, duration: 1) }
        expectError(.invalidArgument, mentioning: ["phase"]) { _ = try AudioBuffer(context: scene.context, waveform: .sine, frequency: 100, phase: 270, duration: 1) }
        expectError(.invalidArgument, mentioning: ["duration"]) { _ = try AudioBuffer(context: scene.context, waveform: .square, frequency: 100, duration: .infinity) }
    }
}
