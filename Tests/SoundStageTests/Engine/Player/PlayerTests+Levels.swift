import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Metering and fades, measured in the render.
extension PlayerTests {
    @Test("metering: a full-scale sine reads -3.01 dB average and 0 dB peak; silence reads -160")
    func metering() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 1))
        player.isMeteringEnabled = true
        player.updateMeters()
        #expect(player.averagePower(forChannel: 0) == -160 && player.peakPower(forChannel: 0) == -160)
        try player.play()
        _ = try engine.render(frames: 12_345)
        player.updateMeters()
        #expect(abs(player.averagePower(forChannel: 0) + 3.01) <= 0.1, "average \(player.averagePower(forChannel: 0))")
        #expect(abs(player.peakPower(forChannel: 0)) <= 0.1, "peak \(player.peakPower(forChannel: 0))")
        player.volume = 0.5
        player.updateMeters()
        #expect(abs(player.averagePower(forChannel: 0) + 9.03) <= 0.1)
        player.stop()
        player.updateMeters()
        #expect(player.averagePower(forChannel: 0) == -160)
        // Master output metering of the render itself, once the mixer's stop fade is over.
        if engine.context.mixerSmoothing.stopFadeFrames > 0 { _ = try engine.render(frames: engine.context.mixerSmoothing.stopFadeFrames) }
        let silent = try engine.render(frames: 4_800)
        #expect(silent.frameCount == 4_800 && engine.outputLevels.allSatisfy { $0.rms == -160 && $0.peak == -160 })
    }

    @Test("metering a streamed sound: a full-scale sine reads -3.01 dB average and 0 dB peak")
    func streamedMetering() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let samples = Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate, seconds: 1, amplitude: 1)
        let player = engine.makePlayer(try EngineRig.sound(engine, samples, streamed: true))
        player.isMeteringEnabled = true
        try player.play()
        for frames in [4_900, 12_345] {   // the window straddles a chunk boundary at 4,800, then not
            _ = try engine.render(frames: frames)
            player.updateMeters()
            #expect(abs(player.averagePower(forChannel: 0) + 3.01) <= 0.1, "average \(player.averagePower(forChannel: 0))")
            #expect(abs(player.peakPower(forChannel: 0)) <= 0.1, "peak \(player.peakPower(forChannel: 0))")
        }
    }

    @Test("a fade's level at its midpoint is within 0.5 dB of its curve; stopAtEnd stops",
          arguments: [(FadeCurve.linear, -6.02), (.equalPower, -3.01)])
    func fade(curve: FadeCurve, midpoint: Double) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        player.numberOfLoops = -1
        try player.play()
        let before = try engine.render(frames: 4_800)
        try player.fade(to: 0, duration: 1, curve: curve, stopAtEnd: true)
        let out = try engine.render(frames: 48_000 + 4_800)
        let reference = Measure.dB(Array(before.channel(0)[2_400...]))
        let middle = Measure.dB(Array(out.channel(0)[(24_000 - 240)..<(24_000 + 240)]))
        #expect(abs(middle - reference - midpoint) <= 0.5, "\(curve): \(middle - reference) dB at the midpoint")
        // No step: neighbouring 10 ms windows differ by little more than the curve does.
        let quarter = Measure.dB(Array(out.channel(0)[(12_000 - 240)..<(12_000 + 240)]))
        #expect(quarter > middle && quarter - reference < 0)
        #expect(!player.isPlaying)
        #expect(Measure.dB(Array(out.channel(0)[49_000...])) == -160)
    }

    @Test("a fade follows its curve in every 10 ms window, with no step", arguments: [FadeCurve.linear, .equalPower])
    func fadeWindows(curve: FadeCurve) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sound(engine, Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate), streamed: false))
        player.numberOfLoops = -1
        try player.play()
        let reference = Measure.dB(Array(try engine.render(frames: 4_800).channel(0)[2_400...]))
        try player.fade(to: 0, duration: 1, curve: curve)
        let out = try engine.render(frames: 48_000).channel(0)
        var worst = 0.0
        for window in 5..<90 {   // 10 ms windows; the last ones are too quiet to judge in dB
            let level = Measure.dB(Array(out[(window * 480)..<((window + 1) * 480)])) - reference
            let x = (Double(window) + 0.5) / 100
            let gain = curve == .linear ? 1 - x : cos(x * .pi / 2)
            worst = max(worst, abs(level - 20 * log10(gain)))
        }
        #expect(worst <= 0.5, "\(curve): worst window off its curve by \(worst) dB")
    }
}

extension PlayerTests {
    @Test("updateMeters measures the end of a sound that played out before the engine's next tick")
    func meterAtUnnoticedEnd() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        // 4,700 frames of a 1 kHz sine at 0.5 (-9 dBFS RMS); ticks every 480 frames, so the end
        // at 4,700 is not noticed before the tick at 4,800.
        let samples = (0..<4_700).map { 0.5 * sin(2 * Float.pi * 1_000 * Float($0) / 48_000) }
        let player = engine.makePlayer(try EngineRig.sound(engine, samples, streamed: false))
        player.isMeteringEnabled = true
        try player.play()
        _ = try engine.render(frames: 4_750)
        #expect(player.isPlaying && player.audioSource?.state == .stopped, "the end is not noticed yet")
        player.updateMeters()
        let average = player.averagePower(forChannel: 0)
        #expect(abs(average - (-9.03)) < 0.5, "the last 1,024 frames are the sine's end, -9 dBFS; got \(average)")
    }
}
