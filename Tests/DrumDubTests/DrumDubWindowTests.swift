import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// drumdub in its window (`--window`, SDL2) on an X server of the test's own (Xvfb), driven
/// with xdotool, looked at with screenshots (by pixel colour, not by eye) and heard at a
/// private sound server's sink monitor. Timing tests (``RecordingRig/timingEnabled``), never
/// in one process with the terminal game's; they hold beside a busy loop on every core (CI
/// runs them beside the live tests on PipeWire).
@Suite("DrumDub in a window, seen on a virtual display and heard at the sound server", .serialized, .enabled(if: RecordingRig.timingEnabled))
struct DrumDubWindowTests {
    /// The snare's colour lit (struck: its square on the map, and its meter), and the bass's
    /// square at rest (WindowView's colours).
    static let snareLit: (UInt8, UInt8, UInt8) = (255, 70, 70)
    static let bassAtRest: (UInt8, UInt8, UInt8) = (40, 70, 160)

    /// The share of a mono recording's energy over 100 ms from `frame` that is above 2 kHz:
    /// the snare's and the tambourine's noise is high, the bass drum's thump low.
    static func highShare(_ samples: [Float], at frame: Int) -> Double {
        let window = Array(samples[frame..<min(samples.count, frame + 4_800)])
        // A first difference is a high-pass (+6 dB an octave): the share of its energy
        // against the plain signal's tells high from low.
        let total = window.reduce(0) { $0 + Double($1 * $1) }
        let edges = zip(window.dropFirst(), window).reduce(0) { $0 + Double(($1.0 - $1.1) * ($1.0 - $1.1)) }
        return total > 0 ? edges / total : 0
    }

    /// The first frame from `from` on louder than -40 dBFS.
    static func onset(_ samples: [Float], from: Int) -> Int? {
        (from..<samples.count).first { abs(samples[$0]) > 0.01 }
    }

    /// What `recording` (mono) heard after `input` was sent: its samples half a second on, the
    /// frame it stood at when the input was sent, and the first frame after it louder than
    /// -40 dBFS (the onset of what the input set off).
    static func heard(in recording: ChildProcess, after input: () throws -> Void) throws -> (samples: [Float], sent: Int, onset: Int) {
        let sent = recording.frames()
        try input()
        #expect(recording.waitForFrames(sent + 24_000), "half a second recorded after the input")
        let samples = recording.samples
        let found = try #require(onset(samples, from: sent), "no sound at the sink after the input")
        return (samples, sent, found)
    }

    /// drumdub in its window with `arguments`, on a display and a sound server (one sink,
    /// `game`) of its own; stopped, all three, when the rig goes.
    final class Rig {
        let display: VirtualDisplay
        let pulse: PrivatePulse
        let game: ChildProcess
        /// The game's window id, once it is shown.
        let window: String

        init(_ arguments: [String], server: PrivatePulse.Kind = .pulseaudio) throws {
            try #require(VirtualDisplay.isInstalled, "Xvfb, xdotool and ImageMagick are not installed (scripts/lib.sh installs them)")
            try #require(server.isInstalled, "\(server) is not installed")
            display = try VirtualDisplay()
            pulse = try PrivatePulse(server)
            try pulse.addDefaultSink("game")
            let demo = try #require(ToolRunner.product("drumdub"), "drumdub is built beside the tests")
            var environment = pulse.environment.merging(display.environment) { $1 }
            environment["ALSOFT_DRIVERS"] = "pulse"
            game = try ChildProcess(demo, ["--window", "--assets", Assets.folder.path] + arguments, environment: environment)
            window = try display.window(named: "drumdub") ?? ""
            // Thrown once the rig is whole: its deinit stops what it started.
            guard !window.isEmpty else { throw PulseError("no drumdub window on \(display.name): \(game.lines); game \(game.ending); \(display.diagnosis(named: "drumdub"))") }
            try display.xdotool(["windowfocus", "--sync", window])
        }

        /// Presses `key` in the game's window (xdotool's key names: "1", "p", "Escape").
        func key(_ key: String) throws {
            try display.xdotool(["key", "--window", window, key])
        }

        /// The game's streams on the server.
        func streams() throws -> Int {
            try pulse.pactl(["list", "short", "sink-inputs"]).stdout.split(separator: "\n").count
        }

        /// Waits up to 5 s for the game to end; how it ended (ChildProcess.ending).
        func ending() -> String {
            let deadline = ContinuousClock.now + .seconds(5)
            while game.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return game.ending
        }

        deinit {
            if game.isRunning { game.signal(SIGKILL) }
            pulse.stop()
            display.stop()
        }
    }

    @Test("the window opens at its size; key 1 and a click on the bass are heard at the sink after the input, each drum by its spectrum; the snare lights up on screen; q closes it, exit 0 (PulseAudio and PipeWire)",
          arguments: [PrivatePulse.Kind.pulseaudio, .pipewire])
    func window(server: PrivatePulse.Kind) throws {
        let rig = try Rig(["--size", "960x600"], server: server)
        let (display, pulse, game, window) = (rig.display, rig.pulse, rig.game, rig.window)
        #expect(game.waitForLine(containing: "the game is in its window") != nil, "\(game.lines)")
        let size = try #require(try display.size(of: window), """
            no geometry for window \(window): xdotool said \(String(describing: try? display.xdotool(["getwindowgeometry", window])));             game \(game.isRunning ? "running" : game.ending): \(game.lines); \(display.diagnosis(named: "drumdub"))
            """)
        #expect(size.width == 960 && size.height == 600, "the window is \(size.width) x \(size.height)")

        // The music paused (p), so that what the sink hears next is a drum.
        try rig.key("p")
        let recording = try pulse.record("game", latencyMilliseconds: 5)
        defer { recording.stop() }
        Thread.sleep(forTimeInterval: 1.0)
        let quiet = try display.screenshot()
        #expect(quiet.find(red: Self.snareLit.0, green: Self.snareLit.1, blue: Self.snareLit.2).count == 0, "the snare is lit before it is struck")

        // Key 1: the snare, at the sink after the key, high in its spectrum, and lit on screen.
        var lit = 0
        let snare = try Self.heard(in: recording) {
            try rig.key("1")
            Thread.sleep(forTimeInterval: 0.06)
            lit = try display.screenshot().find(red: Self.snareLit.0, green: Self.snareLit.1, blue: Self.snareLit.2).count
        }
        #expect(lit > 200, "the snare's square and meter lit: \(lit) pixels of its colour")
        let snareHigh = Self.highShare(snare.samples, at: snare.onset)
        print("drumdub window on \(server): key 1 heard \(Double(snare.onset - snare.sent) / 48) ms after the key was sent; high share \(snareHigh)")

        // A click on the bass drum's square (found by its colour): the bass, low in its spectrum.
        Thread.sleep(forTimeInterval: 0.8)
        let bass = try #require(quiet.find(red: Self.bassAtRest.0, green: Self.bassAtRest.1, blue: Self.bassAtRest.2).centre, "no bass drum on screen")
        let thump = try Self.heard(in: recording) { try display.xdotool(["mousemove", "\(bass.x)", "\(bass.y)", "click", "1"]) }
        let bassHigh = Self.highShare(thump.samples, at: thump.onset)
        print("drumdub window on \(server): the click heard \(Double(thump.onset - thump.sent) / 48) ms after it was sent; high share \(bassHigh)")
        #expect(snareHigh > 4 * bassHigh, "the snare (key 1) is higher in its spectrum than the bass (the click): \(snareHigh) against \(bassHigh)")

        // q: the window closes and the game ends cleanly.
        try rig.key("q")
        #expect(game.waitForLine(containing: "drumdub: bye") != nil, "\(game.lines)")
        #expect(rig.ending() == "exit 0", "\(game.ending)")
        #expect(try display.window(named: "drumdub", seconds: 0.5) == nil, "the window is gone")
    }

    @Test("focus lost to another window: the music 12 dB softer at the sink (--focus duck) or silent (pause); focus back: as before",
          arguments: ["duck", "pause"])
    func focus(policy: String) throws {
        let rig = try Rig(["--focus", policy])
        let (display, pulse, game, window) = (rig.display, rig.pulse, rig.game, rig.window)
        // Another window to take the focus: ImageMagick's display, showing a screenshot.
        let folder = try TemporaryFolder()
        let picture = folder.file("other.png")
        #expect(try ToolRunner.run(try #require(ToolRunner.which("convert")), ["-size", "200x100", "xc:gray", picture.path]).status == 0)
        let other = try ChildProcess(try #require(ToolRunner.which("display")), ["-title", "other", "-geometry", "+0+0", picture.path], environment: display.environment)
        defer { other.signal(SIGKILL) }
        let otherWindow = try #require(try display.window(named: "other"), "no second window")
        let recording = try pulse.record("game", latencyMilliseconds: 5)
        defer { recording.stop() }
        func level(seconds: Double) -> Double {
            let from = recording.frames()
            _ = recording.waitForFrames(from + Int(seconds * 48_000))
            return Measure.dB(Array(recording.samples[from...]))
        }
        Thread.sleep(forTimeInterval: 1)
        let front = level(seconds: 1)
        try display.xdotool(["windowfocus", "--sync", otherWindow])
        Thread.sleep(forTimeInterval: 0.5)   // the fade (0.2 s) and the output's latency
        let back = level(seconds: 1)
        try display.xdotool(["windowfocus", "--sync", window])
        Thread.sleep(forTimeInterval: 0.5)
        let again = level(seconds: 1)
        print("drumdub window, --focus \(policy): music \(front) dB in front, \(back) dB behind, \(again) dB in front again")
        if policy == "duck" {
            #expect(abs((front - back) - 12) < 1.5, "ducked by \(front - back) dB, not 12")
        } else {
            #expect(back < -80, "paused: \(back) dB behind")
        }
        #expect(abs(again - front) < 1.5, "in front again: \(again) dB against \(front)")
        try rig.key("Escape")
        #expect(game.waitForLine(containing: "drumdub: bye") != nil, "\(game.lines)")
    }

    @Test("no display: --window says so, names the terminal game, and exits 5")
    func noDisplay() throws {
        let said = try Self.windowRefused(display: nil)
        #expect(said.contains("no display"), "\(said)")
    }

    /// SDL2 left to itself opened its offscreen driver here, and the game played with no window.
    @Test("a display named but not served: --window asks it three times, says which and why, and exits 5 (no window off screen)")
    func displayNotServed() throws {
        let number = try #require((300..<400).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
                                                    && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let said = try Self.windowRefused(display: ":\(number)")
        #expect(said.components(separatedBy: "drumdub: the display :\(number) did not open").count == 3, "asked twice again, each said: \(said)")
        #expect(said.contains("no display for a window: the display :\(number) did not open"), "\(said)")
    }

    /// Runs `drumdub --window` with `display` as DISPLAY and no Wayland; expects exit 5 and the
    /// terminal game named; returns what it said on stderr.
    static func windowRefused(display: String?) throws -> String {
        let demo = try #require(ToolRunner.product("drumdub"), "drumdub is built beside the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["WAYLAND_DISPLAY"] = nil
        environment["SDL_VIDEODRIVER"] = nil
        let process = Process()
        process.executableURL = demo
        process.arguments = ["--window"]
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 5, "\(said)")
        #expect(said.contains("the terminal game needs none: drumdub"), "\(said)")
        return said
    }
}
