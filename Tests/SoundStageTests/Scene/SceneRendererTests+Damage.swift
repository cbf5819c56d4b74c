import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Sound files a scene names that exist but do not decode, or decode only in part: every
/// error and warning names the JSON path of the place that names the file, as for a file
/// that is missing.
@Suite("Scenes and sound files that do not decode: the JSON path in every error and warning")
struct SceneDamageTests {
    /// A scene file in `folder` playing `sound` as its one source (or as a music track's item).
    static func scene(_ folder: TemporaryFolder, sound: String, asMusic: Bool = false) throws -> URL {
        let json = asMusic
            ? #"{"duration": 0.5, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 0.1}}], "music": {"tracks": [{"name": "t", "items": ["\#(sound)"], "start": 0}]}}"#
            : #"{"duration": 0.5, "sources": [{"sound": "\#(sound)"}]}"#
        let url = folder.file("scene.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test("an empty file, a WAV of zero frames and a damaged header: a SceneError at the source's sound, or the music item",
          arguments: [false, true])
    func undecodable(asMusic: Bool) throws {
        let folder = try TemporaryFolder()
        try Data().write(to: folder.file("empty.wav"))
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: []).wavData(.pcm16).write(to: folder.file("zero.wav"))
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEjunkjunkjunk".utf8).write(to: folder.file("header.wav"))
        let place = asMusic ? "$.music.tracks[0].items[0]" : "$.sources[0].sound"
        for name in ["empty.wav", "zero.wav", "header.wav"] {
            let scene = try SceneDescription.load(contentsOf: try Self.scene(folder, sound: name, asMusic: asMusic))
            do {
                _ = try SceneRenderer(scene: scene).render()
                Issue.record("\(name) rendered")
            } catch let error as SceneError {
                #expect(error.path == place && error.file.hasSuffix("scene.json") && error.problem.contains(name), "\(name): \(error)")
            }
        }
    }

    @Test("a FLAC cut short: the scene renders what decodes, with a warning at the source's sound; the tool prints it")
    func truncated() throws {
        let folder = try TemporaryFolder()
        let flac = try DamagedFiles.encode(try DamagedFiles.tone(folder, "tone.wav", seconds: 1), to: "flac")
        _ = try DamagedFiles.truncated(flac, to: 0.6, as: "cut.flac")
        let url = try Self.scene(folder, sound: "cut.flac")
        let render = try SceneRenderer(scene: try SceneDescription.load(contentsOf: url)).renderReporting()
        let warning = try #require(render.warnings.first, "a warning for the damaged file")
        #expect(warning.path == "$.sources[0].sound" && warning.problem.contains("cut.flac") && warning.problem.contains("48000"), "\(warning)")
        let tool = try #require(ToolRunner.soundstage)
        let out = try ToolRunner.run(tool, ["render", url.path, "-o", folder.file("out.wav").path])
        #expect(out.status == 0 && out.stderr.contains("warning") && out.stderr.contains("$.sources[0].sound"), "\(out)")
        let info = try ToolRunner.run(tool, ["info", folder.file("cut.flac").path])
        #expect(info.stdout.contains("did not decode whole") && info.stdout.contains("of 48000 frames"), "\(info)")
        let json = try ToolRunner.run(tool, ["info", "--json", folder.file("cut.flac").path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let damage = try #require(object["damage"] as? [String: Any], "\(json.stdout)")
        #expect(damage["framesStated"] as? Int == 48_000 && (damage["framesDelivered"] as? Int ?? 48_000) < 48_000, "\(damage)")
        let whole = try ToolRunner.run(tool, ["info", "--json", folder.file("tone.wav").path])
        #expect(whole.stdout.contains("\"damage\":null"), "\(whole.stdout)")
    }
}
