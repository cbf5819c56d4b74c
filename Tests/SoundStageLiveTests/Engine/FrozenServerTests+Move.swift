import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

extension FrozenServerTests {
    /// How long the server stays stopped after the sink is gone.
    static let moveFreezeSeconds = 3.0
    /// The longest a move may take once the server answers again.
    static let longestMoveAfterReturn = 0.5

    /// A server that does not answer which sink is its default, while an engine's sink is gone:
    /// the engine asks again at its usual wait, and moves as soon as the server is back. Read
    /// as "the server went away", the waits doubled (50, 100, 200, 400 ms...): a CI run's move
    /// off an unloaded sink took 1.45 s, the server answering late while it moved its streams.
    /// The game is stopped (SIGSTOP) while the sink is unloaded, and the server stopped once it
    /// has removed the game's stream, so the engine finds its stream lost while the server
    /// cannot answer: the order holds on any machine.
    @Test("the sink in use unloaded and the server stopped 3 s: the engine says once that the server is late, never that it went away, and moves within 0.5 s of its return",
          arguments: PrivatePulse.Kind.allCases)
    func moveWaitsForLateServer(server: PrivatePulse.Kind) async throws {
        try #require(server.isInstalled, "\(server) is not installed")
        let pulse = try PrivatePulse(server)
        let pids = pulse.serverProcesses
        defer {
            for pid in pids { kill(pid, SIGCONT) }
            pulse.stop()
        }
        try #require(!pids.isEmpty, "the \(server) server's processes are not known")
        let module = try pulse.addSink("sink_a")
        _ = try pulse.addSink("sink_b")
        try pulse.pactl(["set-default-sink", "sink_a"])
        let effect = try pulse.session(["--tone", "440", "--effect", "--status-every", "0.5"])
        defer { effect.stop() }
        try #require(try await effect.nextLine(containing: "playing sine", seconds: 20) != nil, "\(effect.lines)")
        try await Task.sleep(for: .seconds(1))
        let before = effect.lines.count
        effect.signal(SIGSTOP)
        let streams = Set(try OtherApplication.streams(pulse).map(\.index))
        try pulse.pactl(["unload-module", module])
        // The server has removed the game's stream, and has told it so: PipeWire removes it a
        // while after the sink (stopped before, the game heard nothing in CI and in 3 of 3
        // runs here, and never noticed its stream lost while the server could not answer).
        let removed = Poll.until(seconds: 5, every: 0.02) {
            (try? OtherApplication.streams(pulse)).map { Set($0.map(\.index)).isDisjoint(with: streams) } ?? false
        }
        try #require(removed, "the server kept the game's stream on an unloaded sink")
        try await Task.sleep(for: .milliseconds(100))
        for pid in pids { kill(pid, SIGSTOP) }
        effect.signal(SIGCONT)
        try await Task.sleep(for: .seconds(Self.moveFreezeSeconds))
        let resumed = ContinuousClock.now
        for pid in pids { kill(pid, SIGCONT) }
        let moved = try #require(try await effect.nextLine(containing: "engine: routeChanged(", after: before, seconds: 15),
                                 "\(effect.lines.suffix(12))")
        let lines = Array(effect.lines[before...moved.index])
        let unavailable = lines.filter { $0.contains("engine: outputUnavailable(") }
        let after = (moved.at - resumed).seconds
        print("FrozenServerTests (\(server), sink unloaded, server stopped \(Self.moveFreezeSeconds) s): moved \(Int(after * 1_000)) ms after the server's return; \(unavailable)")
        print(lines.joined(separator: "\n"))
        #expect(unavailable.count == 1 && unavailable.allSatisfy { $0.contains("did not answer in time") }, "\(lines)")
        #expect(!lines.contains { $0.contains("went away") }, "\(lines)")
        #expect(after <= Self.longestMoveAfterReturn, "\(lines)")
    }
}
