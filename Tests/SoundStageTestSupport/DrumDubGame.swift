import Foundation
import Testing
import SoundStage

/// drumdub's game running in a real terminal (tmux, 80 x 24) on a PulseAudio server of the
/// test's own, OpenAL Soft on its pulse backend, under the OpenAL error traps. The shell
/// saves `stty -g` before the game and after it, so a test can tell the terminal came back.
package final class DrumDubGame {
    package let pulse: PrivatePulse
    package let terminal: Terminal
    package let folder: TemporaryFolder

    /// Starts a server with null sinks `sinks` (`name` or `name:Description`), the first the
    /// default, and the game on it; waits until the game shows its screen.
    /// `wrapped` runs the game under a non-interactive shell that waits for it (`bash -c` with
    /// a command after the game, so bash does not exec it), as `scripts/demo.sh` does.
    /// `environment` adds to the game's; `server` is PulseAudio or PipeWire.
    package init(sinks: [String] = ["game"], wrapped: Bool = false, environment: [String: String] = [:],
                 server: PrivatePulse.Kind = .pulseaudio) throws {
        try #require(server.isInstalled, "\(server) is not installed")
        pulse = try PrivatePulse(server)
        folder = try TemporaryFolder()
        terminal = try Terminal(columns: 80, rows: 24)
        for sink in sinks {
            let parts = sink.split(separator: ":").map(String.init)
            let description = parts.count > 1 ? " sink_properties=device.description=\(parts[1])" : ""
            try pulse.pactl(["load-module", "module-null-sink", "sink_name=\(parts[0])"] + (description.isEmpty ? [] : [String(description.dropFirst())]))
        }
        try pulse.pactl(["set-default-sink", String(sinks[0].split(separator: ":")[0])])
        let demo = try #require(ToolRunner.product("drumdub"), "drumdub is built beside the tests")
        var env = pulse.environment.merging(environment) { _, added in added }
        env["ALSOFT_DRIVERS"] = "pulse"
        let assignments = env.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        let game = "env \(assignments) \(demo.path) --assets \(Assets.folder.path)"
        try terminal.run("stty -g > \(folder.file("stty-before").path); \(wrapped ? "bash -c '\(game); echo wrapper done'" : game); stty -g > \(folder.file("stty-after").path)")
        guard terminal.waitFor("session active", seconds: 20) else {
            stop()
            throw PulseError("the game did not start: \(terminal.screen)")
        }
    }

    package var screen: DrumDubScreen { DrumDubScreen(terminal.screen) }

    /// What the screen shows and what the game's threads are doing: for a failure message
    /// where the game stopped answering.
    package var diagnosis: String {
        let screen = terminal.screen
        guard let shell = terminal.shellPID,
              let game = ThreadDump.descendants(of: shell).first(where: {
                  ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) ?? "").hasSuffix("/drumdub")
              }) else { return screen + "\n(the game's process is not running)" }
        return screen + "\n" + ThreadDump.of(game)
    }

    /// Presses keys (tmux key names: "1", "a", "C-z", "Left").
    package func press(_ keys: String...) throws { for key in keys { try terminal.send(key) } }

    /// The music's playhead as the screen shows it ("music  playing  3.4/8 s").
    package var musicTime: Double? {
        guard let line = terminal.screen.components(separatedBy: "\n").first(where: { $0.contains("music  ") }),
              let range = line.range(of: #"[0-9]+\.[0-9]/8"#, options: .regularExpression) else { return nil }
        return Double(line[range].dropLast(2))
    }

    /// Whether the shell's terminal settings after the game are those before it (waits up to
    /// 5 s for the shell to save them after the game).
    package var terminalRestored: Bool {
        Poll.until(seconds: 5) { ((try? Data(contentsOf: folder.file("stty-after")))?.count ?? 0) > 0 }
        let before = try? String(contentsOf: folder.file("stty-before"), encoding: .utf8)
        let after = try? String(contentsOf: folder.file("stty-after"), encoding: .utf8)
        return before != nil && before == after
    }

    package func stop() {
        terminal.close()
        pulse.stop()
    }

    /// Waits until a recording's last 100 ms is louder than `dB` (the music reached the sink).
    package static func waitForSound(_ recording: ChildProcess, channels: Int = 1, above dB: Double = -40, seconds: Double = 15) -> Bool {
        Poll.until(seconds: seconds, every: 0.05) {
            let samples = recording.samples
            return samples.count > 4_800 * channels && Measure.dB(Array(samples.suffix(4_800 * channels))) > dB
        }
    }

    /// Waits until a recording holds `frames` frames or more and its last 100 ms is quieter
    /// than `dB` (a sound has rung out and the recording has caught up with it).
    package static func waitForQuiet(_ recording: ChildProcess, after frames: Int, channels: Int = 1, below dB: Double = -60, seconds: Double = 15) -> Bool {
        Poll.until(seconds: seconds, every: 0.05) {
            let samples = recording.samples
            return samples.count >= frames * channels && Measure.dB(Array(samples.suffix(4_800 * channels))) < dB
        }
    }

    /// The longest run of silent samples (|x| < 1e-4) in a mono recording: where it starts
    /// and how many samples long it is.
    package static func longestSilence(_ samples: [Float]) -> (start: Int, length: Int) {
        var best = (start: 0, length: 0), start = 0
        for (i, x) in samples.enumerated() {
            if abs(x) >= 1e-4 { start = i + 1 } else if i + 1 - start > best.length { best = (start, i + 1 - start) }
        }
        return best
    }

    /// Where in `loop` (mono, 48 kHz) the `window` of a recording is found: the offset of best
    /// normalised correlation, searched at a quarter of the rate, and the eight best places of
    /// that search (each 256 frames or more from the others) refined at full rate. drumdub's
    /// loop is much alike with itself (steady chords, a 2 Hz tremolo: places 1 s apart in a bar
    /// score 0.996 and more against 0.9985 at a quarter of the rate), so the best quarter-rate
    /// place alone may be the wrong one.
    package static func offset(of window: [Float], in loop: [Float]) -> (offset: Int, correlation: Double) {
        func score(_ a: UnsafeBufferPointer<Float>, _ b: UnsafeBufferPointer<Float>, at offset: Int, step: Int) -> Double {
            var dot = 0.0, aa = 0.0, bb = 0.0
            var i = 0
            while i < a.count {
                let x = Double(a[i]), y = Double(b[(offset + i) % b.count])
                dot += x * y; aa += x * x; bb += y * y
                i += step
            }
            return dot / max(1e-12, (aa * bb).squareRoot())
        }
        return window.withUnsafeBufferPointer { w in
            loop.withUnsafeBufferPointer { l in
                var coarse: [(offset: Int, correlation: Double)] = []
                for offset in stride(from: 0, to: l.count, by: 4) { coarse.append((offset, score(w, l, at: offset, step: 4))) }
                coarse.sort { $0.correlation > $1.correlation }
                var places: [Int] = []
                for c in coarse where places.count < 8 {
                    let apart = places.allSatisfy { p in
                        let d = abs(p - c.offset)
                        return min(d, l.count - d) >= 256
                    }
                    if apart { places.append(c.offset) }
                }
                var best = (offset: 0, correlation: -2.0)
                for place in places {
                    for offset in (place - 8)...(place + 8) {
                        let o = (offset + l.count) % l.count
                        let s = score(w, l, at: o, step: 1)
                        if s > best.correlation { best = (o, s) }
                    }
                }
                return best
            }
        }
    }
}
