import Foundation
import Testing

/// A real terminal: a tmux server of the test's own with one bash window, so that job
/// control (Ctrl-Z, `fg`) works as it does for a user.
package final class Terminal: Sendable {
    package let socket = "soundstage-\(UUID().uuidString.prefix(8))"
    package let tmux: URL

    package init(columns: Int = 160, rows: Int = 40) throws {
        tmux = try #require(ToolRunner.which("tmux"), "tmux is not installed")
        let status = try ToolRunner.runDiscardingOutput(tmux, ["-L", socket, "new-session", "-d", "-s", "test", "-x", "\(columns)", "-y", "\(rows)", "bash --norc --noprofile"])
        guard status == 0 else { throw PulseError("tmux did not start (status \(status))") }
    }

    /// Makes the window `columns` x `rows`, as a user resizing the terminal.
    package func resize(columns: Int, rows: Int) throws {
        _ = try ToolRunner.runDiscardingOutput(tmux, ["-L", socket, "resize-window", "-t", "test", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Waits up to `seconds` for the window to show `text`; returns whether it did.
    package func waitFor(_ text: String, seconds: Double = 10) -> Bool {
        Poll.until(seconds: seconds) { screen.contains(text) }
    }

    /// Types `keys` (tmux key names: "C-z", "Enter", or literal text).
    package func send(_ keys: String...) throws {
        _ = try ToolRunner.runDiscardingOutput(tmux, ["-L", socket, "send-keys", "-t", "test"] + keys)
    }

    /// Types a command line and Enter.
    package func run(_ line: String) throws {
        _ = try ToolRunner.runDiscardingOutput(tmux, ["-L", socket, "send-keys", "-t", "test", "-l", line])
        try send("Enter")
    }

    /// What the window shows.
    package var screen: String {
        (try? ToolRunner.run(tmux, ["-L", socket, "capture-pane", "-p", "-t", "test"]).stdout) ?? ""
    }

    /// The command the window runs in its foreground ("bash" when the shell has it back).
    package var foregroundCommand: String {
        let out = try? ToolRunner.run(tmux, ["-L", socket, "display-message", "-p", "-t", "test", "#{pane_current_command}"]).stdout
        return out?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The process id of the window's shell.
    package var shellPID: Int32? {
        let out = try? ToolRunner.run(tmux, ["-L", socket, "display-message", "-p", "-t", "test", "#{pane_pid}"]).stdout
        return out.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Ends what runs in the window (Ctrl-C; up to 3 s for the shell to have the window back,
    /// so the program cleans up before the tmux server goes) and the tmux server.
    package func close() {
        try? send("C-c")
        Poll.until(seconds: 3) { foregroundCommand == "bash" }
        _ = try? ToolRunner.runDiscardingOutput(tmux, ["-L", socket, "kill-server"])
    }
}

/// A D-Bus daemon of the test's own, standing in for the system bus
/// (`DBUS_SYSTEM_BUS_ADDRESS`), with nothing else on it.
package final class PrivateBus: Sendable {
    package let address: String
    private let daemon: ChildProcess

    package init() throws {
        let tool = try #require(ToolRunner.which("dbus-daemon"), "dbus-daemon is not installed")
        daemon = try ChildProcess(tool, ["--session", "--nofork", "--print-address=1", "--nosyslog"])
        guard let line = daemon.waitForLine(containing: "unix:", seconds: 5) else {
            daemon.stop()
            throw PulseError("dbus-daemon did not start")
        }
        address = daemon.lines[line.index].trimmingCharacters(in: .whitespaces)
    }

    package func stop() { daemon.stop() }
}
