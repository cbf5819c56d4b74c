import Foundation
import Synchronization
import Testing

/// A sound server of one test's own, in a runtime folder of its own, so the test can add and
/// remove sinks, switch the default, kill and restart it without touching the server the
/// other suites play to: PulseAudio, or PipeWire (pipewire, WirePlumber and pipewire-pulse on
/// a D-Bus session bus of their own), which clients reach the same way, through the pulse
/// protocol. Everything it starts is stopped by ``stop()``.
package final class PrivatePulse: Sendable {
    /// Which server runs.
    package enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case pulseaudio
        case pipewire
        package var description: String { rawValue }
        /// Whether its programs are installed (scripts/lib.sh installs both).
        package var isInstalled: Bool {
            switch self {
            case .pulseaudio: ToolRunner.which("pulseaudio") != nil
            case .pipewire: ["pipewire", "wireplumber", "pipewire-pulse", "dbus-daemon", "pw-cat", "wpctl"].allSatisfy { ToolRunner.which($0) != nil }
            }
        }
    }

    package let kind: Kind
    package let runtime: URL
    /// PipeWire's processes (the bus, the server, the session manager, the pulse server).
    private let daemons = Mutex<[pid_t]>([])
    /// The environment that points clients (pactl, parec, pw-cat, wpctl, a child process) at
    /// this server.
    package var environment: [String: String] {
        var env = ["XDG_RUNTIME_DIR": runtime.path, "PULSE_SERVER": "unix:" + runtime.appendingPathComponent("pulse/native").path]
        if kind == .pipewire { env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + runtime.appendingPathComponent("bus").path }
        return env
    }

    /// Starts a server with no sink (add them with ``addSink(_:)``). `minimumQuantum` (PipeWire
    /// only): the smallest quantum in frames at 48 kHz that PipeWire (`default.clock.min-quantum`)
    /// and pipewire-pulse (`pulse.min.quantum`, `pulse.min.req`, `pulse.min.frag`) give, in
    /// place of pipewire-pulse's 256. `flatVolumes` (PulseAudio only): `flat-volumes = yes` in
    /// its daemon.conf (Debian's default is no), where a stream's volume is absolute and a
    /// change of the sink's volume scales every stream of the sink.
    package init(_ kind: Kind = .pulseaudio, minimumQuantum: Int? = nil, flatVolumes: Bool = false) throws {
        self.kind = kind
        runtime = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundstage-\(kind)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if kind == .pulseaudio, flatVolumes {
            // PulseAudio reads daemon.conf from PULSE_CONFIG_PATH (daemonState), not XDG_CONFIG_HOME.
            let config = runtime.appendingPathComponent("state/pulse")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "flat-volumes = yes\n".write(to: config.appendingPathComponent("daemon.conf"), atomically: true, encoding: .utf8)
        }
        if kind == .pipewire, let quantum = minimumQuantum {
            // XDG_CONFIG_HOME is the state folder (daemonState): the servers read their
            // drop-in configuration from there.
            let config = runtime.appendingPathComponent("state/pipewire")
            for (folder, text) in [("pipewire.conf.d", "context.properties = {\n    default.clock.min-quantum = \(quantum)\n}\n"),
                                   ("pipewire-pulse.conf.d", "pulse.properties = {\n    pulse.min.req = \(quantum)/48000\n    pulse.min.quantum = \(quantum)/48000\n    pulse.min.frag = \(quantum)/48000\n}\n")] {
                let dir = config.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try text.write(to: dir.appendingPathComponent("quantum.conf"), atomically: true, encoding: .utf8)
            }
        }
        try start()
    }

    /// Starts (or restarts) the server; waits until it answers.
    package func start() throws {
        switch kind {
        case .pulseaudio:
            let pulseaudio = try #require(ToolRunner.which("pulseaudio"))
            // On no session bus: PulseAudio claims org.pulseaudio.Server on the one it finds, and
            // refuses to start where another server holds it (a second private server, or one
            // beside the PipeWire lane's bus: seen in CI).
            // SOUNDSTAGE_PULSE_LOG=FILE: the server's debug log there (for a failure to be read).
            let log = ProcessInfo.processInfo.environment["SOUNDSTAGE_PULSE_LOG"].map { ["--log-target=file:\($0)", "--log-level=debug", "--log-time=1"] } ?? []
            _ = try ToolRunner.runDiscardingOutput(pulseaudio, ["-D", "-n", "--exit-idle-time=-1", "--load=module-native-protocol-unix"] + log,
                                                   environment: daemonState.merging(["XDG_RUNTIME_DIR": runtime.path,
                                                                 "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtime.path)/no-session-bus"]) { $1 })
        case .pipewire:
            // WirePlumber needs a session bus; each program waits for the one before.
            let bus = runtime.appendingPathComponent("bus")
            try launch("dbus-daemon", ["--session", "--nofork", "--address=unix:path=\(bus.path)"])
            guard Poll.until(seconds: 5, every: 0.02, { FileManager.default.fileExists(atPath: bus.path) }) else {
                throw PulseError("the private D-Bus did not start in \(runtime.path)")
            }
            try launch("pipewire", [])
            guard Poll.until(seconds: 5, every: 0.02, { FileManager.default.fileExists(atPath: runtime.appendingPathComponent("pipewire-0").path) }) else {
                throw PulseError("the private PipeWire did not start in \(runtime.path)")
            }
            try launch("wireplumber", [])
            try launch("pipewire-pulse", [])
        }
        if Poll.until(seconds: 5, every: 0.05, { (try? pactl(["info"]))?.status == 0 }) { return }
        throw PulseError("the private \(kind) server did not start in \(runtime.path)")
    }

    /// Where the servers keep what they remember (PulseAudio's module-stream-restore, the volume
    /// of each application's streams; WirePlumber's state): in the runtime folder, never the
    /// user's home.
    private var daemonState: [String: String] {
        let state = runtime.appendingPathComponent("state").path
        return ["PULSE_STATE_PATH": state, "XDG_STATE_HOME": state, "XDG_CONFIG_HOME": state, "PULSE_CONFIG_PATH": state + "/pulse"]
    }

    private func launch(_ program: String, _ arguments: [String]) throws {
        let pid = try Spawn.start(try #require(ToolRunner.which(program)), arguments, environment: environment.merging(daemonState) { $1 })
        daemons.withLock { $0.append(pid) }
    }

    /// The server's processes, to stop (SIGSTOP) and let go again: PulseAudio's daemon (its
    /// pid file); PipeWire's server, session manager and pulse server (not the bus).
    package var serverProcesses: [pid_t] {
        switch kind {
        case .pulseaudio:
            let file = runtime.appendingPathComponent("pulse/pid")
            return ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        case .pipewire:
            return Array(daemons.withLock { $0 }.dropFirst())
        }
    }

    /// Kills the server (`pulseaudio --kill`; PipeWire's processes, last started first), as a
    /// crash would take it away.
    package func kill() throws {
        switch kind {
        case .pulseaudio:
            let pulseaudio = try #require(ToolRunner.which("pulseaudio"))
            _ = try ToolRunner.run(pulseaudio, ["--kill"], environment: ["XDG_RUNTIME_DIR": runtime.path])
        case .pipewire:
            for pid in daemons.withLock({ $0.reversed() }) {
                Glibc.kill(pid, SIGTERM)
                _ = Spawn.wait(pid)
            }
            daemons.withLock { $0.removeAll() }
        }
        Poll.until(seconds: 5, every: 0.05) { (try? pactl(["info"]))?.status != 0 }
    }

    /// Runs pactl against this server.
    @discardableResult
    package func pactl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ToolRunner.run(try #require(ToolRunner.which("pactl")), arguments, environment: environment)
    }

    /// Runs pactl until it succeeds, for up to `seconds` (every 0.1 s), and gives its last run.
    /// pipewire-pulse answers `pactl info` before WirePlumber is ready: under a busy loop on
    /// each core, `set-default-sink` of a sink just made was refused ("Failure: Not
    /// supported"), as scripts/lib.sh saw `load-module` refused in CI.
    package func pactlUntilDone(_ arguments: [String], seconds: Double = 5) throws -> (status: Int32, stdout: String, stderr: String) {
        var result = try pactl(arguments)
        let began = ContinuousClock.now
        while result.status != 0 && ContinuousClock.now - began < .milliseconds(Int(seconds * 1_000)) {
            Thread.sleep(forTimeInterval: 0.1)
            result = try pactl(arguments)
        }
        return result
    }

    /// Runs wpctl (WirePlumber's) against this PipeWire server.
    @discardableResult
    package func wpctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try ToolRunner.run(try #require(ToolRunner.which("wpctl")), arguments, environment: environment)
        guard result.status == 0 else { throw PulseError("wpctl \(arguments) failed: \(result.stderr)") }
        return result
    }

    /// The PipeWire node id of the sink named `sink` (its `object.id`, which wpctl takes).
    package func nodeID(_ sink: String) throws -> String {
        let listed = try pactl(["list", "sinks"]).stdout
        // Each sink's block: "Name: <sink>" and, among its properties, object.id = "<id>".
        for block in listed.components(separatedBy: "\nSink #") where block.contains("Name: \(sink)\n") {
            if let line = block.split(separator: "\n").first(where: { $0.contains("object.id = ") }) {
                return line.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
            }
        }
        throw PulseError("no PipeWire node for the sink \(sink): \(listed.prefix(400))")
    }

    /// Adds a null sink (at `rate` Hz, or the server's default); returns its module index (for
    /// `pactl unload-module`).
    package func addSink(_ name: String, rate: Int? = nil) throws -> String {
        let result = try pactlUntilDone(["load-module", "module-null-sink", "sink_name=\(name)"] + (rate.map { ["rate=\($0)"] } ?? []))
        guard result.status == 0 else { throw PulseError("load-module failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Adds a null sink named `name` (at `rate` Hz, or the server's default) and makes it the
    /// default sink, and its monitor the default source: what a client that asks for no device
    /// plays to and records from.
    package func addDefaultSink(_ name: String, rate: Int? = nil) throws {
        _ = try addSink(name, rate: rate)
        try setDefaultSink(name)
        _ = try pactl(["set-default-source", name + ".monitor"])
    }

    /// Makes `sink` the default (pactl's status checked; with `byWirePlumber`, as WirePlumber's
    /// own client does, `wpctl set-default` with its node id) and waits up to `seconds` until
    /// the server says so (`pactl get-default-sink`; on PipeWire the default is WirePlumber's to
    /// keep), asking again each second where it did not follow. Throws with what the server
    /// says where it does not follow: a test that then waits for a client to follow the move
    /// waits only for the client.
    package func setDefaultSink(_ sink: String, byWirePlumber: Bool = false, seconds: Double = 5) throws {
        func ask() throws {
            if byWirePlumber { try wpctl(["set-default", try nodeID(sink)]); return }
            let asked = try pactlUntilDone(["set-default-sink", sink])
            guard asked.status == 0 else { throw PulseError("pactl set-default-sink \(sink) failed: \(asked.stderr)") }
        }
        var said = ""
        let began = ContinuousClock.now
        repeat {
            try ask()
            if Poll.until(seconds: 1, every: 0.01, {
                said = (try? defaultSink()) ?? ""
                return said == sink
            }) { return }
        } while ContinuousClock.now - began < .milliseconds(Int(seconds * 1_000))
        throw PulseError("the \(kind) server's default is still \(said) \(seconds) s after it was set to \(sink)")
    }

    /// The default sink as the server says now (`pactl get-default-sink`); empty if it says none.
    package func defaultSink() throws -> String {
        try pactl(["get-default-sink"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until `sink` plays (``SinkState``): a session's stream runs on the server.
    package func waitUntilPlaying(_ sink: String, seconds: Double = 10) throws {
        try SinkState.waitUntilRunning(sink, seconds: seconds) { try pactl(["list", "short", "sinks"]).stdout }
    }

    /// Runs `soundstage session` against this server with `arguments`, OpenAL Soft on its
    /// pulse backend; on one core only with `core` (`taskset -c`).
    package func session(_ arguments: [String], environment extra: [String: String] = [:], core: Int? = nil) throws -> ChildProcess {
        var env = environment
        env["ALSOFT_DRIVERS"] = "pulse"
        env.merge(extra) { $1 }
        let tool = try #require(ToolRunner.soundstage)
        guard let core else { return try ChildProcess(tool, ["session"] + arguments, environment: env) }
        return try ChildProcess(try #require(ToolRunner.which("taskset")), ["-c", "\(core)", tool.path, "session"] + arguments, environment: env)
    }

    /// Records `sink`'s monitor, float at 48 kHz (mono, or interleaved stereo), until the
    /// recording is stopped. `latencyMilliseconds` asks the server to deliver that often.
    package func record(_ sink: String, channels: Int = 1, latencyMilliseconds: Int? = nil) throws -> ChildProcess {
        // pipewire-pulse hands a recording that asks no latency its first data after 2 s, then
        // 16,384 frames (0.34 s) at a time (measured: a call's end was not yet in the
        // recording when the test read it); asked for 10 ms, 480 frames every 10 ms.
        let asked = latencyMilliseconds ?? (kind == .pipewire ? 10 : nil)
        let latency = asked.map { ["--latency-msec=\($0)"] } ?? []
        return try ChildProcess(try #require(ToolRunner.which("parec")),
                                ["-d", "\(sink).monitor", "--rate=48000", "--channels=\(channels)", "--format=float32le", "--raw"] + latency,
                                environment: environment, binaryOutput: true)
    }

    /// Records `sink`'s monitor where no move of the default takes the recording elsewhere:
    /// PulseAudio 16 moves a recording of the default sink's monitor to the new default's,
    /// so this records a source of its own remapped from the monitor. Mono float32 at `rate`,
    /// delivered every 10 ms (``ChildProcess/arrivals`` dates each block).
    package func recordPinned(_ sink: String, rate: Int) throws -> ChildProcess {
        let remapped = "pinned_\(sink)"
        let loaded = try pactl(["load-module", "module-remap-source", "master=\(sink).monitor", "source_name=\(remapped)"])
        guard loaded.status == 0 else { throw PulseError("module-remap-source failed: \(loaded.stderr)") }
        return try ChildProcess(try #require(ToolRunner.which("parec")),
                                ["-d", remapped, "--rate=\(rate)", "--channels=1", "--format=float32le", "--raw", "--latency-msec=10"],
                                environment: environment, binaryOutput: true)
    }

    /// Plays silence to `sink` until stopped, so that the sink runs all along and a recording
    /// of its monitor keeps pace with the wall clock (an idle null sink's monitor delivers
    /// next to nothing, and its time is lost from the recording).
    package func keepRunning(_ sink: String) throws -> ChildProcess {
        try ChildProcess(try #require(ToolRunner.which("pacat")),
                         ["--playback", "-d", sink, "--format=s16le", "--rate=44100", "--channels=2", "/dev/zero"], environment: environment)
    }

    /// Stops the daemon and removes its folder.
    package func stop() {
        try? kill()
        try? FileManager.default.removeItem(at: runtime)
    }
}

package struct PulseError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
