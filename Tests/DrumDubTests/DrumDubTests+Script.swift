import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// drumdub's `--script`: the game played offline from timed key presses, checked in the WAV
/// it writes.
@Suite("DrumDub: a script of key presses rendered offline")
struct DrumDubScriptTests {
    /// Runs drumdub on `script` in `folder`; returns the stereo render (left, right) and the
    /// screen at the end.
    static func render(_ script: String, in folder: TemporaryFolder, name: String = "script") throws -> (left: [Float], right: [Float], screen: DrumDubScreen) {
        let demo = try #require(ToolRunner.product("drumdub"), "drumdub is built beside the tests")
        let file = folder.file("\(name).txt"), wav = folder.file("\(name).wav"), screen = folder.file("\(name)-screen.txt")
        try Data(script.utf8).write(to: file)
        let run = try ToolRunner.run(demo, ["--script", file.path, "--render", wav.path, "--screen", screen.path, "--assets", Assets.folder.path])
        try #require(run.status == 0, "\(run.stderr)")
        let rig = try LoopbackRig()
        let samples = try AudioBuffer(context: rig.context, contentsOf: wav).floatSamples()
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        return (left, right, DrumDubScreen(try String(contentsOf: screen, encoding: .utf8)))
    }

    /// The lag (in frames, within ±`range`) at which `sound` best matches `signal` from `frame`.
    static func bestLag(_ signal: [Float], _ sound: [Float], at frame: Int, range: Int = 200) -> Int {
        var best = (lag: 0, score: -Double.infinity)
        let n = min(sound.count, 4_800)
        for lag in -range...range {
            let start = frame + lag
            guard start >= 0, start + n <= signal.count else { continue }
            var dot = 0.0
            for i in 0..<n { dot += Double(signal[start + i]) * Double(sound[i]) }
            if dot > best.score { best = (lag, dot) }
        }
        return best.lag
    }

    @Test("each key press lands on its frame: the drum's sound starts exactly there, on the channel the map puts it")
    func pressesLandOnTheirFrames() throws {
        let folder = try TemporaryFolder()
        // p at 0 pauses the music before anything is heard; the drums do not overlap.
        let times = [0.5, 1.0, 1.6, 2.1003]
        let script = "0 p\n" + zip(times, ["snare", "2", "3", "maraca"]).map { "\($0) \($1)" }.joined(separator: "\n") + "\nend 2.5\n"
        let render = try Self.render(script, in: folder)
        let first = render.left.indices.first { render.left[$0] != 0 || render.right[$0] != 0 }
        let rig = try LoopbackRig()
        for (d, name) in ["snare", "bass", "tambourine", "maraca"].enumerated() {
            let sound = try AudioBuffer(context: rig.context, contentsOf: Assets.drums.appendingPathComponent("\(name).wav")).floatSamples()
            let frame = Int((times[d] * 48_000).rounded())
            let side = try #require(render.screen.side(of: Character(name.prefix(1).uppercased())))
            let louder = side > 0 ? render.right : render.left
            #expect(Self.bestLag(louder, sound, at: frame) == 0, "\(name) pressed at \(times[d]) s: starts \(Self.bestLag(louder, sound, at: frame)) frames off frame \(frame)")
            if d == 0 { #expect(first.map { $0 >= frame && $0 < frame + 48 } == true, "nothing before the first key: first sound at frame \(first ?? -1)") }
        }
    }

    @Test("the drums are heard where the map shows them, and turning 180 degrees swaps every drum's side")
    func drumsWhereTheMapShowsThem() throws {
        let folder = try TemporaryFolder()
        let hits = "0.5 1\n1.0 2\n1.5 3\n2.0 4\nend 2.5\n"
        let turn = (0..<6).map { "0.0\(($0 + 1)) left" }.joined(separator: "\n")
        for (name, script) in [("facing", "0 p\n" + hits), ("turned", "0 p\n" + turn + "\n" + hits)] {
            let render = try Self.render(script, in: folder, name: name)
            for (d, initial) in ["S", "B", "T", "M"].enumerated() {
                let side = try #require(render.screen.side(of: Character(initial)), "\(render.screen.lines.joined(separator: "\n"))")
                let from = Int((0.5 + Double(d) * 0.5) * 48_000), to = from + 12_000
                let balance = Measure.dB(Array(render.right[from..<to])) - Measure.dB(Array(render.left[from..<to]))
                #expect(side != 0 && balance * Double(side) > 6, "\(name): \(initial) drawn on side \(side), heard right minus left \(balance) dB")
            }
        }
    }

    @Test("the music loops without a gap: 17 s of it are the 8 s loop played end to end, at the music's volume, sample for sample")
    func musicLoopsWithoutAGap() throws {
        let folder = try TemporaryFolder()
        let render = try Self.render("end 17\n", in: folder)
        #expect(render.left.count == 17 * 48_000)
        let rig = try LoopbackRig()
        let loop = try AudioBuffer(context: rig.context, contentsOf: Assets.music).floatSamples()
        let frames = loop.count / 2
        #expect(frames == 384_000)
        // The game's music volume is 0.5; the render is 16-bit.
        var worst: Float = 0, worstFrame = 0
        for f in render.left.indices {
            let source = f % frames
            let d = max(abs(render.left[f] - 0.5 * loop[2 * source]), abs(render.right[f] - 0.5 * loop[2 * source + 1]))
            if d > worst { (worst, worstFrame) = (d, f) }
        }
        #expect(worst <= 2.0 / 32_768, "the render differs from the loop played end to end by \(worst) at frame \(worstFrame)")
        // So no 10 ms of it is quieter than the loop's own quietest 10 ms (at -6 dB).
        func quietest(_ samples: [Float]) -> Double {
            stride(from: 0, to: samples.count - 480, by: 480).map { Measure.dB(Array(samples[$0..<($0 + 480)])) }.min() ?? -200
        }
        let own = quietest(stride(from: 0, to: loop.count, by: 2).map { loop[$0] })
        #expect(quietest(render.left) > own - 6.03 - 0.1, "quietest 10 ms \(quietest(render.left)) dB; the loop's own \(own) dB")
    }

    @Test("a recorded groove loops: each hit comes back on its frame every loop, as voices the status line counts")
    func grooveLoops() throws {
        let folder = try TemporaryFolder()
        // Recorded from 0.5 s to 1.5 s: the snare at once, the bass 0.25 s later; a 1 s loop.
        let render = try Self.render("0 p\n0.5 g\n0.5 1\n0.75 2\n1.5 g\nend 3.6\n", in: folder)
        let rig = try LoopbackRig()
        let snare = try AudioBuffer(context: rig.context, contentsOf: Assets.drums.appendingPathComponent("snare.wav")).floatSamples()
        let bass = try AudioBuffer(context: rig.context, contentsOf: Assets.drums.appendingPathComponent("bass.wav")).floatSamples()
        // The bangs at 0.5 and 0.75 s, then the loop from 1.5 s: snare at 1.5, 2.5, 3.5 s and
        // bass at 1.75, 2.75 s. The snare is front left, the bass front right.
        for at in [0.5, 1.5, 2.5, 3.5] {
            #expect(Self.bestLag(render.left, snare, at: Int((at * 48_000).rounded())) == 0, "snare at \(at) s")
        }
        for at in [0.75, 1.75, 2.75] {
            #expect(Self.bestLag(render.right, bass, at: Int((at * 48_000).rounded())) == 0, "bass at \(at) s")
        }
        // Between loop passes the kit is silent: the loop adds nothing of its own.
        #expect(Measure.dB(Array(render.left[Int(1.26 * 48_000)..<Int(1.49 * 48_000)])) < -100)
        // At 3.6 s the third pass's snare (0.25 s from 3.5 s) still plays, as one real voice.
        #expect(render.screen.lines.contains { $0.hasPrefix("voices  1 real, 0 virtual") }, "\(render.screen.lines.suffix(4))")
        #expect(render.screen.lines.contains { $0.contains("groove: looping 2 hits / 1.0 s") })
    }

    @Test("r puts a room reverb on the drums (a tail after the snare ends); h turns HRTF on (the far ear hears the snare later)")
    func reverbAndHRTF() throws {
        let folder = try TemporaryFolder()
        let dry = try Self.render("0 p\n0.5 1\nend 1.5\n", in: folder, name: "dry")
        let room = try Self.render("0 p\n0 r\n0 r\n0 r\n0.5 1\nend 1.5\n", in: folder, name: "room")
        let hrtf = try Self.render("0 p\n0 h\n0.5 1\nend 1.5\n", in: folder, name: "hrtf")
        // The snare is 0.25 s long: from 0.8 s on, only a reverb's tail is left.
        let tail = { (r: [Float]) in Measure.dB(Array(r[Int(0.8 * 48_000)..<Int(1.3 * 48_000)])) }
        print("drumdub r: after the snare, dry \(tail(dry.left)) dB, stone room \(tail(room.left)) dB")
        #expect(tail(dry.left) < -100 && tail(room.left) > -60, "dry \(tail(dry.left)) dB, stone room \(tail(room.left)) dB")
        #expect(room.screen.lines.contains { $0.contains("reverb stone room, HRTF disabled") })
        #expect(hrtf.screen.lines.contains { $0.contains("HRTF enabled") }, "\(hrtf.screen.lines.joined(separator: "\n"))")
        // Nothing before the snare: the music paused at 0, before the mixer took it up (on
        // OpenAL Soft 1.23.1 with HRTF that played as a burst of 1,000 frames, peak 0.16,
        // until a player's pause set its gain to 0 first).
        let before = Array(hrtf.left[..<Int(0.45 * 48_000)]) + Array(hrtf.right[..<Int(0.45 * 48_000)])
        #expect(before.map(abs).max() ?? 0 < 1e-4, "before the snare: peak \(before.map(abs).max() ?? 0)")
        let left = try #require(Measure.onset(hrtf.left, threshold: 1e-3))
        let right = try #require(Measure.onset(hrtf.right, threshold: 1e-3))
        print("drumdub h: the snare reaches the right ear \(right - left) frames after the left")
        // Front left at 45 degrees: the left ear first, by the interaural delay (about 0.3 to
        // 0.6 ms). The level difference of this broadband sound is small under HRTF, so the
        // delay is what is checked.
        #expect(right - left >= 10 && right - left <= 40, "interaural delay under HRTF: \(right - left) frames")
    }

    @Test("the demo groove scripts/demo.sh renders is a script the game takes: all 12.5 s of it, heard")
    func demoGroove() throws {
        let groove = try String(contentsOf: Assets.folder.appendingPathComponent("grooves/demo.txt"), encoding: .utf8)
        let render = try Self.render(groove, in: try TemporaryFolder(), name: "demo")
        #expect(render.left.count == 12 * 48_000 + 24_000, "\(render.left.count) frames")
        #expect(Measure.dB(render.left) > -40 && Measure.dB(render.right) > -40)
    }

    @Test("a bad script is refused naming its line, and --help lists the keys")
    func badScripts() throws {
        let demo = try #require(ToolRunner.product("drumdub"))
        let folder = try TemporaryFolder()
        for (script, reason) in [("0.5 1\n0.7 x\n", "line 2"), ("1.0 1\n0.5 2\n", "must not go back"), ("0 ctrl-z\n", "suspends"), ("1 snare\nend 0.5\n", "after the end")] {
            let file = folder.file("bad.txt")
            try Data(script.utf8).write(to: file)
            let run = try ToolRunner.run(demo, ["--script", file.path, "--render", folder.file("bad.wav").path, "--assets", Assets.folder.path])
            #expect(run.status == 1 && run.stderr.contains(reason) && run.stderr.contains("bad.txt"), "\(script): \(run.status) \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("bad.wav").path))
        }
        let help = try ToolRunner.run(demo, ["--help"])
        #expect(help.status == 0 && help.stdout.contains("Ctrl-Z") && help.stdout.contains("--script FILE"))
        let noTerminal = try ToolRunner.run(demo, ["--assets", Assets.folder.path])
        #expect(noTerminal.status == 4 && noTerminal.stderr.contains("needs a terminal"), "\(noTerminal.stderr)")
    }
}
