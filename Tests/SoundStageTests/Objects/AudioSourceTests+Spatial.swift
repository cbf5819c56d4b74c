import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Where a source is heard: position, relative mode, spatialization, stereo channels,
/// radius, gain bounds, its own distance model, Doppler and cones.
extension AudioSourceTests {
    @Test("a mono source at +x is at least 20 dB louder on the right")
    func sourceOnTheRight() throws {
        let scene = try LoopbackRig()
        #expect(scene.context.hrtfStatus == .disabled)
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.play()
        let audio = try scene.render(frames: 48_000)
        let (left, right) = (Measure.dB(audio, channel: 0), Measure.dB(audio, channel: 1))
        #expect(right - left >= 20, "left \(left) dB, right \(right) dB")
        #expect(right > -20, "the source must be audible: right \(right) dB")
    }

    @Test("a listener-relative source ignores listener movement and turning")
    func relativeSource() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.set(.isRelative, to: true)
        try source.play()
        let before = try scene.render(frames: 24_000)
        try scene.context.listener.set(.position, to: [30, 4, -12])
        try scene.context.listener.set(.orientation, to: Orientation(forward: [0, 0, 1], up: [0, 1, 0]))
        let after = try scene.render(frames: 24_000)
        for channel in 0..<2 {
            #expect(abs(Measure.dB(before, channel: channel) - Measure.dB(after, channel: channel)) < 0.1)
        }
        #expect(Measure.dB(after, channel: 1) - Measure.dB(after, channel: 0) >= 20)
    }

    @Test("spatialize off plays a mono source centred wherever it is")
    func spatializeOff() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [5, 0, 0])
        try source.set(.spatialize, to: .off)
        #expect(source.get(.spatialize) == .off)
        try source.play()
        let audio = try scene.render(frames: 24_000)
        #expect(abs(Measure.dB(audio, channel: 0) - Measure.dB(audio, channel: 1)) < 0.1)
    }

    @Test("direct channels and stereo angles place a stereo sound's channels")
    func stereoChannels() throws {
        let scene = try LoopbackRig()
        let tone = Tone.samples(frequency: 1000, sampleRate: 48_000)
        var leftOnly = [Float](repeating: 0, count: tone.count * 2)
        for i in tone.indices { leftOnly[2 * i] = tone[i] }
        let buffer = try AudioBuffer(context: scene.context, samples: leftOnly, channels: .stereo, sampleRate: 48_000)
        #expect(buffer.channelCount == 2)
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(buffer)
        try source.set(.isLooping, to: true)
        try source.set(.directChannels, to: true)
        try source.play()
        let direct = try scene.render(frames: 24_000)
        #expect(Measure.dB(direct, channel: 1) == -160, "direct: right is silent")
        #expect(Measure.dB(direct, channel: 0) > -10)
        try source.set(.directChannels, to: false)
        try source.set(.stereoAngles, to: [Float.pi / 2, -Float.pi / 2])
        #expect(source.get(.stereoAngles) == [Float.pi / 2, -Float.pi / 2])
        let wide = try scene.render(frames: 24_000)
        #expect(Measure.dB(wide, channel: 0) - Measure.dB(wide, channel: 1) >= 20)
    }

    @Test("radius spreads a near source over both channels")
    func radius() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.play()
        let point = try scene.render(frames: 24_000)
        try source.set(.radius, to: 4)
        #expect(source.get(.radius) == 4)
        let wide = try scene.render(frames: 24_000)
        let pointSpread = Measure.dB(point, channel: 1) - Measure.dB(point, channel: 0)
        let wideSpread = Measure.dB(wide, channel: 1) - Measure.dB(wide, channel: 0)
        #expect(pointSpread >= 20 && wideSpread < 10, "point \(pointSpread) dB, radius 4: \(wideSpread) dB")
    }

    @Test("min and max gain bound the attenuated gain")
    func gainBounds() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [0, 0, -1])
        try source.play()
        let reference = Measure.totalDB(try scene.render(frames: 24_000))
        try source.set(.position, to: [0, 0, -100])
        try source.set(.minGain, to: 0.5)
        let floor = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs(floor - reference - 20 * log10(0.5)) < 0.5, "min gain holds the far source at -6 dB: \(floor - reference)")
        try source.set(.position, to: [0, 0, -1])
        try source.set(.minGain, to: 0)
        try source.set(.gain, to: 1)
        try source.set(.maxGain, to: 0.25)
        let ceiling = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs(ceiling - reference - 20 * log10(0.25)) < 0.5)
    }

    @Test("per-source distance model overrides the context's")
    func perSourceModel() throws {
        let scene = try LoopbackRig()
        try scene.context.set(.distanceModel, to: .inverseClamped)
        try scene.context.set(.perSourceDistanceModel, to: true)
        let source = try scene.toneSource(at: [0, 0, -1])
        try source.set(.distanceModel, to: .none)
        try source.play()
        let near = Measure.totalDB(try scene.render(frames: 24_000))
        try source.set(.position, to: [0, 0, -8])
        let far = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs(near - far) < 0.1, "no attenuation under the source's own model")
        #expect(scene.context.get(.perSourceDistanceModel))
    }

    @Test("Doppler: a 1 kHz tone approaching at a tenth of the speed of sound renders at f/(1-0.1) within 0.5 %")
    func doppler() throws {
        let scene = try LoopbackRig()
        let speed = scene.context.get(.speedOfSound)
        #expect(abs(speed - 343.3) < 0.01)
        let source = try scene.toneSource(frequency: 1000, at: [0, 0, -50])
        try source.set(.velocity, to: [0, 0, speed / 10])
        try source.play()
        let audio = try scene.render(frames: 65_536)
        let measured = Measure.peakFrequency(audio.channel(0), sampleRate: 48_000)
        let predicted = 1000 * Double(speed) / Double(speed - speed / 10)
        #expect(abs(measured - predicted) / predicted < 0.005, "measured \(measured) Hz, predicted \(predicted) Hz")

        // Receding, and with the Doppler factor at 0 (off).
        try source.set(.velocity, to: [0, 0, -speed / 10])
        let away = Measure.peakFrequency(try scene.render(frames: 65_536).channel(0), sampleRate: 48_000)
        let awayPredicted = 1000 * Double(speed) / Double(speed + speed / 10)
        #expect(abs(away - awayPredicted) / awayPredicted < 0.005, "receding: \(away) Hz, predicted \(awayPredicted) Hz")
        try scene.context.set(.dopplerFactor, to: 0)
        let off = Measure.peakFrequency(try scene.render(frames: 65_536).channel(0), sampleRate: 48_000)
        #expect(abs(off - 1000) / 1000 < 0.005, "no Doppler: \(off) Hz")
    }

    @Test("outside the outer cone angle the level is the outer gain within 0.5 dB")
    func cone() throws {
        let scene = try LoopbackRig()
        try scene.context.set(.distanceModel, to: .none)
        let source = try scene.toneSource(at: [0, 0, -2])
        try source.set(.coneInnerAngle, to: 30)
        try source.set(.coneOuterAngle, to: 90)
        try source.set(.coneOuterGain, to: 0.25)
        try source.set(.direction, to: [0, 0, 1])   // facing the listener
        try source.play()
        let facing = Measure.totalDB(try scene.render(frames: 24_000))
        try source.set(.direction, to: [0, 0, -1])  // facing away: 180 degrees off axis
        let away = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs((away - facing) - 20 * log10(0.25)) <= 0.5, "facing \(facing) dB, away \(away) dB")
        try source.set(.direction, to: [1, 0, 0])   // 90 degrees off axis: outside the 45-degree half angle
        let side = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs((side - facing) - 20 * log10(0.25)) <= 0.5, "side \(side) dB")
        try source.set(.direction, to: [0.1, 0, 1])  // inside the inner cone
        let inside = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs(inside - facing) <= 0.1)
    }
}
