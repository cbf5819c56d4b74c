// The scene target: any bytes given to the JSON scene parser either make a scene or a
// SceneError naming the input, a JSON path and the problem. A scene that parses, is short and
// plays only generated tones is rendered too (under OpenAL Soft's error traps): rendering
// either works or throws a typed error.
import Foundation
import SoundStage

func fuzzScene(_ data: Data) {
    let scene: SceneDescription
    do {
        scene = try SceneDescription.parse(data, file: "fuzz.json")
    } catch let error as SceneError {
        precondition(error.file == "fuzz.json" && error.path.hasPrefix("$") && !error.problem.isEmpty, "a scene error that names nothing: \(error)")
        return
    } catch {
        preconditionFailure("untyped error \(error)")
    }
    let tonesOnly = scene.sources.allSatisfy { if case .tone = $0.sound { return true } else { return false } }
    guard tonesOnly, scene.music.tracks.isEmpty, scene.music.stingers.isEmpty, scene.duration <= 0.25, scene.sources.count <= 16 else { return }
    do {
        _ = try SceneRenderer(scene: scene).render()
    } catch let error as SceneError {
        precondition(!error.problem.isEmpty, "\(error)")
    } catch let error as SoundStageError {
        precondition(!error.object.isEmpty && !error.reason.isEmpty, "an error that names nothing: \(error)")
    } catch {
        preconditionFailure("untyped error \(error)")
    }
}
