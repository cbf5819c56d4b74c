import Foundation

/// Whether a sink plays, as the sound server says: the event a test waits for before it
/// records or disturbs a sound, rather than a sleep guessing how long a player takes to start
/// (longer on a loaded machine).
package enum SinkState {
    /// Waits until `sink`'s state is `RUNNING` (a stream plays into it); `listSinks` gives
    /// `pactl list short sinks` of its server (index, name, module, sample spec, state).
    /// Throws after `seconds`.
    package static func waitUntilRunning(_ sink: String, seconds: Double = 10, listSinks: () throws -> String) throws {
        let running = try Poll.until(seconds: seconds) {
            try listSinks().split(separator: "\n").contains { line in
                let fields = line.split(separator: "\t")
                return fields.count >= 5 && fields[1] == Substring(sink) && fields[4] == "RUNNING"
            }
        }
        if running { return }
        throw PulseError("the sink \(sink) did not start playing within \(seconds) s")
    }
}
