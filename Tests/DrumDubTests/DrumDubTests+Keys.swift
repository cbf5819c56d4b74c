import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// What the review of drumdub found (helper in /work/review9), each kept as a test.
extension DrumDubScriptTests {
    @Test("r, r, h: the reverb replaced twice, then HRTF on, plays on (it crashed OpenAL Soft 1.19.1)")
    func reverbTwiceThenHRTF() throws {
        let render = try Self.render("0 p\n0 r\n0 r\n0 h\n0.5 1\nend 1.2\n", in: try TemporaryFolder())
        #expect(render.screen.lines.contains { $0.contains("reverb living room, HRTF enabled") })
        #expect(Measure.dB(Array(render.left[24_000...])) > -40)
    }

    @Test("+ and - step the music volume by a tenth, from its 50 %")
    func volumeKeys() throws {
        let folder = try TemporaryFolder()
        let louder = try Self.render("0.1 +\n0.2 +\nend 0.5\n", in: folder, name: "louder")
        let quieter = try Self.render("0.1 -\nend 0.5\n", in: folder, name: "quieter")
        #expect(louder.screen.lines.contains { $0.contains("vol 70%") }, "\(louder.screen.lines.joined(separator: "\n"))")
        #expect(quieter.screen.lines.contains { $0.contains("vol 40%") })
        // 0.7 against 0.4 of the same music: 4.86 dB.
        let difference = Measure.dB(Array(louder.left[12_000..<24_000])) - Measure.dB(Array(quieter.left[12_000..<24_000]))
        #expect(abs(difference - 20 * log10(0.7 / 0.4)) < 0.1, "\(difference) dB")
    }

    @Test("a script with CRLF line ends plays as with LF")
    func crlfScript() throws {
        let folder = try TemporaryFolder()
        let lf = try Self.render("0 p\n0.5 1\nend 1\n", in: folder, name: "lf")
        let crlf = try Self.render("0 p\r\n0.5 1\r\nend 1\r\n", in: folder, name: "crlf")
        #expect(lf.left == crlf.left && lf.right == crlf.right)
    }

    @Test("l during an interruption is refused on screen, the render goes on; l while recording loops what was recorded")
    func loopKeyEdges() throws {
        let folder = try TemporaryFolder()
        let interrupted = try Self.render("0 p\n0 g\n0.1 1\n0.6 g\n1 i\n1.5 l\nend 3\n", in: folder, name: "interrupted")
        #expect(interrupted.screen.lines.contains { $0.contains("the groove loops again when the interruption ends") })
        #expect(interrupted.screen.lines.contains { $0.contains("groove: 1 hits (l loops)") })
        let recording = try Self.render("0 p\n0 g\n0.1 1\n0.5 l\nend 1\n", in: folder, name: "recording")
        #expect(recording.screen.lines.contains { $0.contains("groove: looping 1 hits / 0.5 s") }, "\(recording.screen.lines.suffix(6))")
    }

    @Test("scripts refused naming their line: a second end, an end under 10 ms, a key after the end, a drum's initial; the WAV goes beside the script")
    func moreBadScripts() throws {
        let demo = try #require(ToolRunner.product("drumdub"))
        let folder = try TemporaryFolder()
        for (script, line, reason) in [("end 1\nend 2\n", "bad.txt line 2", "a second end"), ("end 0.001\n", "bad.txt line 1", "end takes"),
                                       ("1 snare\n2 bass\nend 1.5\n", "bad.txt line 2", "a key at 2.0 s comes after the end"),
                                       // A drum's initial is no key (the drums are 1-4 and their names).
                                       ("0.5 1\n1 S\nend 2\n", "bad.txt line 2", "no key \"S\"")] {
            let file = folder.file("bad.txt")
            try Data(script.utf8).write(to: file)
            let run = try ToolRunner.run(demo, ["--script", file.path, "--assets", Assets.folder.path])
            #expect(run.status == 1 && run.stderr.contains(line) && run.stderr.contains(reason), "\(script): \(run.stderr)")
        }
        let file = folder.file("beside.txt")
        try Data("0.1 1\nend 0.5\n".utf8).write(to: file)
        let run = try ToolRunner.run(demo, ["--script", file.path, "--assets", Assets.folder.path])
        #expect(run.status == 0 && FileManager.default.fileExists(atPath: folder.file("beside.wav").path), "\(run.stdout) \(run.stderr)")
    }
}
