import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("AudioContext: attributes, limits, distance models, HRTF")
struct AudioContextTests {
    @Test("context attributes are put in effect and readable")
    func attributes() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(refresh: 100, monoSources: 16, stereoSources: 4, hrtf: .off, outputLimiter: false))
        #expect(scene.context.refresh == 0, "a loopback device mixes on request, so no refresh rate")
        #expect(scene.context.stereoSources == 4)
        // OpenAL Soft grants at least 256 sources; SoundStage enforces the 20 asked for.
        #expect(scene.context.monoSources + scene.context.stereoSources >= 20)
        #expect(scene.context.sourceLimit == 20)
        #expect(scene.context.outputLimiter == false)
        #expect(scene.context.hrtfStatus == .disabled)
        #expect(scene.context.hrtfName == nil)

        let hrtf = try LoopbackRig(attributes: ContextAttributes(hrtf: .on, hrtfName: try AudioDevice.openLoopback().availableHRTFs.first))
        #expect(hrtf.context.hrtfStatus == .enabled)
        let mono = try LoopbackRig(format: RenderFormat(channels: .mono), attributes: ContextAttributes(hrtf: .on))
        #expect(mono.context.hrtfStatus == .unsupportedFormat)
    }

    @Test("the output limiter keeps a hot mix under full scale; without it the float output clips past 1")
    func limiter() throws {
        for limiter in [true, false] {
            let scene = try LoopbackRig(attributes: ContextAttributes(hrtf: .off, outputLimiter: limiter))
            let source = try scene.toneSource(at: [0, 0, -1])
            // A source's gain is clamped by its maxGain (at most 1); the listener's is not.
            try scene.context.listener.set(.gain, to: 8)
            try source.play()
            let peak = try scene.render(frames: 48_000, settle: 48_000).samples.map(abs).max()!
            if limiter {
                #expect(peak <= 1.0, "limited peak \(peak)")
            } else {
                #expect(peak > 1.5, "unlimited peak \(peak)")
            }
        }
    }

    @Test("going past the source limit throws sourceLimitReached, and releasing one makes room")
    func sourceLimit() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(monoSources: 6, stereoSources: 2, hrtf: .off))
        let limit = scene.context.sourceLimit
        #expect(limit == 8, "the 6 + 2 asked for, though OpenAL Soft grants more")
        var sources = try (0..<limit).map { _ in try AudioSource(context: scene.context) }
        #expect(scene.context.sourceCount == limit)
        #expect {
            _ = try AudioSource(context: scene.context)
        } throws: { error in
            let e = error as? SoundStageError
            return e?.code == .sourceLimitReached && e!.reason.contains("\(limit)")
        }
        sources.removeLast()
        sources.append(try AudioSource(context: scene.context))
        #expect(sources.count == limit)
    }

    @Test("context and listener values")
    func contextAndListener() throws {
        let scene = try LoopbackRig()
        expectError(.invalidArgument, mentioning: ["speedOfSound"]) { try scene.context.set(.speedOfSound, to: 0) }
        expectError(.invalidArgument, mentioning: ["dopplerFactor"]) { try scene.context.set(.dopplerFactor, to: -1) }
        let listener = scene.context.listener
        expectError(.invalidArgument, mentioning: ["parallel", "listener"]) {
            try listener.set(.orientation, to: Orientation(forward: [0, 1, 0], up: [0, 2, 0]))
        }
        expectError(.invalidArgument, mentioning: ["forward must not be zero"]) {
            try listener.set(.orientation, to: Orientation(forward: .zero, up: [0, 1, 0]))
        }
        expectError(.invalidArgument, mentioning: ["gain"]) { try listener.set(.gain, to: -3) }
        expectError(.invalidArgument, mentioning: ["position"]) { try listener.set(.position, to: [.nan, 0, 0]) }
        #expect(listener.get(.orientation) == Orientation())
    }

    @Test("distance model and Doppler settings round-trip", arguments: DistanceModel.allCases)
    func distanceModels(model: DistanceModel) throws {
        let scene = try LoopbackRig()
        try scene.context.set(.distanceModel, to: model)
        #expect(scene.context.get(.distanceModel) == model)
        try scene.context.set(.dopplerFactor, to: 0.5)
        try scene.context.set(.speedOfSound, to: 1_500)
        #expect(scene.context.get(.dopplerFactor) == 0.5)
        #expect(scene.context.get(.speedOfSound) == 1_500)
        let source = try AudioSource(context: scene.context)
        try source.set(.distanceModel, to: model)
        #expect(source.get(.distanceModel) == model)
    }

    /// Level of a 1 kHz tone straight ahead at `distance`, relative to the same tone at 1 m
    /// with no attenuation.
    private func relativeLevels(model: DistanceModel, distances: [Float], configure: (AudioSource) throws -> Void = { _ in }) throws -> [Double] {
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

    private func expectMatches(_ measured: [Double], _ model: DistanceModel, _ distances: [Float], ref: Float = 1, max: Float = .greatestFiniteMagnitude, rolloff: Float = 1) {
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

    @Test("HRTF on: a source at +x arrives earlier and louder at the right ear", .timeLimit(.minutes(1)))
    func hrtfInterauralDelay() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(hrtf: .on))
        #expect(scene.context.hrtfStatus.isActive)
        #expect(scene.context.hrtfName != nil)
        let source = try AudioSource(context: scene.context)
        var click = [Float](repeating: 0, count: 4800)
        click[0] = 1
        try source.setBuffer(try AudioBuffer(context: scene.context, samples: click, sampleRate: 48_000, label: "click"))
        try source.set(.position, to: [1, 0, 0])
        try source.play()
        let audio = try scene.device.render(frames: 4800)
        let left = Measure.onset(audio.channel(0), threshold: 1e-3)
        let right = Measure.onset(audio.channel(1), threshold: 1e-3)
        let l = try #require(left), r = try #require(right)
        // The head delays the far ear by about 0.6 ms (roughly 30 samples at 48 kHz).
        #expect(l - r >= 10, "left onset \(l), right onset \(r)")
        #expect(Measure.dB(audio, channel: 1) > Measure.dB(audio, channel: 0) + 3)
    }
}
