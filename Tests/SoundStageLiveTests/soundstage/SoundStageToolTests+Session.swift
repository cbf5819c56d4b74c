import Foundation
import Testing
import SoundStageTestSupport

/// `soundstage session` on a private PulseAudio server: it prints what the session sees as it
/// happens, on a loaded machine too.
@Suite("SoundStageTool on the sound server: session", .serialized,
       .enabled(if: AudioSessionServerTests.enabled, "PulseAudio is not installed"),
       .enabled(if: ToolRunner.which("taskset") != nil, "taskset (util-linux) is not installed"))
struct SoundStageToolSessionTests {
    /// The first CPU this process may run on (`Cpus_allowed_list` in /proc/self/status), where
    /// the tool and the busy loop are pinned.
    static func firstAllowedCore() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }, "no Cpus_allowed_list")
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        return try #require(Int(list.prefix { $0.isNumber }), "Cpus_allowed_list: \(list)")
    }

    /// Once in CI, on a loaded machine, the tool followed a move of the default output and
    /// printed nothing of it for 10 s: its loop slept on the only thread Swift's task pool had,
    /// which the tasks that print the events needed. Pinned to one core beside a busy loop,
    /// that loop held the events back about a second each, or for good.
    @Test("prints each event within 0.5 s as it plays, pinned to one core beside a busy loop")
    func printsAsItHappens() async throws {
        let taskset = try #require(ToolRunner.which("taskset"))
        let core = try Self.firstAllowedCore()
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        let made = try pulse.pactl(["load-module", "module-null-sink", "sink_name=A"])
        try #require(made.status == 0, "\(made.stderr)")
        try pulse.setDefaultSink("A")
        let busy = try ChildProcess(taskset, ["-c", "\(core)", "/bin/sh", "-c", "while :; do :; done"])
        defer { busy.stop() }
        let child = try pulse.session(["--tone", "440"], core: core)
        defer { child.stop() }
        // Waits suspend rather than block: a blocked thread is one of the test runner's few.
        let playing = try #require(try await child.nextLine(containing: "playing sine"), "\(child.lines)")
        let connected = try #require(try await child.nextLine(containing: "session: soundServerConnected", seconds: 5),
                                     "the session's connection to the server was not printed in 5 s: \(child.lines)")
        // Said as the monitor connects, which is a few ms after the engine opens (0.02 s here).
        #expect(connected.at - playing.at < .milliseconds(500), "soundServerConnected printed \(connected.at - playing.at) after the tone")
        for k in 1...3 {
            let sink = "B\(k)"
            let added = try pulse.pactl(["load-module", "module-null-sink", "sink_name=\(sink)"])
            try #require(added.status == 0, "\(added.stderr)")
            let loaded = ContinuousClock.now
            let line = try #require(try await child.nextLine(containing: "session: outputAdded(\(sink))", seconds: 5),
                                    "the new sink \(sink) was not printed in 5 s: \(child.lines.suffix(6))")
            #expect(line.at - loaded < .milliseconds(500), "outputAdded(\(sink)) printed \(line.at - loaded) after the sink was made")
        }
    }
}
