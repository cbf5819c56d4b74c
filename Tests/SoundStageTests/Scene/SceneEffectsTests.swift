import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// The SceneError a bad scene gives.
private func effectsError(_ effects: String, source: String = "") -> SceneError? {
    let json = #"{"duration": 1, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 1}"# + source + #"}], "effects": "# + effects + "}"
    do { _ = try SceneDescription.parse(Data(json.utf8), file: "fx.json"); return nil } catch { return error as? SceneError }
}

@Suite("Scenes with effects: bus effects, reverb zones, occlusion and sends, parsed, rendered and drawn")
struct SceneEffectsTests {
    @Test("effects parse: presets by either name, parameters by name, zones of both shapes, per-source occlusion and send")
    func parsing() throws {
        let json = #"""
        {"duration": 1, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 1}, "occlusion": 0.5, "obstruction": 0.25, "send": 0.3}],
         "effects": {"buses": [{"bus": "effects", "effect": "reverb", "preset": "CASTLE_HALL", "decayTime": 3, "level": 0.5},
                               {"bus": "dialog", "effect": "chorus", "waveform": 0, "rate": 2}],
                     "zones": [{"name": "cave", "sphere": {"center": [0, 0, -5], "inner": 2, "outer": 6}, "reverb": "cave"},
                               {"name": "hall", "box": {"center": [9, 0, 0], "inner": [1, 1, 1], "outer": [2, 2, 3]}, "reverb": {"preset": "castleHall", "gain": 0.5}}],
                     "zoneFade": 0.5}}
        """#
        let scene = try SceneDescription.parse(Data(json.utf8))
        var castle = Reverb(preset: .castleHall)
        castle.decayTime = 3
        #expect(scene.effects.buses.first == {
            var e = BusEffectDescription(bus: "effects", settings: .reverb(castle))
            e.level = 0.5
            return e
        }())
        #expect(scene.effects.buses.last?.settings == .chorus(Chorus(waveform: .sinusoid, rate: 2)))
        #expect(scene.effects.zones.map(\.name) == ["cave", "hall"] && scene.effects.zones[0].reverb == Reverb(preset: .cave))
        #expect(scene.effects.zones[1].reverb.gain == 0.5 && scene.effects.zones[1].reverb.decayTime == Reverb(preset: .castleHall).decayTime)
        #expect(scene.effects.zoneFadeSeconds == 0.5)
        let source = scene.sources[0]
        #expect(source.occlusion == 0.5 && source.obstruction == 0.25 && source.sendLevel == 0.3)
    }

    @Test("bad effects name the JSON path and the problem")
    func errors() {
        let cases: [(String, String, String)] = [
            (#"{"buses": [{"bus": "nowhere", "effect": "echo"}]}"#, "$.effects.buses[0].bus", "no bus"),
            (#"{"buses": [{"bus": "effects", "effect": "vocoder"}]}"#, "$.effects.buses[0].effect", "must be one of"),
            (#"{"buses": [{"bus": "effects", "effect": "echo", "decayTime": 1}]}"#, "$.effects.buses[0].decayTime", "unknown key"),
            (#"{"buses": [{"bus": "effects", "effect": "echo", "delay": 5}]}"#, "$.effects.buses[0]", "delay"),
            (#"{"buses": [{"bus": "effects", "effect": "chorus", "waveform": 7}]}"#, "$.effects.buses[0].waveform", "whole number"),
            (#"{"buses": [{"bus": "effects", "effect": "echo"}, {"bus": "effects", "effect": "echo"}]}"#, "$.effects.buses[1].bus", "already"),
            (#"{"buses": [{"bus": "effects", "effect": "reverb", "preset": "kitchen"}]}"#, "$.effects.buses[0].preset", "no reverb preset"),
            (#"{"zones": [{"name": "z", "sphere": {"center": [0, 0, 0], "inner": 5, "outer": 2}, "reverb": "cave"}]}"#, "$.effects.zones[0]", "inner radius"),
            (#"{"zones": [{"name": "z", "reverb": "cave"}]}"#, "$.effects.zones[0]", "sphere"),
            (#"{"zones": [{"name": "z", "sphere": {"center": [0, 0, 0], "inner": 1, "outer": 2}, "reverb": "attic"}]}"#, "$.effects.zones[0].reverb", "no reverb preset"),
            (#"{"zones": [{"name": "z", "sphere": {"center": [0, 0, 0], "inner": 1, "outer": 2}, "reverb": "cave"}, {"name": "z", "box": {"center": [0, 0, 0], "inner": [1, 1, 1], "outer": [2, 2, 2]}, "reverb": "cave"}]}"#, "$.effects.zones[1].name", "unique"),
            (#"{"zoneFade": -1}"#, "$.effects.zoneFade", "at least"),
            (#"{"reverb": "cave"}"#, "$.effects.reverb", "unknown key"),
        ]
        for (effects, path, words) in cases {
            let error = effectsError(effects)
            #expect(error?.path == path && error?.problem.contains(words) == true, "\(effects): \(String(describing: error))")
        }
        let occlusion = effectsError("{}", source: #", "occlusion": 1.5"#)
        #expect(occlusion?.path == "$.sources[0].occlusion")
        #expect(effectsError("{}", source: #", "send": -0.1"#)?.path == "$.sources[0].send")
    }

    @Test("cave-walk.json: no reverb until the listener nears a zone, the zones' reverb inside, and the map draws the zones")
    func caveWalk() throws {
        let scene = try SceneDescription.load(contentsOf: Assets.scenes.appendingPathComponent("cave-walk.json"))
        var dryScene = scene
        dryScene.effects = EffectsDescription()
        let wet = try SceneRenderer(scene: scene).render()
        let dry = try SceneRenderer(scene: dryScene).render()
        let difference = zip(wet.samples, dry.samples).map { $0 - $1 }
        let second = 2 * 48_000
        // The listener stands outside both zones for the first second.
        #expect(difference[0..<second].allSatisfy { $0 == 0 }, "no reverb outside the zones")
        let inside = Measure.dB(Array(difference[(10 * second)...]))
        #expect(inside > -40, "the cave's reverb at the end: \(inside) dB")
        let svg = ScenePlot.svg(scene: scene, audio: wet)
        #expect(svg.contains("cave (reverb 2.9 s)") && svg.contains("tunnel (reverb 2.5 s)") && svg.contains("occluded 0.6"))
    }

    @Test("a source's send level scales what it sends: send 0 is dry; the music bus sends nothing to zones")
    func sendLevels() throws {
        func wetDB(send: Float?, bus: String = "effects") throws -> Double {
            let sendKey = send.map { #", "send": \#($0)"# } ?? ""
            let json = #"{"duration": 2, "sources": [{"sound": {"tone": "impulse", "frequency": 1, "duration": 2}, "position": [0, 0, -1], "bus": "\#(bus)"\#(sendKey)}],"#
                + #" "effects": {"zones": [{"name": "room", "sphere": {"center": [0, 0, 0], "inner": 5, "outer": 10}, "reverb": "stoneroom"}], "zoneFade": 0}}"#
            var scene = try SceneDescription.parse(Data(json.utf8))
            let wet = try SceneRenderer(scene: scene).render()
            scene.effects = EffectsDescription()
            let dry = try SceneRenderer(scene: scene).render()
            return Measure.dB(zip(wet.samples, dry.samples).map { $0 - $1 })
        }
        let full = try wetDB(send: nil), half = try wetDB(send: 0.5)
        #expect(full > -90 && abs((full - half) - 6.02) < 0.5, "send 0.5 is 6 dB down: \(full) and \(half) dB")
        #expect(try wetDB(send: 0) == -160)
        #expect(try wetDB(send: nil, bus: "music") == -160)
    }
}
