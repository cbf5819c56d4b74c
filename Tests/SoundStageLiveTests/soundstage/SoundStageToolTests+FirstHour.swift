import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// What a new user meets first with the tool: `play` heard to its end and in the session,
/// every input checked before a device opens (and every device closed on every path), and
/// files written in the format their name asks for.
@Suite("soundstage, a new user's first hour: play to the end, checks before devices, formats by name", .serialized,
       .enabled(if: AudioSessionServerTests.enabled, "PulseAudio is not installed"))
struct SoundStageToolFirstHourTests {
    static let rate = 44_100

    /// A private server with one sink kept running (so its monitor keeps pace with the wall
    /// clock) and recorded, and the sequence signal's first `frames` frames as a WAV file.
    struct Rig {
        let pulse: PrivatePulse
        let keeper: ChildProcess
        let recorder: ChildProcess
        let folder: TemporaryFolder
        let file: URL
        let locator = SequenceLocator()

        init(frames: Int) throws {
            pulse = try PrivatePulse()
            let made = try pulse.pactl(["load-module", "module-null-sink", "sink_name=out", "rate=\(SoundStageToolFirstHourTests.rate)"])
            try #require(made.status == 0, "\(made.stderr)")
            try pulse.pactl(["set-default-sink", "out"])
            keeper = try pulse.keepRunning("out")
            recorder = try pulse.recordPinned("out", rate: SoundStageToolFirstHourTests.rate)
            folder = try TemporaryFolder()
            file = folder.file("sequence.wav")
            try locator.wav(rate: SoundStageToolFirstHourTests.rate, frames: 0..<frames).write(to: file)
        }

        /// `soundstage ARGS` on this server.
        func tool(_ arguments: [String]) throws -> ChildProcess {
            var env = pulse.environment
            env["ALSOFT_DRIVERS"] = "pulse"
            return try ChildProcess(try #require(ToolRunner.soundstage), arguments, environment: env)
        }

        /// The stretches of the signal the sink played, once the recording has `seconds` more
        /// (the server's buffer behind the last frame the tool wrote).
        func heard(after seconds: Double) async throws -> [SequenceLocator.Stretch] {
            let wanted = recorder.frames() + Int(seconds * Double(SoundStageToolFirstHourTests.rate))
            _ = try await Poll.suspending(seconds: 15) { recorder.frames() >= wanted }
            recorder.stop()
            return locator.stretches(in: recorder.samples)
        }

        func stop() {
            recorder.stop()
            keeper.stop()
            pulse.stop()
        }
    }

    @Test("play is heard to its last frame, then exits 0: a 0.25 s sound and a 2 s one, every frame at the sink")
    func playsToTheEnd() async throws {
        for frames in [11_025, 88_200] {
            let rig = try Rig(frames: frames)
            defer { rig.stop() }
            let child = try rig.tool(["play", rig.file.path])
            _ = try await Poll.suspending(seconds: 15) { !child.isRunning }
            #expect(child.ending == "exit 0", "\(child.ending): \(child.lines)")
            let heard = try await rig.heard(after: 0.5)
            // In one run, a break of silence (an underrun on a loaded machine) aside.
            let runs = SequenceLocator.runs(heard)
            #expect(runs.count == 1 && runs.first?.position == 0 && runs.first?.frames == frames, "every one of the \(frames) frames heard, in order: \(runs)")
        }
    }

    /// Blocking, not suspending: the Ctrl-Z must come while the sound plays, and a suspended
    /// test resumes only when a test-pool thread is free (in CI the sleeps below came back
    /// seconds late beside blocking suites, after the tool had finished: the shell took the
    /// Ctrl-Z, and the test failed as if Ctrl-Z did nothing).
    @Test("play through Ctrl-Z and fg in a terminal: it pauses and goes on where it was, nothing skipped")
    func suspended() throws {
        let frames = 4 * Self.rate
        let rig = try Rig(frames: frames)
        defer { rig.stop() }
        let terminal = try Terminal()
        defer { terminal.close() }
        let env = rig.pulse.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        try terminal.run("\(env) ALSOFT_DRIVERS=pulse \(try #require(ToolRunner.soundstage).path) play \(rig.file.path)")
        // Ctrl-Z once the sound is heard (the tool may take a while to start, and a Ctrl-Z
        // typed before it runs goes to the shell), then a second of it.
        #expect(Poll.until(seconds: 15) { !rig.recorder.samples.suffix(4_410).allSatisfy { abs($0) < 1e-4 } }, "the sound is heard")
        rig.recorder.waitForFrames(rig.recorder.frames() + Self.rate)
        try terminal.send("C-z")
        #expect(terminal.waitFor("Stopped"), "\(terminal.screen)")
        Thread.sleep(forTimeInterval: 1.5)   // the scenario: stopped 1.5 s
        try terminal.run("fg")
        #expect(terminal.waitFor("done (4.00 s)", seconds: 15), "\(terminal.screen.split(separator: "\n").suffix(12).joined(separator: "\n"))")
        rig.recorder.waitForFrames(rig.recorder.frames() + Self.rate / 2)   // the server's buffer behind the last frame
        rig.recorder.stop()
        let heard = rig.locator.stretches(in: rig.recorder.samples).filter { $0.end - $0.start > 100 }
        // Every frame once, in order: the runs follow one another in the signal.
        #expect(heard.reduce(0) { $0 + $1.end - $1.start } == frames, "\(heard)")
        for (a, b) in zip(heard, heard.dropFirst()) {
            #expect(b.position == a.endPosition, "went on at \(b.position) after \(a.endPosition): \(heard)")
        }
        #expect(heard.count >= 2, "a pause between: \(heard)")
    }

    @Test("bad input is refused before any device opens, with no OpenAL device left open and no engine started")
    func checksFirst() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let cases: [([String], String)] = [
            (["play", folder.file("nope.wav").path], "no such file"),
            (["play", folder.url.path], "is a directory"),
            (["play", Assets.drums.appendingPathComponent("snare.wav").path, "--gain", "-1"], "--gain must be at least 0, got -1"),
            (["session", "--tone", "0"], "--tone takes 1...20000 Hz, got 0"),
            (["session", "--file", folder.file("nope.wav").path], "no such file"),
            (["render", folder.file("nope.json").path, "-o", folder.file("out.wav").path], "nope.json: $: cannot read the scene: no such file"),
            (["convert", Assets.drums.appendingPathComponent("snare.wav").path, "-o", folder.file("out.mp4").path], "name it .wav, .caf or .ogg"),
        ]
        for (arguments, message) in cases {
            let out = try ToolRunner.run(tool, arguments, environment: ["ALSOFT_DRIVERS": "null"])
            #expect(out.status != 0, "\(arguments)")
            #expect(out.stderr.lowercased().contains(message.lowercased()), "\(arguments): \(out.stderr)")
            #expect(!out.stderr.contains("alc_cleanup") && !out.stderr.contains("AL lib"), "\(arguments): \(out.stderr)")
            #expect(!out.stdout.contains("engine on"), "\(arguments): no engine before the check: \(out.stdout)")
        }
    }

    @Test("convert and render write the format the output's name asks for: WAV, CAF, Ogg Vorbis", arguments: ["wav", "caf", "ogg"])
    func formatsByName(ext: String) throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let snare = Assets.drums.appendingPathComponent("snare.wav")
        let converted = folder.file("snare.\(ext)")
        let out = try ToolRunner.run(tool, ["convert", snare.path, "-o", converted.path])
        #expect(out.status == 0, "\(out.stderr)")
        let file = try SoundFile.decode(contentsOf: converted)
        let expected: SoundFile.Container = ext == "wav" ? .wav : ext == "caf" ? .caf : .ogg
        #expect(file.container == expected, "\(converted.lastPathComponent) is \(file.container)")
        #expect(abs(file.frameCount - (try SoundFile.decode(contentsOf: snare)).frameCount) <= (ext == "ogg" ? 2_048 : 0))
        let scene = folder.file("scene.json")
        try Data(#"{"duration": 0.3, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 1}}]}"#.utf8).write(to: scene)
        let rendered = folder.file("scene.\(ext)")
        let render = try ToolRunner.run(tool, ["render", scene.path, "-o", rendered.path])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try SoundFile.decode(contentsOf: rendered).container == expected)
    }
}
