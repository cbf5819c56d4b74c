import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Scenes with voices: groups, buses, priorities and ducking, rendered through the engine.
@Suite("SceneRenderer with voices: groups of emitters, real and virtual, buses and ducking")
struct SceneVoiceTests {
    /// A field of `count` looping tones, `real` real voices, the listener standing at the west end.
    static func field(count: Int, real: Int, extra: String = "") -> String {
        """
        {"duration": 0.5, "voices": {"real": \(real)}, "listener": {"position": [-20, 0, 0]},
         "groups": [{"name": "crickets", "count": \(count), "min": [-20, 0, -20], "max": [20, 0, 20], "seed": 3,
                     "source": {"sound": {"tone": "sine", "frequency": 3000, "duration": 0.1}, "loops": -1, "gain": 0.2}}],
         "sources": []\(extra)}
        """
    }

    @Test("a group of 2,000 emitters with 32 real voices: the nearest are real the whole render, the farthest never")
    func groupField() throws {
        let scene = try SceneDescription.parse(Data(Self.field(count: 2_000, real: 32).utf8))
        #expect(scene.sources.count == 2_000 && scene.groups.count == 1 && scene.sources.allSatisfy { $0.group == 0 })
        let render = try SceneRenderer(scene: scene).renderReporting()
        #expect(render.peakReal == 32 && render.peakVirtual == 1_968, "real \(render.peakReal), virtual \(render.peakVirtual)")
        #expect(render.audio.rmsDB(channel: 0) > -50, "the real ones are heard")
        let distances = scene.sources.map { ($0.position - SIMD3<Float>(-20, 0, 0)) }.map { ($0 * $0).sum().squareRoot() }
        let byDistance = distances.indices.sorted { distances[$0] < distances[$1] }
        let nearest = byDistance.prefix(32), farthest = byDistance.suffix(1_000)
        #expect(nearest.allSatisfy { render.realFractions[$0] == 1 }, "the 32 nearest are real at every tick")
        #expect(farthest.allSatisfy { render.realFractions[$0] == 0 }, "the far half is never real")
        let svg = ScenePlot.svg(scene: scene, audio: render.audio, realFractions: render.realFractions)
        #expect(svg.contains("crickets: 2000") && svg.contains("32 ever real"))
    }

    @Test("a pinned line of dialog ducks the bus of the crickets by 12 dB, and group placement repeats from the seed")
    func duckingScene() throws {
        let dialog = """
        , "buses": [{"name": "night", "parent": "effects"}],
          "ducking": [{"trigger": "dialog", "target": "night", "depthDB": 12, "attack": 0, "release": 0}]
        """
        var json = Self.field(count: 50, real: 60, extra: dialog).replacingOccurrences(of: #""gain": 0.2}"#, with: #""gain": 0.2, "bus": "night"}"#)
        json = json.replacingOccurrences(of: #""sources": []"#, with: #""sources": [{"sound": {"tone": "sine", "frequency": 100, "duration": 0.1}, "gain": 0, "bus": "dialog", "start": 0.2, "pinned": true}]"#)
        let scene = try SceneDescription.parse(Data(json.utf8))
        #expect(scene.buses.map(\.name) == ["night"] && scene.buses[0].parent == "effects" && scene.ducking.count == 1)
        let again = try SceneDescription.parse(Data(json.utf8))
        #expect(scene.sources.map(\.position) == again.sources.map(\.position), "the same seed places the group the same way")
        let audio = try SceneRenderer(scene: scene).render()
        // The line is silent (gain 0) but plays from 0.2 s to 0.3 s: the night drops 12 dB.
        let before = Measure.dB(Array(audio.channel(0)[4_800..<9_600]))
        let during = Measure.dB(Array(audio.channel(0)[10_560..<14_400]))
        let after = Measure.dB(Array(audio.channel(0)[16_320..<24_000]))
        #expect(abs(during - before + 12) < 0.5, "ducked by \(before - during) dB")
        #expect(abs(after - before) < 0.5, "back after the line: \(before) -> \(after) dB")
    }

    @Test("scene voice keys are checked: unknown buses, bad parents, bad groups and modes name their JSON path")
    func errors() throws {
        func problem(_ json: String) -> SceneError? {
            do { _ = try SceneDescription.parse(Data(json.utf8)); return nil } catch { return error as? SceneError }
        }
        let tone = #"{"tone": "sine", "frequency": 100, "duration": 0.1}"#
        #expect(problem(#"{"duration": 1, "sources": [{"sound": \#(tone), "bus": "nowhere"}]}"#)?.path == "$.sources[0].bus")
        #expect(problem(#"{"duration": 1, "buses": [{"name": "a", "parent": "b"}], "sources": []}"#)?.path == "$.buses[0].parent")
        #expect(problem(#"{"duration": 1, "buses": [{"name": "music"}], "sources": []}"#)?.path == "$.buses[0].name")
        #expect(problem(#"{"duration": 1, "ducking": [{"trigger": "dialog", "target": "dialog"}], "sources": []}"#)?.path == "$.ducking[0]")
        #expect(problem(#"{"duration": 1, "groups": [{"count": 0, "min": [0,0,0], "max": [1,1,1], "source": {"sound": \#(tone)}}], "sources": []}"#)?.path == "$.groups[0].count")
        #expect(problem(#"{"duration": 1, "groups": [{"count": 5, "min": [2,0,0], "max": [1,1,1], "source": {"sound": \#(tone)}}], "sources": []}"#)?.path == "$.groups[0]")
        #expect(problem(#"{"duration": 1, "sources": [{"sound": \#(tone), "whenVirtual": "sleep"}]}"#)?.path == "$.sources[0].whenVirtual")
        #expect(problem(#"{"duration": 1, "sources": [{"sound": \#(tone), "priority": 300}]}"#)?.path == "$.sources[0].priority")
        #expect(problem(#"{"duration": 1, "voices": {"real": -1}, "sources": []}"#)?.path == "$.voices.real")
    }

    @Test("1,000 groups of 100,000 copies (130 KB of JSON, 10^8 sources asked): refused at the eleventh group's count, before any copy is made")
    func groupCopiesCapped() throws {
        let group = #"{"count": 100000, "min": [0,0,0], "max": [1,1,1], "source": {"sound": {"tone": "sine", "frequency": 100, "duration": 0.1}}}"#
        let json = #"{"duration": 1, "sources": [], "groups": ["# + Array(repeating: group, count: 1_000).joined(separator: ",") + "]}"
        var caught: SceneError?
        do { _ = try SceneDescription.parse(Data(json.utf8)) } catch { caught = error as? SceneError }
        #expect(caught?.path == "$.groups[10].count", "\(String(describing: caught))")
        #expect(caught?.problem.contains("more than a scene holds (1000000") == true, "\(String(describing: caught))")
    }

    static func level(_ json: String) throws -> Double {
        let audio = try SceneRenderer(scene: try SceneDescription.parse(Data(json.utf8), file: "review.json")).render()
        let tail = RenderedAudio(format: audio.format, samples: Array(audio.samples.dropFirst(2 * 4_800)))
        return 10 * log10(pow(10, tail.rmsDB(channel: 0) / 10) + pow(10, tail.rmsDB(channel: 1) / 10))
    }

    @Test("a scene source with gain 4 at 4 m is as loud as OpenAL plays it (the gain is clamped after distance, not before)")
    func sceneGainAboveOne() throws {
        func scene(gain: Float) -> String {
            """
            {"duration": 0.3, "sources": [{"sound": {"tone": "sine", "frequency": 1000, "duration": 1}, "loops": -1, "position": [0, 0, -4], "gain": \(gain)}]}
            """
        }
        let viaScene = try Self.level(scene(gain: 4)) - Self.level(scene(gain: 1))
        // OpenAL itself, as the renderer drove it before (gain on the source, max gain 1).
        func direct(_ gain: Float) throws -> Double {
            let rig = try LoopbackRig()
            let source = try rig.toneSource(at: [0, 0, -4], gain: gain)
            try source.set(.maxGain, to: 1)
            try source.play()
            let out = try rig.render(frames: 9_600)
            return 10 * log10(pow(10, out.rmsDB(channel: 0) / 10) + pow(10, out.rmsDB(channel: 1) / 10))
        }
        let viaOpenAL = try direct(4) - direct(1)
        #expect(abs(viaScene - viaOpenAL) < 0.5)
    }
}
