import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

extension SoundStageToolTests {
    @Test("info --json and convert read FLAC, Opus and MP3 with the same keys; they decode from memory as from files; a scene plays them")
    func codecs() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let wav = folder.file("in.wav")
        #expect(try ToolRunner.run(try #require(ToolRunner.which("sox")), ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "1", "sine", "500", "gain", "-6"]).status == 0)
        let flac = folder.file("in.flac"), opus = folder.file("in.opus"), mp3 = folder.file("in.mp3")
        #expect(try ToolRunner.run(try #require(ToolRunner.which("flac")), ["-s", "-o", flac.path, wav.path]).status == 0)
        #expect(try ToolRunner.run(try #require(ToolRunner.which("opusenc")), ["--quiet", wav.path, opus.path]).status == 0)
        #expect(try ToolRunner.run(try #require(ToolRunner.which("lame")), ["--quiet", wav.path, mp3.path]).status == 0)

        let info = try ToolRunner.run(tool, ["info", "--json", flac.path, opus.path, mp3.path])
        #expect(info.status == 0, "\(info.stderr)")
        let objects = info.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3)
        let expected: [(String, String, Int, Int)] = [("FLAC", "flac", 44_100, 44_100), ("Ogg", "opus", 48_000, 48_000), ("MP3", "mp3", 44_100, 44_100)]
        for (o, (container, encoding, rate, frames)) in zip(objects, expected) {
            #expect(Set(o.keys) == ["path", "container", "encoding", "channels", "sampleRate", "frames", "duration", "damage"])
            #expect(o["container"] as? String == container && o["encoding"] as? String == encoding && o["sampleRate"] as? Int == rate
                    && o["frames"] as? Int == frames && o["channels"] as? Int == 2, "\(o)")
        }
        for file in [flac, opus, mp3] {
            // From memory as from the file.
            let memory = try SoundFile.decode(try Data(contentsOf: file), name: "memory")
            #expect(memory.floatSamples() == (try SoundFile.decode(contentsOf: file)).floatSamples(), "\(file.lastPathComponent) from memory")
            let out = folder.file(file.lastPathComponent + ".wav")
            let converted = try ToolRunner.run(tool, ["convert", file.path, "-o", out.path])
            #expect(converted.status == 0, "\(converted.stderr)")
            let frames = try SoundFile.decode(contentsOf: out).frameCount
            #expect(frames > 40_000)
        }

        let scene = folder.file("codecs.json")
        try Data(#"{"duration": 1.2, "sources": [{"sound": "in.flac"}, {"sound": "in.opus", "start": 0.1}, {"sound": "in.mp3", "start": 0.2}]}"#.utf8).write(to: scene)
        let rendered = try SceneRenderer(scene: try SceneDescription.load(contentsOf: scene)).render()
        #expect(rendered.rmsDB(channel: 0) > -20)
    }
}
