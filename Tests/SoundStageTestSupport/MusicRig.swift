import Foundation
import Synchronization
import Testing

/// The desktop's music for a test: a D-Bus session bus of its own (dbus-daemon), a PulseAudio
/// of its own with a null sink `music`, and real MPRIS players on them: mpv with the mpv-mpris
/// plugin playing Ogg Vorbis tones tagged with a title, an artist and an album. playerctl is
/// the reference client the tests check SoundStage against. Everything it starts is stopped by
/// ``stop()``.
package final class MusicRig: Sendable {
    package let pulse: PrivatePulse
    /// The private bus's address, for `SystemMusicPlayer(busAddress:)`.
    package let busAddress: String
    /// The private bus's dbus-daemon.
    package let bus: pid_t
    private let players = Mutex<[ChildProcess]>([])

    /// Whether mpv, its MPRIS plugin, playerctl, dbus-daemon, sox and oggenc are installed
    /// (scripts/lib.sh installs them for the live tier).
    package static var isInstalled: Bool {
        ["mpv", "playerctl", "dbus-daemon", "sox", "oggenc", "pulseaudio"].allSatisfy { ToolRunner.which($0) != nil }
            && FileManager.default.fileExists(atPath: plugin)
    }

    /// mpv-mpris, as Debian installs it.
    package static let plugin = "/usr/lib/mpv-mpris/mpris.so"

    package init() throws {
        pulse = try PrivatePulse(.pulseaudio)
        do {
            _ = try pulse.addSink("music")
            let socket = pulse.runtime.appendingPathComponent("bus")
            busAddress = "unix:path=\(socket.path)"
            bus = try Spawn.start(try #require(ToolRunner.which("dbus-daemon")), ["--session", "--nofork", "--address=\(busAddress)"],
                                  environment: pulse.environment)
            guard Poll.until(seconds: 5, every: 0.02, { FileManager.default.fileExists(atPath: socket.path) }) else {
                throw PulseError("the private D-Bus did not start at \(socket.path)")
            }
        } catch {
            pulse.stop()
            throw error
        }
    }

    /// What a client of this rig runs with: the sound server and the bus.
    package var environment: [String: String] {
        pulse.environment.merging(["DBUS_SESSION_BUS_ADDRESS": busAddress]) { $1 }
    }

    /// An Ogg Vorbis file of a `hz` sine (full scale / 2), `seconds` long, tagged.
    package func song(_ name: String, hz: Int, seconds: Double = 30, title: String, artist: String, album: String) throws -> URL {
        let wav = pulse.runtime.appendingPathComponent("\(name).wav"), ogg = pulse.runtime.appendingPathComponent("\(name).ogg")
        let sox = try ToolRunner.run(try #require(ToolRunner.which("sox")),
                                     ["-n", "-r", "48000", "-c", "2", "-b", "16", "-e", "signed-integer", wav.path, "synth", "\(seconds)", "sine", "\(hz)", "vol", "0.5"])
        guard sox.status == 0 else { throw PulseError("sox failed: \(sox.stderr)") }
        let oggenc = try ToolRunner.run(try #require(ToolRunner.which("oggenc")),
                                        ["-Q", "-t", title, "-a", artist, "-l", album, "-o", ogg.path, wav.path])
        guard oggenc.status == 0 else { throw PulseError("oggenc failed: \(oggenc.stderr)") }
        return ogg
    }

    /// Starts mpv playing `files` to the sink `music` (the list looped), with its MPRIS
    /// plugin; waits until playerctl sees one more player than before, with its first file
    /// open (its length known). Returns it and its
    /// bus name's player name for playerctl (`mpv`, then `mpv.instance<pid>`).
    @discardableResult
    package func mpv(_ files: [URL], paused: Bool = false) throws -> (process: ChildProcess, name: String) {
        let before = Set(try playerNames())
        let process = try ChildProcess(try #require(ToolRunner.which("mpv")),
                                       ["--no-config", "--script=\(Self.plugin)", "--no-video", "--ao=pulse", "--audio-device=pulse/music",
                                        "--loop-playlist=inf", "--really-quiet"] + (paused ? ["--pause"] : []) + files.map(\.path),
                                       environment: environment)
        players.withLock { $0.append(process) }
        var found: String?
        Poll.until(seconds: 10, every: 0.05) {
            found = (try? playerNames())?.first { !before.contains($0) }
            return found != nil
        }
        guard let found else { throw PulseError("mpv did not come onto the bus") }
        // On the bus before its file is open: its tags (and length) come a moment later.
        guard Poll.until(seconds: 10, every: 0.05, { !((try? playerctl(["-p", found, "metadata", "mpris:length"], check: false)) ?? "").isEmpty }) else {
            throw PulseError("mpv did not open \(files.first?.lastPathComponent ?? "its file")")
        }
        return (process, found)
    }

    /// The MPRIS players playerctl sees (`mpv`, `mpv.instance1234`).
    package func playerNames() throws -> [String] {
        let listed = try playerctl(["-l"], check: false)
        return listed.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("No players") }
    }

    /// Runs playerctl on this rig's bus; returns its output, trimmed.
    @discardableResult
    package func playerctl(_ arguments: [String], check: Bool = true) throws -> String {
        let result = try ToolRunner.run(try #require(ToolRunner.which("playerctl")), arguments, environment: environment)
        if check, result.status != 0 { throw PulseError("playerctl \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (up to `seconds`) until playerctl reads `expected` for `arguments`.
    package func waitForPlayerctl(_ arguments: [String], _ expected: String, seconds: Double = 5) -> Bool {
        Poll.until(seconds: seconds, every: 0.05) { (try? playerctl(arguments, check: false)) == expected }
    }

    /// Records the sink `music`'s monitor (mono float, 48 kHz).
    package func record() throws -> ChildProcess { try pulse.record("music", latencyMilliseconds: 20) }

    package func stop() {
        for p in players.withLock({ $0 }) { p.signal(SIGCONT); p.stop() }
        kill(bus, SIGTERM)
        _ = Spawn.wait(bus)
        pulse.stop()
    }
}
