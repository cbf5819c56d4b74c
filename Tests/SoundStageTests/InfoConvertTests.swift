import Foundation
import Testing
import SoundStage

@Suite("soundstage info and convert")
struct InfoConvertTests {
    @Test("info --json gives exactly the documented keys, with soxi's frames and rate; convert matches oggdec")
    func infoAndConvert() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let wav = folder.file("in.wav"), ogg = folder.file("in.ogg"), out = folder.file("out.wav"), ref = folder.file("ref.wav")
        let sox = try #require(ToolRunner.which("sox")), oggenc = try #require(ToolRunner.which("oggenc"))
        let oggdec = try #require(ToolRunner.which("oggdec")), soxi = try #require(ToolRunner.which("soxi"))
        #expect(try ToolRunner.run(sox, ["-n", "-r", "32000", "-c", "2", "-b", "16", wav.path, "synth", "2", "sine", "500", "sine", "750"]).status == 0)
        #expect(try ToolRunner.run(oggenc, ["-Q", "-o", ogg.path, wav.path]).status == 0)

        let info = try ToolRunner.run(tool, ["info", "--json", wav.path, ogg.path])
        #expect(info.status == 0, "\(info.stderr)")
        let objects = info.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 2)
        for (object, url) in zip(objects, [wav, ogg]) {
            let container = url == wav ? "WAV" : "Ogg"
            let o = try #require(object)
            #expect(Set(o.keys) == ["path", "container", "encoding", "channels", "sampleRate", "frames", "duration"])
            #expect(o["path"] as? String == url.path && o["container"] as? String == container)
            let frames = try ToolRunner.run(soxi, ["-s", url.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect("\(o["frames"] as? Int ?? -1)" == frames && o["sampleRate"] as? Int == 32_000 && o["channels"] as? Int == 2)
            #expect(abs((o["duration"] as? Double ?? 0) - 2) < 1e-9)
        }

        let converted = try ToolRunner.run(tool, ["convert", ogg.path, "-o", out.path, "--format", "pcm16"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try ToolRunner.run(oggdec, ["-Q", "-o", ref.path, ogg.path]).status == 0)
        let scene = try LoopbackRig()
        let ours = try AudioBuffer(context: scene.context, contentsOf: out).floatSamples()
        let theirs = try AudioBuffer(context: scene.context, contentsOf: ref).floatSamples()
        #expect(ours.count == theirs.count)
        var signal = 0.0, noise = 0.0
        for i in 0..<min(ours.count, theirs.count) {
            signal += Double(theirs[i] * theirs[i]); let d = Double(ours[i] - theirs[i]); noise += d * d
        }
        #expect(10 * log10(signal / max(noise, 1e-30)) >= 60)
    }

    @Test("a file that cannot be read: non-zero exit, one line on stderr, no output file")
    func badFile() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let text = folder.file("notes.wav"), out = folder.file("out.wav")
        try "not audio".write(to: text, atomically: true, encoding: .utf8)
        for args in [["info", text.path], ["info", "--json", folder.file("missing.ogg").path], ["convert", text.path, "-o", out.path]] {
            let r = try ToolRunner.run(tool, args)
            #expect(r.status != 0)
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("soundstage: "), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
