import Foundation
import Testing
import SoundStage

/// Renders scene JSON given as a string.
func renderScene(_ json: String) throws -> RenderedAudio {
    try SceneRenderer(scene: try SceneDescription.parse(Data(json.utf8), file: "test.json")).render()
}

/// The SceneError a bad scene gives.
func sceneError(_ json: String) -> SceneError? {
    do { _ = try SceneDescription.parse(Data(json.utf8), file: "bad.json"); return nil } catch { return error as? SceneError }
}

@Suite("Scenes")
struct SceneTests {
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

    @Test("the example scenes load and render something audible", arguments: ["drums-around.json", "doppler-flyby.json", "walk-through.json"])
    func examples(name: String) throws {
        let scene = try SceneDescription.load(contentsOf: Assets.scenes.appendingPathComponent(name))
        let audio = try SceneRenderer(scene: scene).render()
        #expect(audio.frameCount == Int(scene.duration * 48_000))
        #expect(max(audio.rmsDB(channel: 0), audio.rmsDB(channel: 1)) > -40)
        let svg = ScenePlot.svg(scene: scene, audio: audio)
        #expect(svg.hasPrefix("<svg") && svg.contains("listener") && svg.contains("<polyline"))
    }

    @Test("invalid scenes name the JSON path and the problem")
    func errors() throws {
        #expect(sceneError("{\"duration\": 1, ")?.problem.contains("invalid JSON") == true)
        let unknown = sceneError(#"{"duration": 1, "sources": [{"sound": "a.wav", "volume": 1}]}"#)
        #expect(unknown?.path == "$.sources[0].volume" && unknown?.problem.contains("unknown key") == true)
        let top = sceneError(#"{"duration": 1, "sources": [], "reverb": true}"#)
        #expect(top?.path == "$.reverb")
        let type = sceneError(#"{"duration": 1, "sources": [{"sound": "a.wav", "position": [1, 2]}]}"#)
        #expect(type?.path == "$.sources[0].position" && type?.problem.contains("3 numbers") == true)
        let boolean = sceneError(#"{"duration": 1, "hrtf": 1, "sources": []}"#)
        #expect(boolean?.path == "$.hrtf")
        let negative = sceneError(#"{"duration": -2, "sources": []}"#)
        #expect(negative?.path == "$.duration" && negative?.problem.contains("above 0") == true)
        #expect(sceneError(#"{"sources": []}"#)?.problem.contains("duration") == true)
        let tone = sceneError(#"{"duration": 1, "sources": [{"sound": {"tone": "chirp", "frequency": 1, "duration": 1}}]}"#)
        #expect(tone?.path == "$.sources[0].sound.tone")
        let keyframes = sceneError(#"{"duration": 1, "sources": [{"sound": "a.wav", "path": [{"t": 1, "position": [0,0,0]}, {"t": 0.5, "position": [0,0,0]}]}]}"#)
        #expect(keyframes?.path == "$.sources[0].path[1].t")
        #expect(sceneError(#"{"duration": 1, "channels": "9.2", "sources": []}"#)?.path == "$.channels")
        #expect(unknown?.description.hasPrefix("bad.json: $.sources[0].volume: ") == true)
    }

    @Test("soundstage render: a good scene writes a WAV and a plot; a bad one exits non-zero with one line and no file")
    func tool() throws {
        let tool = try #require(ToolRunner.soundstage)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-render-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("out.wav"), svg = dir.appendingPathComponent("out.svg")
        let ok = try ToolRunner.run(tool, ["render", Assets.scenes.appendingPathComponent("doppler-flyby.json").path, "-o", wav.path, "--plot", svg.path, "--format", "float32"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("6.00 s") && ok.stdout.contains("RMS"), "\(ok.stdout)")
        let size = try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int
        #expect(size == 44 + 6 * 48_000 * 2 * 4)
        #expect(FileManager.default.fileExists(atPath: svg.path))

        let bad = dir.appendingPathComponent("bad.json")
        try #"{"duration": 1, "sources": [{"sound": "missing.wav"}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        let badOut = dir.appendingPathComponent("bad.wav")
        let failed = try ToolRunner.run(tool, ["render", bad.path, "-o", badOut.path])
        #expect(failed.status != 0)
        let lines = failed.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("$.sources[0].sound") && lines[0].contains("not found"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: badOut.path))
    }
}
