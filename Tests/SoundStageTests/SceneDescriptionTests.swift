import Foundation
import Testing
import SoundStage

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
}
