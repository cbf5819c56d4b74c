import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Fault injection: the output device lost mid-play, a hundred times in a row, and recovered
/// each time. `soundstage session` is the game, in a child process (OpenAL Soft reads its
/// configuration once per process); what it prints is what the engine and the session report.
/// Each cycle waits until the device has played longer than the engine's healthy-output
/// window (1 s), so every loss is a new one and the engine's first retry comes at once.
/// The test script runs the suite after the rest, with the timing suites: a test that waits
/// in real time for a child process is starved for seconds on a loaded 2-core machine.
@Suite("Fault injection, on a quiet machine: the output device lost mid-play, 100 times",
       .enabled(if: RecordingRig.timingEnabled, "needs the PulseAudio server scripts/test.sh starts, and a quiet machine (the full tier runs it apart)"))
struct FaultInjectionDeviceLossTests {
    static let cycles = 100
    /// How long each recovered device plays before the next loss.
    static let playSeconds = 1.1

    /// glibc's prlimit(2), which its headers declare only for _GNU_SOURCE.
    typealias PRLimit = @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
    static let prlimit: PRLimit? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prlimit").map { unsafeBitCast($0, to: PRLimit.self) }

    /// Sets the soft limit on the size of the files process `pid` writes (`nil`: none), as
    /// `prlimit --fsize` does; the hard limit stays unlimited, so it can be raised again.
    static func limitFileSize(of pid: pid_t, to bytes: UInt64?) throws {
        var limit = rlimit(rlim_cur: bytes.map { rlim_t($0) } ?? rlim_t.max, rlim_max: rlim_t.max)   // rlim_t.max: RLIM_INFINITY
        let prlimit = try #require(Self.prlimit, "glibc has no prlimit")
        guard prlimit(pid, Int32(RLIMIT_FSIZE.rawValue), &limit, nil) == 0 else {
            throw PulseError("prlimit(\(pid), RLIMIT_FSIZE) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// The smallest, middle and largest of `values`, for a message.
    static func spread(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else { return "none" }
        return String(format: "%.1f / %.1f / %.1f", first, sorted[sorted.count / 2], last)
    }

    @Test("the wave backend's file refused mid-play (a file-size limit), its replacement failing to open (no folder) or at its first write (/dev/full), then repaired: 100 losses, each recovered, the tone in every new file")
    func waveFileLostAndBack() async throws {
        let folder = try TemporaryFolder()
        let outputFolder = folder.url.appendingPathComponent("output"), away = folder.url.appendingPathComponent("away")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        let output = outputFolder.appendingPathComponent("out.wav")
        let conf = folder.url.appendingPathComponent("alsoft.conf")
        try "[general]\ndrivers=wave\n[wave]\nfile=\(output.path)\n".write(to: conf, atomically: true, encoding: .utf8)
        // Through sh, to ignore SIGXFSZ (a write over the limit then fails with EFBIG rather
        // than ending the process); sh execs the tool, so the pid is the tool's.
        let tool = try #require(ToolRunner.soundstage)
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "trap '' XFSZ; exec \"$0\" \"$@\"", tool.path, "session", "--tone", "440", "--effect", "--status-every", "0.5"],
                                     environment: ["ALSOFT_CONF": conf.path, "ALSOFT_DRIVERS": "wave", "ALSOFT_TRAP_ALC_ERROR": "0"])
        defer { child.stop() }
        try #require(try await child.nextLine(containing: "playing sine") != nil, "\(child.lines)")
        let moved = "engine: routeChanged(oldDeviceUnavailable", unavailable = "engine: outputUnavailable"
        var recovered = ContinuousClock.now, noticed: [Double] = [], repaired: [Double] = [], levels: [Double] = [], flaps: [Int] = []
        var lastRecovery = 0
        for cycle in 1...Self.cycles {
            try await Task.sleep(until: recovered + .seconds(Self.playSeconds), clock: .continuous)
            // The device the last recovery opened stayed, and its file holds this cycle's
            // sound (the file is new: a replacement truncates it).
            #expect(!child.lines[(lastRecovery + 1)...].contains { $0.contains(moved) || $0.contains(unavailable) },
                    "cycle \(cycle): lost again after the repair: \(child.lines.suffix(6))")
            let (left, rate) = try #require(DeviceLossRig.firstChannel(ofLiveWAV: try Data(contentsOf: output)),
                                            "cycle \(cycle): an unreadable WAV")
            let tail = Array(left.suffix(rate / 2))
            let level = Measure.dB(tail), hz = Measure.peakFrequency(tail, sampleRate: rate)
            try #require(tail.count == rate / 2 && level > -20 && abs(hz - 440) < 5,
                         "cycle \(cycle): \(left.count) frames written, the tone at \(level) dB, \(hz) Hz")
            levels.append(level)
            // The fault: the device's next write is refused; the file's folder goes, and in
            // every other cycle a folder comes in its place whose file is /dev/full.
            let devFull = cycle.isMultiple(of: 2)
            let before = child.lines.count
            // The folder goes first (the open file plays on), then the write is refused: refused
            // first, a loaded machine let the engine reopen the old folder's file before it
            // went, lose that at once, and retry after a doubled wait (a CI run, cycle 45:
            // "retry in 0.1 s").
            try FileManager.default.moveItem(at: outputFolder, to: away)
            if devFull {
                // Made aside and renamed into place in one step: a folder made in place first
                // let a replacement open create its file there before the link (a CI run
                // failed with "File exists").
                let staged = folder.url.appendingPathComponent("staged")
                try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: false)
                try FileManager.default.createSymbolicLink(atPath: staged.appendingPathComponent("out.wav").path, withDestinationPath: "/dev/full")
                try FileManager.default.moveItem(at: staged, to: outputFolder)
            }
            try Self.limitFileSize(of: child.pid, to: 0)
            let cut = ContinuousClock.now
            if devFull {
                // Each replacement opens and is lost at its first write; the waits between
                // them grow from the shortest (the lost device had played a while).
                let first = try #require(try await child.nextLine(containing: moved, after: before), "cycle \(cycle): \(child.lines.suffix(6))")
                noticed.append((first.at - cut) / .milliseconds(1))
                let second = try #require(try await child.nextLine(containing: moved, after: first.index + 1), "cycle \(cycle): \(child.lines.suffix(6))")
                let third = try #require(try await child.nextLine(containing: moved, after: second.index + 1), "cycle \(cycle): \(child.lines.suffix(6))")
                let (waitA, waitB) = ((second.at - first.at) / .milliseconds(1), (third.at - second.at) / .milliseconds(1))
                #expect(waitB > waitA && waitA >= 90, "cycle \(cycle): the waits between replacements on /dev/full: \(waitA), \(waitB) ms")
                try FileManager.default.removeItem(at: outputFolder)
            } else {
                // No replacement opens: the first attempt at once, the next after the shortest wait.
                let failed = try #require(try await child.nextLine(containing: unavailable, after: before), "cycle \(cycle): \(child.lines.suffix(6))")
                noticed.append((failed.at - cut) / .milliseconds(1))
                #expect(child.lines[failed.index].contains("retry in 0.05 s"), "cycle \(cycle): \(child.lines[failed.index])")
            }
            // The repair: the next attempt opens a new file, and the player goes on there.
            let repairedFrom = child.lines.count
            try Self.limitFileSize(of: child.pid, to: nil)
            try FileManager.default.moveItem(at: away, to: outputFolder)
            let repair = ContinuousClock.now
            let back = try #require(try await child.nextLine(containing: moved, after: repairedFrom), "cycle \(cycle): \(child.lines.suffix(6))")
            recovered = back.at
            lastRecovery = back.index
            repaired.append((back.at - repair) / .milliseconds(1))
            if devFull { flaps.append(child.lines[before..<back.index].filter { $0.contains(moved) }.count) }
        }
        try await Task.sleep(until: recovered + .seconds(0.6), clock: .continuous)
        #expect(child.isRunning)
        let lines = child.lines
        #expect(!lines[(lastRecovery + 1)...].contains { $0.contains(moved) || $0.contains(unavailable) }, "\(lines.suffix(4))")
        #expect(lines.last { $0.contains("status:") }?.contains("status: playing") == true, "\(lines.suffix(4))")
        // A failed write disconnects the device at the mixer's next update (20 ms) and the
        // next tick (10 ms) sees it: 30 ms; 250 ms is that with room for a loaded machine to
        // schedule the three threads on the way (the mixer, the tick, this test reading the
        // child's lines).
        #expect(noticed.max() ?? .infinity < 250, "each loss seen within 250 ms: \(Self.spread(noticed)) ms")
        // Back within the engine's longest wait of the repair (a test that repairs late, on a
        // loaded machine, finds the waits grown).
        // The waits between attempts grow to 2 s (AudioEngine.reopenWaits): the attempt after
        // the repair comes within 2 s, and opening takes well under half a second.
        #expect(repaired.max() ?? .infinity < 2_500, "back after the repair: \(Self.spread(repaired)) ms")
        print("device loss (wave file), \(Self.cycles) cycles: loss seen after \(Self.spread(noticed)) ms (min / median / max); "
              + "\(lines.filter { $0.contains(unavailable) }.count) failed attempts; /dev/full replacements per /dev/full cycle \(Self.spread(flaps.map(Double.init))); "
              + "back \(Self.spread(repaired)) ms after the repair; the tone in each new file at \(Self.spread(levels)) dB")
    }

    /// The server's sinks and sink inputs, in the lines a failure needs: state, sink, corked,
    /// latencies, application and process.
    static func serverState(_ pulse: PrivatePulse) -> String {
        let keys = ["Sink #", "Sink Input #", "State:", "Name:", "Sink:", "Corked:", "Buffer Latency:", "Sink Latency:", "Latency:",
                    "application.name", "application.process.id", "node.latency", "media.name"]
        let lines = ["sinks", "sink-inputs", "source-outputs"].flatMap { kind in
            ((try? pulse.pactl(["list", kind]).stdout) ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { line in keys.contains { line.hasPrefix($0) } }
        }
        return lines.joined(separator: " | ")
    }

    /// Seconds into `samples` (at 48 kHz) of the first 10 ms whose peak is above 0.05.
    static func onset(_ samples: [Float]) -> Double? {
        stride(from: 0, to: max(0, samples.count - 480), by: 480)
            .first { start in samples[start..<(start + 480)].contains { abs($0) > 0.05 } }
            .map { Double($0) / 48_000 }
    }

    @Test("the sink in use unloaded mid-play, 100 times (the two sinks taking turns): the effect moves and is heard on the other each time; the music pauses and stays paused")
    func sinkUnloadedAgainAndAgain() async throws {
        try #require(AudioSessionServerTests.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        var modules = ["sink_a": try pulse.addSink("sink_a"), "sink_b": try pulse.addSink("sink_b")]
        var current = "sink_a", other = "sink_b"
        try pulse.pactl(["set-default-sink", current])
        let effect = try pulse.session(["--tone", "440", "--effect", "--status-every", "0.5"])
        let music = try pulse.session(["--tone", "440", "--status-every", "0.5"])
        defer { effect.stop(); music.stop() }
        let effectPlays = try await effect.nextLine(containing: "playing sine"), musicPlays = try await music.nextLine(containing: "playing sine")
        try #require(effectPlays != nil && musicPlays != nil,
                     "\(effect.lines) \(music.lines)")
        var recovered = ContinuousClock.now, moves: [Double] = [], levels: [Double] = [], onsets: [Double] = [], reasons: [String: Int] = [:]
        // The slowest move: its cycle, and what the game printed from the unload to the move (its
        // lines carry the tool's own clock), for a failure to show.
        var slowest: (ms: Double, cycle: Int, lines: [String])?
        // The sink the effect moves to next is listened to from when it is made: a null sink
        // with nothing to play sleeps in blocks of 2 s, so its monitor's first samples come
        // up to 2 s after a recording starts.
        var listening = try pulse.record(other, latencyMilliseconds: 20)
        defer { listening.stop() }
        for cycle in 1...Self.cycles {
            try await Task.sleep(until: recovered + .seconds(Self.playSeconds), clock: .continuous)
            let before = effect.lines.count, musicBefore = music.lines.count
            // The server makes `other` the default: it is the only sink left.
            let unloaded = ContinuousClock.now
            try pulse.pactl(["unload-module", try #require(modules[current])])
            let moved = try #require(try await effect.nextLine(containing: "engine: routeChanged(", after: before),
                                     "cycle \(cycle): \(effect.lines.suffix(6))")
            let heardFrom = listening.bytes.count / 4
            recovered = moved.at
            moves.append((moved.at - unloaded) / .milliseconds(1))
            if moves.last! >= (slowest?.ms ?? 0) {
                slowest = (moves.last!, cycle, Array(effect.lines[before...moved.index]))
            }
            let line = effect.lines[moved.index]
            let reason = String(line[line.range(of: "routeChanged(")!.upperBound...].prefix { $0 != ":" })
            reasons[reason, default: 0] += 1
            // The unloaded sink back, for the next cycle, listened to from now; the default
            // stays where the effect is (set first: the server would make a returning sink
            // that was the chosen default the default again).
            try pulse.pactl(["set-default-sink", other])
            modules[current] = try pulse.addSink(current)
            let next = try pulse.record(current, latencyMilliseconds: 20)
            #expect(try await music.nextLine(containing: "engine: routeChanged(", after: musicBefore) != nil, "cycle \(cycle): \(music.lines.suffix(4))")
            // The tone arrives at the other sink, and plays there: 0.2 s of it from 0.05 s after
            // its onset. The new stream starts when the server first takes from it: within
            // 0.15 s of the move in most cycles, but in about one of 60 beside the PipeWire
            // lane and the offline tests the game's clock stood still 0.5 to 1.5 s after the
            // move, on PulseAudio and on PipeWire (its status lines), with its stream on the
            // right sink, not corked, then went on from where it stood: the server had not
            // taken from it (a null sink with nothing to play renders ahead in blocks of up to
            // 2 s; the cause inside the server is not pinned down). So the onset is looked for
            // in the 2 s after the move (its spread is said below), read as the recording comes.
            let window = 2 * 48_000
            var afterMove: [Float] = [], start: Double?
            let waitingSince = ContinuousClock.now
            while ContinuousClock.now - waitingSince < .seconds(15) {
                afterMove = Array(listening.samples.dropFirst(heardFrom).prefix(window + 12_000))
                start = Self.onset(Array(afterMove.prefix(window)))
                if let start, afterMove.count >= Int((start + 0.25) * 48_000) { break }
                if start == nil && afterMove.count >= window { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let heard = start.map { Array(afterMove.dropFirst(Int(($0 + 0.05) * 48_000)).prefix(9_600)) } ?? []
            let (level, hz) = AudioSessionServerTests.toneLevel(heard, lastSeconds: 0.2)
            let played = start != nil && heard.count >= 9_600 && level > -30 && abs(hz - 440) < 8
            // What the server says of its streams and sinks, for a failure to show (a stream
            // corked, on which sink, how much it holds; a sink suspended).
            let server = played ? "" : Self.serverState(pulse)
            try #require(played, """
                cycle \(cycle): the effect on \(other) at \(level) dB, \(hz) Hz (\(afterMove.count) samples after the move, \
                the first 10 ms above 0.05 from \(start.map { "\($0) s" } ?? "nowhere in 2 s") after it, \
                the last sample above 0.05 at \(afterMove.lastIndex { abs($0) > 0.05 }.map { String(format: "%.3f s", Double($0) / 48_000) } ?? "none"); \
                the move seen \((moved.at - unloaded) / .milliseconds(1)) ms after the unload); \
                the game printed since the unload \(effect.lines[before...].map { $0 }), the music \(music.lines[musicBefore...].map { $0 }); \
                the server: \(server)
                """)
            onsets.append(try #require(start) * 1_000)
            levels.append(level)
            listening.stop()
            listening = next
            swap(&current, &other)
        }
        try await Task.sleep(until: recovered + .seconds(0.6), clock: .continuous)
        #expect(effect.isRunning && music.isRunning)
        #expect(effect.lines.last { $0.contains("status:") }?.contains("status: playing") == true, "\(effect.lines.suffix(4))")
        #expect(music.lines.last { $0.contains("status:") }?.contains("status: paused") == true, "\(music.lines.suffix(4))")
        // The stream on an unloaded sink fails at once (PulseAudio's stream state), the next
        // tick (10 ms) moves to the default sink, and opening a stream there takes 20-100 ms
        // here: a second leaves room for a loaded machine and fails a move left to a retry.
        #expect(moves.max() ?? .infinity < 1000, "each move within a second of the unload: \(Self.spread(moves)) ms; the slowest, cycle \(slowest?.cycle ?? 0), the game printing \(slowest?.lines ?? [])")
        print("device loss (sink unloaded), \(Self.cycles) cycles: the effect moved after \(Self.spread(moves)) ms (min / median / max), "
              + "as \(reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
              + "the tone on the other sink \(Self.spread(onsets)) ms after the move, at \(Self.spread(levels)) dB"
              // What a slow move waited for, even where it passed (873 ms of 1,000 seen in CI).
              + ((slowest?.ms ?? 0) > 300 ? "; the slowest, cycle \(slowest?.cycle ?? 0), the game printing \(slowest?.lines ?? [])" : ""))
    }
}
