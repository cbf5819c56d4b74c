import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Sound files a scene names outside its own folder: `..`, an absolute path, a link that leads
/// out. Listed, warned of by `soundstage render`, refused with `--inside-only` or
/// `load(contentsOf:refusingFilesOutside: true)` unless the scene says `"allowOutside": true`.
@Suite("Scenes that name sound files outside their folder: listed, warned of, refused when asked")
struct SceneFilesOutsideTests {
    /// A folder `scene/` holding `inside.wav` and a link `link.wav` to `../outside.wav`, and a
    /// scene there naming the inside file, `../outside.wav`, the link and the outside file's
    /// absolute path (`allowOutside` as given).
    static func layout(_ root: TemporaryFolder, allowOutside: Bool? = nil) throws -> URL {
        let folder = root.file("scene")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tone = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: [Float](repeating: 0.25, count: 4_800))
        try tone.wavData(.pcm16).write(to: folder.appendingPathComponent("inside.wav"))
        try tone.wavData(.pcm16).write(to: root.file("outside.wav"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: "../outside.wav")
        let allow = allowOutside.map { "\"allowOutside\": \($0), " } ?? ""
        let json = """
            {"duration": 0.2, \(allow)"sources": [{"sound": "inside.wav"}, {"sound": "../outside.wav"}, {"sound": "link.wav"},
             {"sound": "\(root.file("outside.wav").path)"}]}
            """
        let url = folder.appendingPathComponent("scene.json")
        try Data(json.utf8).write(to: url)
        return url
    }

    @Test("listed at the places that name them: `..`, a link out and an absolute path, not the file inside")
    func listed() throws {
        let root = try TemporaryFolder()
        let url = try Self.layout(root)
        let scene = try SceneDescription.load(contentsOf: url)
        let outside = scene.filesOutsideFolder
        #expect(outside.map(\.path) == ["$.sources[1].sound", "$.sources[2].sound", "$.sources[3].sound"], "\(outside)")
        #expect(outside.allSatisfy { $0.problem.contains("outside the scene's folder") && $0.problem.contains("outside.wav") }, "\(outside)")
        #expect(!scene.allowsFilesOutside)
        do {
            _ = try SceneDescription.load(contentsOf: url, refusingFilesOutside: true)
            Issue.record("a scene reading files outside its folder was loaded when refused")
        } catch let error as SceneError {
            #expect(error.path == "$.sources[1].sound" && error.problem.contains("allowOutside"), "\(error)")
        }
    }

    @Test("a scene that says \"allowOutside\": true loads when refused too; one that says false does not")
    func allowed() throws {
        let root = try TemporaryFolder()
        let allowed = try SceneDescription.load(contentsOf: try Self.layout(root, allowOutside: true), refusingFilesOutside: true)
        #expect(allowed.allowsFilesOutside && allowed.filesOutsideFolder.count == 3)
        let other = try TemporaryFolder()
        #expect(throws: SceneError.self) { try SceneDescription.load(contentsOf: try Self.layout(other, allowOutside: false), refusingFilesOutside: true) }
    }

    @Test("soundstage render warns of each file outside (and renders), --allow-outside does not, --inside-only refuses and writes nothing")
    func tool() throws {
        let tool = try #require(ToolRunner.soundstage)
        let root = try TemporaryFolder()
        let scene = try Self.layout(root)
        let out = root.file("out.wav")
        let warned = try ToolRunner.run(tool, ["render", scene.path, "-o", out.path])
        #expect(warned.status == 0, "\(warned.stderr)")
        let warnings = warned.stderr.split(separator: "\n").filter { $0.contains("outside the scene's folder") }
        #expect(warnings.count == 3 && warnings.allSatisfy { $0.hasPrefix("soundstage: warning:") }, "\(warned.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.path))
        let quiet = try ToolRunner.run(tool, ["render", scene.path, "-o", out.path, "--allow-outside"])
        #expect(quiet.status == 0 && !quiet.stderr.contains("outside"), "\(quiet.stderr)")
        try FileManager.default.removeItem(at: out)
        let refused = try ToolRunner.run(tool, ["render", scene.path, "-o", out.path, "--inside-only"])
        #expect(refused.status == 1 && refused.stderr.contains("$.sources[1].sound") && refused.stderr.contains("outside"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
        // The example scenes that reach ../drums say so, and render with no warning.
        let example = try ToolRunner.run(tool, ["render", Assets.scenes.appendingPathComponent("drums-around.json").path, "-o", out.path, "--inside-only"])
        #expect(example.status == 0 && example.stderr.isEmpty, "\(example.stderr)")
    }
}
