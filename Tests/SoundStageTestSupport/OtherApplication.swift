import Foundation
import Testing

/// Another application playing on a test's own sound server: paplay playing a sine tone, under
/// an application name of the test's choosing, its stream read and set with pactl as a user's
/// mixer would.
package final class OtherApplication: Sendable {
    package let name: String
    package let process: ChildProcess
    private let pulse: PrivatePulse

    /// A stream as pactl shows it.
    package struct Stream: Sendable, Equatable {
        package var index: UInt32
        package var application: String
        /// Per channel, `pa_volume_t` (65536 is 100 %).
        package var volume: [UInt32]
    }

    /// Starts paplay playing a `hz` sine (full scale / 2, 60 s) to `sink` as application `name`;
    /// waits until its stream is on the server.
    package init(_ pulse: PrivatePulse, name: String, hz: Int, sink: String, properties: [String: String] = [:]) throws {
        self.pulse = pulse
        self.name = name
        let wav = pulse.runtime.appendingPathComponent("\(name)-\(hz).wav")
        if !FileManager.default.fileExists(atPath: wav.path) {
            let made = try ToolRunner.run(try sox(), ["-n", "-r", "48000", "-c", "2", "-b", "16", "-e", "signed-integer", wav.path,
                                                       "synth", "60", "sine", "\(hz)", "vol", "0.5"])
            guard made.status == 0 else { throw PulseError("sox failed: \(made.stderr)") }
        }
        let extra = ([("application.name", name)] + properties.sorted { $0.key < $1.key }).map { "--property=\($0.0)=\($0.1)" }
        process = try ChildProcess(try #require(ToolRunner.which("paplay")), ["-d", sink] + extra + [wav.path], environment: pulse.environment)
        guard Poll.until(seconds: 10, every: 0.05, { (try? Self.streams(pulse))?.contains { $0.application == name } ?? false }) else {
            process.stop()
            throw PulseError("paplay (\(name)) did not come onto the server")
        }
    }

    /// Its stream now (nil once gone).
    package var stream: Stream? { (try? Self.streams(pulse))?.last { $0.application == name } }

    /// Sets its volume as a mixer would (`pactl set-sink-input-volume`), in percent.
    package func setVolume(percent: Int) throws {
        let index = try #require(stream?.index)
        let set = try pulse.pactl(["set-sink-input-volume", "\(index)", "\(percent)%"])
        guard set.status == 0 else { throw PulseError("pactl set-sink-input-volume failed: \(set.stderr)") }
        // pactl rounds 80 % down to 52428, 70 % to 45875.
        guard waitForVolume(UInt32(65536 * percent / 100), tolerance: 1) else {
            throw PulseError("the volume of \(name) did not read \(percent) %")
        }
    }

    /// Waits until its volume reads `volume` (each channel within `tolerance`).
    package func waitForVolume(_ volume: UInt32, tolerance: UInt32 = 0, seconds: Double = 5) -> Bool {
        Poll.until(seconds: seconds, every: 0.02) {
            guard let now = stream?.volume, !now.isEmpty else { return false }
            return now.allSatisfy { (max($0, volume) - min($0, volume)) <= tolerance }
        }
    }

    package func stop() { process.stop() }

    /// The server's streams (`pactl list sink-inputs`).
    package static func streams(_ pulse: PrivatePulse) throws -> [Stream] {
        let listed = try pulse.pactl(["list", "sink-inputs"]).stdout
        return listed.components(separatedBy: "Sink Input #").dropFirst().compactMap { block in
            guard let index = UInt32(block.prefix { $0.isNumber }) else { return nil }
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let volume = lines.first { $0.hasPrefix("Volume:") }.map { line in
                line.split(separator: ",").compactMap { channel in
                    channel.split(separator: ":").last.flatMap { UInt32($0.split(separator: "/").first?.trimmingCharacters(in: .whitespaces) ?? "") }
                }
            } ?? []
            let application = lines.first { $0.hasPrefix("application.name = ") }.map { String($0.dropFirst("application.name = ".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? ""
            return Stream(index: index, application: application, volume: volume)
        }
    }
}
