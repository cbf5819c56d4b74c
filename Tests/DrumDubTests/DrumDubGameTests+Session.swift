import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

extension DrumDubGameTests {
    @Test("a call (paplay with media.role=phone on another sink): the game says so, silence at its sink; the call's end brings the music back; Ctrl-C gives the terminal back")
    func phoneCall() throws {
        let game = try DrumDubGame(sinks: ["game", "phone"])
        defer { game.stop() }
        let recording = try game.pulse.record("game", latencyMilliseconds: 5)
        defer { recording.stop() }
        #expect(DrumDubGame.waitForSound(recording), "the music reaches the sink")
        Thread.sleep(forTimeInterval: 0.5)   // the scenario: the music plays half a second before the call
        let call = game.folder.file("call.wav")
        try RecordingRig.tone(call, frequency: 700, seconds: 1.5)
        let paplay = try ChildProcess(try #require(ToolRunner.which("paplay")), ["--device=phone", "--property=media.role=phone", call.path], environment: game.pulse.environment)
        defer { paplay.stop() }
        #expect(game.terminal.waitFor("INTERRUPTED by a call"), "\(game.terminal.screen)")
        #expect(game.terminal.screen.contains("music  waiting"))
        #expect(game.terminal.waitFor("interruption over: session active again, music playing on"), "\(game.terminal.screen)")
        #expect(game.screen.lines.contains { $0.hasPrefix("session active") && !$0.contains("INTERRUPTED") })
        #expect(DrumDubGame.waitForSound(recording), "the music is back at the sink")
        recording.waitForFrames(recording.frames() + 24_000)   // the 0.5 s measured after it
        let samples = recording.samples
        let gap = DrumDubGame.longestSilence(samples)
        print("drumdub call: \(Double(gap.length) / 48_000) s of silence at the game's sink during a 1.5 s call")
        #expect(gap.length > 48_000, "silence during the call: \(Double(gap.length) / 48_000) s")
        #expect(Measure.dB(Array(samples.suffix(24_000))) > -40, "the music is back after the call")

        try game.press("C-c")
        #expect(game.terminal.waitFor("drumdub: bye"))
        #expect(game.terminalRestored, "stty -g after the game differs from before")
    }

    @Test("the game's output removed (sink unloaded): everything pauses and the screen shows the new route; p plays the music there")
    func outputLost() throws {
        let game = try DrumDubGame(sinks: ["first:First", "second:Second"])
        defer { game.stop() }
        try game.pulse.waitUntilPlaying("first")   // the game's stream runs on the sink about to go
        let modules = try game.pulse.pactl(["list", "short", "modules"]).stdout
        let first = try #require(modules.split(separator: "\n").first { $0.contains("sink_name=first") }?.split(separator: "\t").first)
        let recording = try game.pulse.record("second", latencyMilliseconds: 5)
        defer { recording.stop() }
        try game.pulse.pactl(["unload-module", String(first)])
        #expect(game.terminal.waitFor("went away: everything paused"), "\(game.terminal.screen)")
        #expect(game.terminal.screen.contains("oldDeviceUnavailable: 'Second'"), "\(game.terminal.screen)")
        #expect(game.terminal.screen.contains("music  paused"))
        #expect(game.terminal.screen.contains("output  'Second'"))
        // OpenAL Soft's complaint about the lost stream went to the log, not over the screen.
        #expect(!game.terminal.screen.contains("AL lib"), "\(game.terminal.screen)")
        // Half a second recorded on the new output after the screen showed the route change.
        recording.waitForFrames(recording.frames() + 24_000)
        #expect(Measure.dB(Array(recording.samples.suffix(24_000))) < -80, "nothing plays on the new output until asked")
        try game.press("p")
        #expect(DrumDubGame.waitForSound(recording), "p plays the music on the new output")
    }

    @Test("a terminal made smaller than 80 x 24 is asked to grow, and the game comes back whole when it does")
    func resized() throws {
        let game = try DrumDubGame()
        defer { game.stop() }
        try game.terminal.resize(columns: 60, rows: 20)
        #expect(game.terminal.waitFor("drumdub needs 80 x 24; this terminal is 60 x 20"), "\(game.terminal.screen)")
        try game.terminal.resize(columns: 80, rows: 24)
        #expect(game.terminal.waitFor("levels (dBFS)"), "\(game.terminal.screen)")
        #expect(game.screen.cell(of: ["S"]) != nil && game.screen.cell(of: ["^"]) != nil)
        // The key that simulates an interruption, and its end.
        try game.press("i")
        #expect(game.terminal.waitFor("INTERRUPTED by the game's own interruption"), "\(game.terminal.screen)")
        #expect(game.terminal.screen.contains("session active, playback, INTERRUPTED (app)"))
        try game.press("i")
        #expect(game.terminal.waitFor("interruption over: session active again, music playing on"), "\(game.terminal.screen)")
    }

    @Test("with no system bus the welcome hint stays and the notice goes beside the session; the map numbers the drums; S bangs nothing, s walks back")
    func noticesAndKeys() throws {
        let game = try DrumDubGame(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        defer { game.stop() }
        #expect(game.terminal.waitFor("system sleep not watched"), "\(game.terminal.screen)")
        let lines = game.terminal.screen.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("session active") && $0.contains("| system sleep not watched: no system bus") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("welcome: bang the drums with 1-4") }, "the hint is kept: \(lines)")
        for label in ["1:snare", "2:bass", "3:tambourine", "4:maraca"] {
            #expect(lines.contains { $0.contains(label) }, "\(label) on the map: \(lines)")
        }
        #expect(lines.contains { $0.contains("1 2 3 4  bang a drum") }, "\(lines)")
        // The snare's initial is no key (its meter stays dark); s steps back, w forward.
        try game.press("S")
        // The scenario: 0.3 s for a snare to show, were one struck (a hit lights its meter within
        // a mixer period and a redraw, 10 ms each).
        Thread.sleep(forTimeInterval: 0.3)
        #expect(game.screen.meterCells("1 snare") == 0, "\(game.terminal.screen)")
        try game.press("s")
        #expect(game.terminal.waitFor("you at 0.0, 0.5 m"), "\(game.terminal.screen)")
        try game.press("w")
        #expect(game.terminal.waitFor("you at 0.0, 0.0 m"), "\(game.terminal.screen)")
    }

    @Test("no output device: the game says so and how to render instead, exit status 3, the terminal untouched")
    func noOutputDevice() throws {
        let terminal = try Terminal(columns: 80, rows: 24)
        defer { terminal.close() }
        let folder = try TemporaryFolder()
        let demo = try #require(ToolRunner.product("drumdub"))
        try terminal.run("stty -g > \(folder.file("before").path); ALSOFT_DRIVERS=pulse PULSE_SERVER=unix:/nonexistent \(demo.path) --assets \(Assets.folder.path); echo status $?; stty -g > \(folder.file("after").path)")
        #expect(terminal.waitFor("status 3"), "\(terminal.screen)")
        let screen = terminal.screen.replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("drumdub: no output device here") && screen.contains("the game instead: drumdub --script assets/grooves/demo.txt"), "\(terminal.screen)")
        Poll.until(seconds: 5) { ((try? Data(contentsOf: folder.file("after")))?.count ?? 0) > 0 }
        #expect(try String(contentsOf: folder.file("before"), encoding: .utf8) == String(contentsOf: folder.file("after"), encoding: .utf8))
    }

    @Test("Ctrl-Z under a wrapper shell (as scripts/demo.sh runs it): the whole job stops, the prompt comes back, fg resumes the game")
    func suspendUnderAWrapper() throws {
        let game = try DrumDubGame(wrapped: true)
        defer { game.stop() }
        try game.press("C-z")
        #expect(game.terminal.waitFor("Stopped"), "\(game.terminal.screen)")
        try game.terminal.run("fg")
        #expect(game.terminal.waitFor("interruption over"), "\(game.terminal.screen)")
        try game.press("q")
        #expect(game.terminal.waitFor("wrapper done"))
    }

    @Test("stopped from outside (kill -TSTP) and continued: the game takes its keys again at once (raw mode back)")
    func stoppedFromOutside() throws {
        let game = try DrumDubGame()
        defer { game.stop() }
        let pgrep = try #require(ToolRunner.which("pgrep"))
        let pid = try #require(Int32(try ToolRunner.run(pgrep, ["-n", "-x", "drumdub"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTSTP)
        #expect(game.terminal.waitFor("Stopped"), "\(game.terminal.screen)")
        try game.terminal.run("fg")
        #expect(game.terminal.waitFor("interruption over"), "\(game.terminal.screen)")
        try game.press("p")
        #expect(game.terminal.waitFor("music  paused", seconds: 3), "one key, no Enter: \(game.terminal.screen)")
        try game.press("q")
        #expect(game.terminal.waitFor("drumdub: bye"))
    }
}
