import Foundation
import Testing
import SoundStage

@Suite("Distance attenuation, Doppler and cones")
struct AttenuationTests {
    /// Level of a 1 kHz tone straight ahead at `distance`, relative to the same tone at 1 m
    /// with no attenuation.
    func relativeLevels(model: DistanceModel, distances: [Float], configure: (AudioSource) throws -> Void = { _ in }) throws -> [Double] {
        let scene = try LoopbackRig()
        try scene.context.set(.distanceModel, to: .none)
        let source = try scene.toneSource(at: [0, 0, -1])
        try configure(source)
        try source.play()
        let reference = Measure.totalDB(try scene.render(frames: 24_000))
        try scene.context.set(.distanceModel, to: model)
        #expect(scene.context.get(.distanceModel) == model)
        return try distances.map { d in
            try source.set(.position, to: [0, 0, -d])
            return Measure.totalDB(try scene.render(frames: 24_000)) - reference
        }
    }

    func expectMatches(_ measured: [Double], _ model: DistanceModel, _ distances: [Float], ref: Float = 1, max: Float = .greatestFiniteMagnitude, rolloff: Float = 1) {
        for (d, level) in zip(distances, measured) {
            let expected = 20 * log10(Double(model.gain(distance: d, referenceDistance: ref, maxDistance: max, rolloff: rolloff)))
            #expect(abs(level - expected) <= 0.5, "\(model) at \(d) m: measured \(level) dB, formula \(expected) dB")
        }
    }

    @Test("inverse distance clamped at 1, 2, 4 and 8 m matches the formula within 0.5 dB")
    func inverseClamped() throws {
        let distances: [Float] = [1, 2, 4, 8]
        let levels = try relativeLevels(model: .inverseClamped, distances: distances)
        expectMatches(levels, .inverseClamped, distances)
        #expect(abs(levels[3] - levels[0] + 18.06) <= 0.5, "8 m is 18 dB below 1 m")
    }

    @Test("linear distance clamped matches the formula within 0.5 dB")
    func linear() throws {
        let distances: [Float] = [1, 2, 4, 8]
        let levels = try relativeLevels(model: .linearClamped, distances: distances) { try $0.set(.maxDistance, to: 16) }
        expectMatches(levels, .linearClamped, distances, max: 16)
    }

    @Test("exponent distance matches the formula within 0.5 dB")
    func exponent() throws {
        let distances: [Float] = [1, 2, 4, 8]
        let levels = try relativeLevels(model: .exponent, distances: distances) { try $0.set(.rolloffFactor, to: 1.5) }
        expectMatches(levels, .exponent, distances, rolloff: 1.5)
    }

    @Test("inverse (unclamped) with a 2 m reference distance")
    func inverseUnclamped() throws {
        let distances: [Float] = [2, 4, 8]
        let levels = try relativeLevels(model: .inverse, distances: distances) { try $0.set(.referenceDistance, to: 2) }
        expectMatches(levels, .inverse, distances, ref: 2)
    }

    @Test("max distance clamps the clamped models")
    func maxDistanceClamps() throws {
        let levels = try relativeLevels(model: .inverseClamped, distances: [4, 8, 16]) { try $0.set(.maxDistance, to: 4) }
        #expect(abs(levels[1] - levels[0]) < 0.1 && abs(levels[2] - levels[0]) < 0.1, "\(levels)")
        #expect(abs(levels[0] + 12.04) <= 0.5)
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

    @Test("a moving listener shifts the pitch too")
    func listenerDoppler() throws {
        let scene = try LoopbackRig()
        try scene.context.set(.speedOfSound, to: 340)
        let source = try scene.toneSource(frequency: 1000, at: [0, 0, -50])
        try scene.context.listener.set(.velocity, to: [0, 0, -34])
        try source.play()
        let measured = Measure.peakFrequency(try scene.render(frames: 65_536).channel(0), sampleRate: 48_000)
        let predicted = 1000 * (340.0 + 34) / 340
        #expect(abs(measured - predicted) / predicted < 0.005, "measured \(measured) Hz, predicted \(predicted) Hz")
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
