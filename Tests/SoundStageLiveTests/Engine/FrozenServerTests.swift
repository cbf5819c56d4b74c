import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// A sound server that stops answering (SIGSTOP for 5 s) in the middle of a device reset, an
/// HRTF switch or a latency change, each a round trip to the server: the game thread, moving a
/// voice every 5 ms, goes on (no call over 100 ms), and a process that exits during the freeze
/// is gone within 2 s (Tests/FrozenServer, on a private PulseAudio and PipeWire). Before
/// DeviceRoundTrip, every `setPosition` waited the whole 5 s behind the gateway's lock, and the
/// exit waited for the server too.
@Suite("A frozen sound server: the game's calls go on, and it exits", .serialized,
       .enabled(if: AudioSessionServerTests.enabled, "PulseAudio is not installed"))
struct FrozenServerTests {
    static let freezeSeconds = 5.0
    /// The longest a game-thread call may take while the server is stopped.
    static let longestCall = 0.1
    /// The longest an exit may take while the server is stopped.
    static let longestExit = 2.0

    enum Change: String, CaseIterable, CustomStringConvertible {
        case hrtf, latency
        var description: String { rawValue }
    }

    /// Starts the program on a private `server` with a null sink, in `mode`; returns the
    /// program and the server, which the caller stops.
    static func start(_ server: PrivatePulse.Kind, _ mode: String) throws -> (ChildProcess, PrivatePulse) {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        try pulse.addDefaultSink("frozen")
        let pids = pulse.serverProcesses
        try #require(!pids.isEmpty, "the \(server) server's processes are not known")
        var environment = pulse.environment
        environment["ALSOFT_DRIVERS"] = "pulse"
        let program = try #require(ToolRunner.product("FrozenServer"), "FrozenServer is built beside the tests")
        let game = try ChildProcess(program, [pids.map(String.init).joined(separator: ","), mode, "\(freezeSeconds)"],
                                    environment: environment)
        return (game, pulse)
    }

    /// Ends what ``start(_:_:)`` started: the server let go (it may be stopped still), the
    /// program and the server stopped.
    static func end(_ game: ChildProcess, _ pulse: PrivatePulse) {
        for pid in pulse.serverProcesses { kill(pid, SIGCONT) }
        game.stop()
        pulse.stop()
    }

    /// The longest `setPosition` the program printed, in milliseconds (or what `prefix`
    /// names: "longest status read: ").
    static func longest(_ lines: [String], _ prefix: String = "longest setPosition: ") -> Double? {
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Double(line.dropFirst(prefix.count).prefix { $0 != " " })
    }

    @Test("a reset while the server is stopped 5 s: setPosition every 5 ms, none longer than 100 ms",
          arguments: [(PrivatePulse.Kind.pulseaudio, Change.hrtf), (.pulseaudio, .latency), (.pipewire, .hrtf), (.pipewire, .latency)])
    func gameGoesOn(server: PrivatePulse.Kind, change: Change) throws {
        let (game, pulse) = try Self.start(server, change.rawValue)
        defer { Self.end(game, pulse) }
        try #require(game.waitForLine(containing: "stopped the server", seconds: 20) != nil, "\(game.ending): \(game.lines)")
        try #require(game.waitForLine(containing: "ending", seconds: Self.freezeSeconds + 20) != nil, "\(game.ending): \(game.lines)")
        let longest = try #require(Self.longest(game.lines), "\(game.lines)")
        let longestRead = try #require(Self.longest(game.lines, "longest status read: "), "\(game.lines)")
        print("\(server), \(change): \(game.lines.filter { $0.hasPrefix("switch") || $0.hasPrefix("longest") }.joined(separator: "; "))")
        #expect(longest <= Self.longestCall * 1_000, "\(game.lines)")
        // What a game's screen reads each frame (the HRTF's status, the connection, the
        // period) does not wait on the server either.
        #expect(longestRead <= Self.longestCall * 1_000, "\(game.lines)")
        // The switch itself waited for the server: the freeze was real.
        let took = game.lines.first { $0.hasPrefix("switch took ") }.flatMap { Double($0.dropFirst("switch took ".count).prefix { $0 != " " }) }
        #expect((took ?? 0) >= Self.freezeSeconds - 0.5, "the switch did not wait for the stopped server: \(game.lines)")
        #expect(game.lines.contains { $0.hasPrefix("switch took") && $0.hasSuffix("done") }, "\(game.lines)")
        #expect(Poll.until(seconds: 10, every: 0.02) { !game.isRunning } && game.ending == "exit 0", "\(game.ending): \(game.lines)")
    }

    /// The engine's service thread ticks on while the reset waits on the server (it takes no
    /// gateway's lock the reset holds); the device's clock reads as last read meanwhile, and a
    /// watch of the clock that took the standing clock for the mixer running late would count
    /// underruns and step back from the mode, with nothing run dry.
    @Test("an HRTF switch in latency mode .balanced while the server is stopped 5 s: the reset counted as no underrun, the mode kept",
          arguments: PrivatePulse.Kind.allCases)
    func resetInModeIsNoUnderrun(server: PrivatePulse.Kind) throws {
        let (game, pulse) = try Self.start(server, "hrtf-in-mode")
        defer { Self.end(game, pulse) }
        try #require(game.waitForLine(containing: "stopped the server", seconds: 20) != nil, "\(game.ending): \(game.lines)")
        let line = try #require(game.waitForLine(containing: "underruns counted", seconds: Self.freezeSeconds + 20), "\(game.ending): \(game.lines)")
        print("FrozenServerTests (\(server), HRTF switch in .balanced): \(game.lines[line.index])")
        #expect(game.lines[line.index].hasPrefix("in mode balanced with 0 underruns"), "\(game.lines)")
    }

    @Test("40 latency changes while another thread reads a playing player's time, or loads and unloads a reverb, every millisecond: no deadlock (each took OpenAL Soft's locks in the order opposite to a reset's)",
          arguments: PrivatePulse.Kind.allCases, ["race", "race-effects"])
    func resetsBesideLatencyReads(server: PrivatePulse.Kind, mode: String) throws {
        let (game, pulse) = try Self.start(server, mode)
        defer { Self.end(game, pulse) }
        let done = game.waitForLine(containing: "raced", seconds: 60)
        if done == nil, game.isRunning { print("FrozenServer race, stuck: \(ThreadDump.of(game.pid))") }
        #expect(done != nil, "\(game.ending): \(game.lines)")
        if let done { #expect(game.lines[done.index].hasSuffix(", 0 failed"), "every read and load beside the changes succeeded: \(game.lines[done.index])") }
        print("\(server), \(mode): \(game.lines.filter { $0.hasPrefix("raced") || $0.contains("failed") }.joined(separator: "; "))")
        #expect(Poll.until(seconds: 10, every: 0.02) { !game.isRunning } && game.ending == "exit 0", "\(game.ending): \(game.lines)")
    }

    @Test("exit(0) one second into a 5 s freeze during an HRTF switch: the process is gone within 2 s, status 0",
          arguments: PrivatePulse.Kind.allCases)
    func exitsDuringFreeze(server: PrivatePulse.Kind) throws {
        let (game, pulse) = try Self.start(server, "exit")
        defer { Self.end(game, pulse) }
        let exiting = try #require(game.waitForLine(containing: "exiting", seconds: 20), "\(game.ending): \(game.lines)")
        let gone = Poll.until(seconds: Self.freezeSeconds + 5, every: 0.01) { !game.isRunning }
        let seconds = (ContinuousClock.now - exiting.at).seconds
        print("\(server): exit took \(seconds) s after \"exiting\" (\(game.ending)); \(game.lines.filter { $0.hasPrefix("longest") })")
        #expect(gone && seconds <= Self.longestExit, "\(seconds) s: \(game.ending): \(game.lines)")
        #expect(game.ending == "exit 0", "\(game.lines)")
        // Its output reached the pipe: flushed as it ended.
        #expect(game.lines.contains("exiting"))
    }
}
