import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The session against a real PulseAudio server of the test's own, with `soundstage session`
/// as the game: a child process, so that the server can be changed, killed and restarted,
/// and OpenAL Soft configured, without touching this process.
@Suite("AudioSession on a real sound server: lost sinks, a server that dies and returns", .serialized)
struct AudioSessionServerTests {
    static var enabled: Bool { PulseServer.expected || ToolRunner.which("pulseaudio") != nil }

    /// The 440 Hz level in dB of the last `seconds` of a monitor recording (-160 if empty).
    ///
    /// What the tests assert of it, derived: the tones (``toneFile(_:seconds:)``, the tool's
    /// `--tone`) are full-scale sines, -3 dBFS RMS, and reach the sink at -3 to -9 dB (the
    /// player's and the bus's gains); silence measures under -100 dB. "> -30 dB" is a presence
    /// test with 20 dB of room: it holds with the tone in a tenth of the window (a late start,
    /// a dropout), and fails for any window without it. The frequency is an FFT of 32,768
    /// samples, 1.46 Hz a bin, interpolated to a tenth of one: "within 5 Hz" is three bins,
    /// room for the spread a dropout in the window makes, and a tone of another pitch (a
    /// wrong rate: 404 or 479 Hz) fails it.
    static func toneLevel(_ samples: [Float], lastSeconds seconds: Double) -> (dB: Double, hz: Double) {
        let tail = Array(samples.suffix(Int(seconds * 48_000)))
        guard tail.count > 4_800 else { return (-160, 0) }
        return (Measure.dB(tail), Measure.peakFrequency(tail, sampleRate: 48_000))
    }

    @Test("the sink in use unloaded mid-play: music pauses, an effect moves to the remaining sink and is heard there",
          arguments: PrivatePulse.Kind.allCases)
    func sinkUnloaded(server: PrivatePulse.Kind) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        let first = try pulse.addSink("first")
        _ = try pulse.addSink("second")
        try pulse.pactl(["set-default-sink", "first"])
        let music = try pulse.session(["--tone", "440", "--status-every", "0.1"])
        let effect = try pulse.session(["--tone", "440", "--effect"])
        defer { music.stop(); effect.stop() }
        #expect(music.waitForLine(containing: "playing sine") != nil && effect.waitForLine(containing: "playing sine") != nil)
        try pulse.waitUntilPlaying("first")
        let second = try pulse.record("second")
        defer { second.stop() }
        let unloaded = ContinuousClock.now
        try pulse.pactl(["unload-module", first])   // the server makes `second` the default
        let moved = try #require(effect.waitForLine(containing: "routeChanged(oldDeviceUnavailable"), "\(effect.lines)")
        #expect(moved.at - unloaded < .milliseconds(500))
        #expect(music.waitForLine(containing: "routeChanged(oldDeviceUnavailable") != nil, "\(music.lines)")
        let paused = music.waitForLine(containing: "status: paused")
        #expect(paused != nil, "music pauses when its device goes: \(music.lines.suffix(5))")
        let recorded = second.bytes.count
        second.waitForSamples(seconds: Double(recorded) / 192_000 + 1.5)
        let heard = Self.toneLevel(second.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the effect on the second sink: \(heard)")
    }

    @Test("the server killed and restarted: the engine waits, then plays on the new server", arguments: PrivatePulse.Kind.allCases)
    func serverRestarted(server: PrivatePulse.Kind) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let child = try pulse.session(["--tone", "440", "--effect"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing sine") != nil)
        try pulse.waitUntilPlaying("first")
        try pulse.kill()
        #expect(child.waitForLine(containing: "outputUnavailable") != nil, "\(child.lines)")
        let before = child.lines.count
        try pulse.start()
        _ = try pulse.addSink("first")
        let back = child.waitForLine(containing: "session: routeChanged(mediaServicesWereReset", after: before)
        #expect(back != nil, "\(child.ending): \(child.lines)")
        // Not onto PipeWire's placeholder sink, which it shows for a while as it starts.
        if let back { #expect(!child.lines[back.index].contains("Dummy Output"), "\(child.lines[back.index])") }
        #expect(child.lines.contains { $0.contains("session: mediaServicesWereLost") }, "the session saw the server go")
        #expect(child.waitForLine(containing: "session: mediaServicesWereReset", after: before) != nil, "the session saw it return")
        let monitor = try pulse.record("first")
        defer { monitor.stop() }
        monitor.waitForSamples(seconds: 2)
        let heard = Self.toneLevel(monitor.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the tone on the restarted server: \(heard)")
        #expect(child.isRunning, "\(child.ending)")
    }
}

extension AudioSessionServerTests {
    /// A restarted PipeWire shows its placeholder until a real sink comes, and an open or a
    /// context made as it went failed (an ALC error: the trap killed the game in CI; README,
    /// "a server's placeholder sink"); here the placeholder stays as long as the test wants.
    @Test("the last sink unloaded: no move onto the server's placeholder sink ('Dummy Output'); the engine waits, then plays on the sink that comes",
          arguments: PrivatePulse.Kind.allCases)
    func placeholderSkipped(server: PrivatePulse.Kind) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        // PipeWire's pulse server shows its placeholder itself (module-fallback-sink);
        // PulseAudio does with module-always-sink.
        if server == .pulseaudio { try pulse.pactl(["load-module", "module-always-sink"]) }
        let first = try pulse.addSink("first")
        try pulse.pactl(["set-default-sink", "first"])
        let child = try pulse.session(["--tone", "440", "--effect"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing sine") != nil)
        try pulse.waitUntilPlaying("first")
        try pulse.pactl(["unload-module", first])
        let placeholder = Poll.until(seconds: 5) { (try? pulse.pactl(["list", "short", "sinks"]))?.stdout.contains("auto_null") == true }
        #expect(placeholder, "the server shows its placeholder: \((try? pulse.pactl(["list", "short", "sinks"]))?.stdout ?? "")")
        let waiting = child.waitForLine(containing: "placeholder sink")
        #expect(waiting != nil, "the engine says why it waits: \(child.ending): \(child.lines.suffix(6))")
        // Half a second with the placeholder the only sink: the engine stays off it.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!child.lines.contains { $0.contains("routeChanged") && $0.contains("Dummy Output") }, "\(child.lines.suffix(6))")
        let before = child.lines.count
        _ = try pulse.addSink("second")
        let back = child.waitForLine(containing: "session: routeChanged(", after: before)
        #expect(back != nil, "\(child.ending): \(child.lines.suffix(8))")
        let monitor = try pulse.record("second")
        defer { monitor.stop() }
        monitor.waitForSamples(seconds: 2)
        let heard = Self.toneLevel(monitor.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the tone on the sink that came: \(heard)")
        #expect(child.isRunning, "\(child.ending)")
    }

    @Test("no output left, asked to fall back: the player goes on on the silent output, and back on the server when it returns")
    func silentFallback() throws {
        try #require(Self.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let folder = try TemporaryFolder()
        let child = try pulse.session(["--file", try Self.toneFile(folder).path, "--effect", "--silent-fallback", "--status-every", "0.1"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing tone.wav") != nil)
        try pulse.waitUntilPlaying("first")
        try pulse.kill()
        let silent = try #require(child.waitForLine(containing: "session: routeChanged(oldDeviceUnavailable: 'Null Output' -> '\(AudioEngine.silentOutputName)'"),
                                  "\(child.lines.suffix(8))")
        // The status lines (every 0.1 s) go on after the move: waited for up to 5 s, until
        // 0.8 s of playhead have gone by on the silent output.
        // One snapshot of the lines for both the range and its lines: read twice, a line
        // coming between the reads put the range past the first (an index out of range, seen
        // on a loaded machine once this was polled).
        func during() -> [Double] {
            let lines = child.lines
            return Self.playheads(lines, silent.index..<lines.count, "playing")
        }
        Poll.until(seconds: 5) { let d = during(); return d.count >= 5 && (d.last ?? 0) - (d.first ?? 0) > 0.8 }
        let during = during()
        // Lines every 0.1 s: 5 lines and 0.8 s of playhead are 1 s of the 1.5 s waited at most
        // less a line lost at each end.
        #expect(during.count >= 5 && (during.last ?? 0) - (during.first ?? 0) > 0.8,
                "the playhead moves on while no device is left: \(during)")
        let before = child.lines.count
        try pulse.start()
        _ = try pulse.addSink("first")
        let back = child.waitForLine(containing: "session: routeChanged(", after: before)
        #expect(back != nil, "\(child.lines.suffix(8))")
        if let back { #expect(!child.lines[back.index].contains(AudioEngine.silentOutputName), "\(child.lines[back.index])") }
        let monitor = try pulse.record("first")
        defer { monitor.stop() }
        monitor.waitForSamples(seconds: 2)
        let heard = Self.toneLevel(monitor.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the tone on the returned server: \(heard)")
    }
}

/// Interruptions from the system, seen by `soundstage session` on a private server.
extension AudioSessionServerTests {
    /// A mono 440 Hz WAV of `seconds` (long, so the playhead does not wrap while watched).
    static func toneFile(_ folder: TemporaryFolder, seconds: Double = 20) throws -> URL {
        let url = folder.file("tone.wav")
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono),
                          samples: Tone.samples(frequency: 440, sampleRate: 48_000, seconds: seconds)).wavData(.pcm16).write(to: url)
        return url
    }

    /// The longest run of silence (10 ms blocks under -60 dB) in a recording, in seconds, and
    /// the loudest 10 ms block from 0.1 s after it on (the tone back).
    ///
    /// What the tests assert of it, derived: a gap is counted in whole 10 ms blocks, and its
    /// two edges may each lose a block to a sound that ends or starts inside it, so a silence
    /// of S seconds measures at least S - 0.02; the tests ask for the scenario's silence less
    /// 0.2 s or more, for the server's buffers at the edges (OpenAL Soft keeps 3 updates of
    /// 20 ms ahead: 60 ms a side). "after > -30 dB": the tone back, as in ``toneLevel``.
    static func silentGap(_ samples: [Float]) -> (seconds: Double, after: Double) {
        let block = 480
        let levels = stride(from: 0, to: samples.count - block, by: block).map { Measure.dB(Array(samples[$0..<($0 + block)])) }
        var best = (start: 0, length: 0), run = 0
        for (i, level) in levels.enumerated() {
            run = level < -60 ? run + 1 : 0
            if run > best.length { best = (i - run + 1, run) }
        }
        let after = levels.count > best.start + best.length + 20 ? Array(levels[(best.start + best.length + 10)...]) : []
        return (Double(best.length) * 0.01, after.isEmpty ? -160 : after.max()!)
    }

    /// The playheads of the status lines `lines[range]` that say `state`.
    static func playheads(_ lines: [String], _ range: Range<Int>, _ state: String) -> [Double] {
        lines[range].compactMap { line in
            guard let r = line.range(of: "status: \(state) at ") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != " " })
        }
    }

    /// `caller`: a PulseAudio client (paplay, through pipewire-pulse on PipeWire), or PipeWire's own (pw-cat).
    @Test("a call (paplay with media.role=phone, or pw-cat with Phone on PipeWire): interrupted within 200 ms, silence at the sink, the tone back from where it stopped",
          arguments: [(PrivatePulse.Kind.pulseaudio, "paplay"), (.pipewire, "paplay"), (.pipewire, "pw-cat")])
    func phoneCall(server: PrivatePulse.Kind, caller: String) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let folder = try TemporaryFolder()
        let call = folder.file("call.wav")
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: [Float](repeating: 0, count: 72_000)).wavData(.pcm16).write(to: call)
        let child = try pulse.session(["--file", try Self.toneFile(folder).path, "--status-every", "0.05"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing tone.wav") != nil, "\(child.lines)")
        try pulse.waitUntilPlaying("first")
        let monitor = try pulse.record("first")
        defer { monitor.stop() }
        monitor.waitForSamples(seconds: 0.7)   // the tone heard before the call
        let calling = ContinuousClock.now
        let role = caller == "pw-cat" ? ["--playback", "--media-role", "Phone"] : ["--property=media.role=phone"]
        let calls = try ChildProcess(try #require(ToolRunner.which(caller)), role + [call.path], environment: pulse.environment)
        defer { calls.stop() }
        let began = try #require(child.waitForLine(containing: "session: interruptionBegan(phoneCall)"), "\(child.lines.suffix(5))")
        #expect(began.at - calling < .milliseconds(200), "\(began.at - calling)")
        let ended = try #require(child.waitForLine(containing: "session: interruptionEnded(shouldResume: true)", after: began.index), "\(child.lines.suffix(5))")
        // A status line after the end, and 0.5 s at the sink after it (the level after the
        // silence is read 0.1-0.3 s past its end).
        _ = child.waitForLine(containing: "status: playing", after: ended.index)
        monitor.waitForFrames(monitor.frames() + 24_000)
        let lines = child.lines
        let held = Self.playheads(lines, began.index..<ended.index, "paused")
        let resumed = Self.playheads(lines, ended.index..<lines.count, "playing")
        #expect(!held.isEmpty && Set(held).count == 1, "the playhead holds while interrupted: \(held)")
        if let stopped = held.first, let next = resumed.first {
            print("AudioSessionServerTests call (\(server), \(caller)): stopped at \(stopped) s, first status after the resume at \(next) s")
            // Status lines every 0.05 s: the first after the resume is at most one line (and the
            // interruption's fade-in, 0) on from where it stopped; 0.1 s is two lines.
            #expect(next >= stopped && next - stopped < 0.1, "resumed at \(next) s, stopped at \(stopped) s")
        }
        let gap = Self.silentGap(monitor.samples)
        // The call lasts 1.5 s (72,000 frames) and the music waits for its end: over 1 s of
        // silence (see silentGap) holds with 0.5 s of edges and server buffers.
        #expect(gap.seconds > 1 && gap.after > -30, "silence at the sink during the call: \(gap)")
    }

    /// `switcher`: `pactl set-default-sink`, or on PipeWire `wpctl set-default` (WirePlumber's own).
    @Test("the default sink switched (pactl, or wpctl on PipeWire): the engine follows, and the tone arrives at the new sink's monitor",
          arguments: [(PrivatePulse.Kind.pulseaudio, "pactl"), (.pipewire, "pactl"), (.pipewire, "wpctl")])
    func defaultSwitched(server: PrivatePulse.Kind, switcher: String) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        _ = try pulse.addSink("second")
        try pulse.setDefaultSink("first")
        let child = try pulse.session(["--tone", "440"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing sine") != nil)
        let second = try pulse.record("second")
        defer { second.stop() }
        // The recording is connected before the move (an idle sink's monitor sends nothing to
        // wait for): its stream is listed by the server.
        // (The engine's session records its own stream back too: parec's is the one named so.)
        let connected = Poll.until(seconds: 10) { ((try? pulse.pactl(["list", "source-outputs"]))?.stdout ?? "").contains("\"parec\"") }
        #expect(connected, "the recording of the second sink (parec's source output) is listed")
        // The server's default moves first (asked again where it did not), so that what is
        // left to fail is the engine following it.
        if switcher == "wpctl" {
            try pulse.setDefaultSink("second", byWirePlumber: true)
        } else {
            try pulse.setDefaultSink("second")
        }
        // On PipeWire 0.3.65 a fresh server, about one in 20 to 30, never tells the monitor's
        // own connection of the move (no SERVER event; its get_server_info names the old
        // default for as long as it is asked, while a new connection names the new one): the
        // monitor asks again over a connection of its own after a sink changes
        // (MonitorSession+DefaultCheck). Once marked a known issue here; no longer.
        let moved = child.waitForLine(containing: "session: routeChanged(defaultChanged")
        #expect(moved != nil, "\(child.lines)")
        let recorded = second.bytes.count
        second.waitForSamples(seconds: Double(recorded) / 192_000 + 1.5)
        let heard = Self.toneLevel(second.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the tone on the second sink: \(heard)")
    }

    /// How many fresh PipeWire servers the switch loop runs, each switched five times:
    /// `SOUNDSTAGE_SWITCH_SERVERS`, 10 by default (50 switches); 2 outside the full tier.
    static let switchServers = Int(ProcessInfo.processInfo.environment["SOUNDSTAGE_SWITCH_SERVERS"] ?? "") ?? (TestTier.isFull ? 10 : 2)

    @Test("the default switched by wpctl on PipeWire, five times on each of fresh servers: each switch followed, the session's route change heard and the stream on the new default")
    func defaultSwitchedAgainAndAgain() throws {
        try #require(PrivatePulse.Kind.pipewire.isInstalled, "PipeWire is not installed")
        var followed = 0, switches = 0
        var missed: [String] = []
        for round in 1...Self.switchServers {
            let pulse = try PrivatePulse(.pipewire)
            defer { pulse.stop() }
            _ = try pulse.addSink("first")
            _ = try pulse.addSink("second")
            try pulse.setDefaultSink("first")
            let child = try pulse.session(["--tone", "440"])
            defer { child.stop() }
            #expect(child.waitForLine(containing: "playing sine") != nil, "\(child.lines)")
            var seen = 0
            for turn in 1...5 {
                let target = turn % 2 == 1 ? "second" : "first"
                switches += 1
                try pulse.setDefaultSink(target, byWirePlumber: true)
                let heard = child.waitForLine(containing: "session: routeChanged(defaultChanged", after: seen, seconds: 10)
                if let heard { seen = heard.index + 1 }
                // The stream plays on the new default: the sink its input is on, by the server.
                let sinks = try pulse.pactl(["list", "short", "sinks"]).stdout
                let targetIndex = sinks.split(separator: "\n").first { $0.split(separator: "\t").dropFirst().first == Substring(target) }?
                    .split(separator: "\t").first.map(String.init)
                let onTarget = Poll.until(seconds: 5) {
                    let inputs = (try? pulse.pactl(["list", "short", "sink-inputs"]).stdout) ?? ""
                    return inputs.split(separator: "\n").contains { $0.split(separator: "\t").dropFirst().first.map(String.init) == targetIndex }
                }
                if heard != nil && onTarget {
                    followed += 1
                } else {
                    let said = (try? pulse.defaultSink()) ?? "?"
                    missed.append("server \(round), switch \(turn) to \(target) (the server says \(said)): heard \(heard != nil), on it \(onTarget); the session said \(child.lines.suffix(6))")
                }
            }
        }
        print("defaultSwitchedAgainAndAgain: \(followed) of \(switches) wpctl switches followed on \(Self.switchServers) fresh PipeWire servers")
        #expect(missed.isEmpty, "\(missed)")
    }

    @Test("Ctrl-Z in a terminal: the output is paused before the process stops, silence at the sink, fg resumes it; events in order")
    func suspendedFromTerminal() throws {
        try #require(Self.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let folder = try TemporaryFolder()
        let tone = try Self.toneFile(folder), log = folder.file("session.log")
        let terminal = try Terminal()
        defer { terminal.close() }
        let env = pulse.environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        try terminal.run("env \(env) ALSOFT_DRIVERS=pulse \(try #require(ToolRunner.soundstage).path) session --file \(tone.path) --status-every 0.05 > \(log.path) 2>&1")
        // Read with a file handle: FoundationEssentials' String(contentsOf:) leaks its buffer
        // (LeakSanitizer, scripts/sanitize.sh address) when it reads a file another process
        // is writing, as this log is.
        func logLines() -> [String] {
            let data = FileHandle(forReadingAtPath: log.path).map { handle in defer { try? handle.close() }; return handle.readDataToEndOfFile() } ?? Data()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        func wait(_ text: String, seconds: Double = 10) -> Bool {
            Poll.until(seconds: seconds, every: 0.01) { logLines().contains(where: { $0.contains(text) }) }
        }
        #expect(wait("playing tone.wav"), "\(logLines())")
        try pulse.waitUntilPlaying("first")
        let monitor = try pulse.record("first")
        defer { monitor.stop() }
        monitor.waitForSamples(seconds: 0.7)   // the tone heard before the stop
        try terminal.send("C-z")
        #expect(terminal.waitFor("Stopped", seconds: 2), "the shell reports the job stopped: \(terminal.screen)")
        let linesWhileStopped = logLines().count
        Thread.sleep(forTimeInterval: 1.2)   // stopped this long: 24 status lines would come (0.05 s) if it ran
        #expect(logLines().count == linesWhileStopped, "nothing printed while stopped")
        try terminal.run("fg")
        #expect(wait("session: interruptionEnded(shouldResume: true)"), "\(logLines().suffix(5))")
        // Status lines after the resume, and 0.5 s at the sink after it (the level after the
        // silence is read 0.1-0.3 s past its end).
        Poll.until(seconds: 5) { logLines().suffix(3).contains { $0.contains("status: playing") } }
        monitor.waitForFrames(monitor.frames() + 24_000)
        let lines = logLines()
        let began = lines.firstIndex { $0.contains("session: interruptionBegan(processSuspended)") }
        let ended = lines.firstIndex { $0.contains("session: interruptionEnded(shouldResume: true)") }
        #expect(began != nil && ended != nil && began! < ended!, "\(lines.suffix(8))")
        #expect(lines.suffix(3).contains { $0.contains("status: playing") }, "\(lines.suffix(3))")
        let gap = Self.silentGap(monitor.samples)
        // Stopped 1.2 s at least (the scenario's sleep, plus the stop and fg): 0.8 s of silence
        // holds with 0.4 s of edges and buffers (see silentGap).
        #expect(gap.seconds > 0.8 && gap.after > -30, "silence at the sink while stopped: \(gap)")
    }

    @Test("logind's PrepareForSleep(true) then (false) on a private system bus: began, then ended")
    func systemSleep() throws {
        try #require(Self.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let bus = try PrivateBus()
        defer { bus.stop() }
        let child = try pulse.session(["--tone", "440", "--status-every", "0.05"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing sine") != nil)
        #expect(!child.lines.contains { $0.contains("watcherUnavailable(system sleep") }, "\(child.lines)")
        let logind = try FakeLogind(address: bus.address)
        try logind.prepareForSleep(true)
        let began = try #require(child.waitForLine(containing: "session: interruptionBegan(systemSleep)"), "\(child.lines)")
        #expect(child.waitForLine(containing: "status: paused", after: began.index) != nil)
        try logind.prepareForSleep(false)
        let ended = try #require(child.waitForLine(containing: "session: interruptionEnded(shouldResume: true)", after: began.index), "\(child.lines)")
        #expect(child.waitForLine(containing: "status: playing", after: ended.index) != nil)
    }
}
