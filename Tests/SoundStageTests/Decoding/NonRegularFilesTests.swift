import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Loaders read only regular files: a FIFO (which held a loader in `open` for ever, waiting for
/// a writer), a directory or a device is a typed error naming the path.
@Suite("Loaders and non-regular files: a FIFO, a directory, a device refused, not waited on")
struct NonRegularFilesTests {
    @Test("a FIFO, a directory and /dev/zero as a sound file: fileAccess naming the path and what it is, whole-file decode and streaming alike")
    func soundFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("tone.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for (url, kind) in [(fifo, "a FIFO"), (folder.url, "a directory"), (URL(fileURLWithPath: "/dev/zero"), "a character device")] {
            let error = expectError(.fileAccess, mentioning: [kind, "not a regular file"]) { _ = try SoundFile.decode(contentsOf: url) }
            #expect(error?.object == url.path, "\(String(describing: error))")
            expectError(.fileAccess, mentioning: [kind]) { _ = try SoundFile.decoder(contentsOf: url) }
        }
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        defer { engine.shutdown() }
        expectError(.fileAccess, mentioning: ["a FIFO"]) { _ = try Sound(engine: engine, streamingContentsOf: fifo) }
    }

    @Test("a scene that is a FIFO, and a scene whose sound is one: errors naming them, soundstage render exits 1 at once")
    func scenes() throws {
        let folder = try TemporaryFolder()
        let fifoScene = folder.file("scene.json")
        #expect(mkfifo(fifoScene.path, 0o600) == 0)
        var caught: SceneError?
        do { _ = try SceneDescription.load(contentsOf: fifoScene) } catch { caught = error as? SceneError }
        #expect(caught?.problem.contains("it is a FIFO, not a regular file") == true, "\(String(describing: caught))")

        let sound = folder.file("drum.wav")
        #expect(mkfifo(sound.path, 0o600) == 0)
        let scene = folder.file("uses-fifo.json")
        try #"{"duration": 1, "sources": [{"sound": "drum.wav"}]}"#.write(to: scene, atomically: true, encoding: .utf8)
        let tool = try #require(ToolRunner.soundstage)
        let out = try ToolRunner.run(tool, ["render", scene.path, "-o", folder.file("out.wav").path], environment: ["ALSOFT_DRIVERS": "null"])
        #expect(out.status == 1, "\(out)")
        #expect(out.stderr.contains("drum.wav") && out.stderr.contains("a FIFO"), "\(out.stderr)")
    }
}
