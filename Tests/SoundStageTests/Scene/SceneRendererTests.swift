import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Renders scene JSON given as a string.
private func renderScene(_ json: String) throws -> RenderedAudio {
    try SceneRenderer(scene: try SceneDescription.parse(Data(json.utf8), file: "test.json")).render()
}

@Suite("SceneRenderer: scenes rendered offline")
struct SceneRendererTests {
    @Test("a source left of the listener is louder on the left, right of it on the right")
    func channelBalance() throws {
        for (x, louder) in [(-3, 0), (3, 1)] {
            let audio = try renderScene("""
            {"duration": 0.5, "sources": [{"sound": {"tone": "sine", "frequency": 500, "duration": 1}, "loops": -1, "position": [\(x), 0, 0]}]}
            """)
            let other = 1 - louder
            #expect(audio.rmsDB(channel: louder) - audio.rmsDB(channel: other) >= 20, "x = \(x)")
        }
    }

    @Test("attenuation over distance follows each model", arguments: [DistanceModel.inverseClamped, .linearClamped, .exponentClamped])
    func attenuation(model: DistanceModel) throws {
        func level(_ d: Float) throws -> Double {
            let audio = try renderScene("""
            {"duration": 0.3, "distanceModel": "\(model.rawValue)",
             "sources": [{"sound": {"tone": "sine", "frequency": 1000, "duration": 1}, "loops": -1, "position": [0, 0, \(-d)], "maxDistance": 10, "rolloff": 1}]}
            """)
            // Skip the first 50 ms; sum both channels' energy.
            let tail = RenderedAudio(format: audio.format, samples: Array(audio.samples.dropFirst(2 * 2_400)))
            return 10 * log10(pow(10, tail.rmsDB(channel: 0) / 10) + pow(10, tail.rmsDB(channel: 1) / 10))
        }
        let reference = try level(1)
        for d: Float in [2, 4, 8] {
            let expected = 20 * log10(Double(model.gain(distance: d, referenceDistance: 1, maxDistance: 10, rolloff: 1)))
            let measured = try level(d) - reference
            #expect(abs(measured - expected) <= 0.5, "\(model) at \(d) m: \(measured) dB, formula \(expected) dB")
        }
    }

    @Test("a tone approaching on a path is shifted by Doppler as predicted")
    func dopplerOnPath() throws {
        // 34.33 m/s straight at the listener: a tenth of the speed of sound.
        let audio = try renderScene("""
        {"duration": 1.9, "sources": [{"sound": {"tone": "sine", "frequency": 1000, "duration": 1}, "loops": -1,
          "referenceDistance": 100,
          "path": [{"t": 0, "position": [0, 0, -100]}, {"t": 2, "position": [0, 0, -31.34]}]}]}
        """)
        let middle = Array(audio.channel(0)[12_000..<(12_000 + 65_536)])
        let f = Measure.peakFrequency(middle, sampleRate: 48_000)
        let predicted = 1000 * 343.3 / (343.3 - 34.33)
        #expect(abs(f - predicted) / predicted < 0.005, "measured \(f) Hz, predicted \(predicted) Hz")
    }

    @Test("a source starts at its start time to the frame")
    func onset() throws {
        let audio = try renderScene("""
        {"duration": 0.5, "sources": [{"sound": {"tone": "impulse", "frequency": 1, "duration": 0.1}, "position": [0, 0, -1], "start": 0.2371}]}
        """)
        let first = try #require(onsets(audio.channel(0), threshold: 0.01).first)
        let expected = Int((0.2371 * 48_000).rounded())
        #expect(abs(first - expected) <= 48, "onset at frame \(first), expected \(expected) (1 ms = 48 frames)")
        #expect(first == expected, "in fact exactly on the frame")
    }

    @Test("loops: N gives exactly N+1 plays", arguments: [0, 1, 3])
    func loops(n: Int) throws {
        // One click per 0.1 s buffer.
        let audio = try renderScene("""
        {"duration": 1, "sources": [{"sound": {"tone": "impulse", "frequency": 10, "duration": 0.1}, "position": [0, 0, -1], "loops": \(n), "start": 0.05}]}
        """)
        let clicks = onsets(audio.channel(0), threshold: 0.01)
        #expect(clicks == (0...n).map { 2_400 + $0 * 4_800 }, "clicks at \(clicks)")
    }

    @Test("loops: -1 repeats until the end of the render")
    func loopForever() throws {
        let audio = try renderScene("""
        {"duration": 1, "sources": [{"sound": {"tone": "impulse", "frequency": 10, "duration": 0.1}, "position": [0, 0, -1], "loops": -1}]}
        """)
        #expect(onsets(audio.channel(0), threshold: 0.01) == (0..<10).map { $0 * 4_800 })
    }

    @Test("rendering is deterministic, noise and moving listener included")
    func deterministic() throws {
        let json = try String(contentsOf: Assets.scenes.appendingPathComponent("walk-through.json"), encoding: .utf8)
        let a = try renderScene(json)
        let b = try renderScene(json)
        #expect(a.samples == b.samples)
        #expect(a.rmsDB(channel: 0) > -60)
    }

    @Test("the example scenes load and render something audible", arguments: ["drums-around.json", "doppler-flyby.json", "walk-through.json", "cricket-field.json", "cave-walk.json"])
    func examples(name: String) throws {
        let scene = try SceneDescription.load(contentsOf: Assets.scenes.appendingPathComponent(name))
        let audio = try SceneRenderer(scene: scene).render()
        #expect(audio.frameCount == Int(scene.duration * 48_000))
        #expect(max(audio.rmsDB(channel: 0), audio.rmsDB(channel: 1)) > -40)
        let svg = ScenePlot.svg(scene: scene, audio: audio)
        #expect(svg.hasPrefix("<svg") && svg.contains("listener") && svg.contains("<polyline"))
    }
}
