import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The SceneError a bad scene gives.
private func sceneError(_ json: String) -> SceneError? {
    do { _ = try SceneDescription.parse(Data(json.utf8), file: "bad.json"); return nil } catch { return error as? SceneError }
}

@Suite("SceneDescription: parsing and errors")
struct SceneDescriptionTests {
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

    @Test("the scene format keeps its names: \"noise\" is white noise, and \"rear\" is no output layout")
    func names() throws {
        let scene = try SceneDescription.parse(Data(#"{"duration": 1, "channels": "5.1", "sources": [{"sound": {"tone": "noise", "frequency": 100, "duration": 0.5}}]}"#.utf8))
        #expect(scene.channels == .surround51)
        guard case .tone(let shape, _, _) = scene.sources[0].sound else { Issue.record("not a tone"); return }
        #expect(shape == .whiteNoise && shape.sceneName == "noise")
        let rear = sceneError(#"{"duration": 1, "channels": "rear", "sources": []}"#)
        #expect(rear?.path == "$.channels" && rear?.problem.contains("\"7.1\"") == true && rear?.problem.contains("got \"rear\"") == true && rear?.problem.contains("\"rear\", ") == false)
        #expect(Waveform.allCases.map(\.sceneName) == ["sine", "square", "sawtooth", "noise", "impulse"])
    }
}
