import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// drumdub started by a player who set `PULSE_LATENCY_MSEC` themselves, to values whose
/// periods OpenAL Soft 1.19.1's reverb hangs in at 44.1 kHz (5, 10, 11 ms: 55, 110, 121
/// frames), drummed with the room reverb changed twice a second: the game asks the milliseconds
/// nearest that give whole periods, says so on screen, and plays on. Run apart in the full
/// tier (a minute each there, 10 s otherwise).
@Suite("DrumDub with the player's own PULSE_LATENCY_MSEC, the reverb changing", .serialized, .enabled(if: RecordingRig.timingEnabled))
struct DrumDubOwnLatencyTests {
    /// How long each is drummed: 60 s in the full tier.
    static let seconds = TestTier.isFull ? 60.0 : 10.0

    @Test("PULSE_LATENCY_MSEC of 5, 10, 11 ms: whole periods asked in its place, shown on screen; a drum every 250 ms and the reverb changed every 500 ms play throughout, and q ends the game",
          arguments: [5, 10, 11])
    func reverbChangesPlayOn(milliseconds: Int) throws {
        let game = try DrumDubGame(sinks: ["cd"], environment: ["PULSE_LATENCY_MSEC": "\(milliseconds)"])
        defer { game.stop() }
        #expect(game.terminal.waitFor("PULSE_LATENCY_MSEC=\(milliseconds) ("), "the screen says what was asked in its place: \(game.terminal.screen)")
        let recording = try game.pulse.record("cd", channels: 2, latencyMilliseconds: 10)
        defer { recording.stop() }
        // parec hands its first data a while after it starts: the drumming starts with it.
        #expect(recording.waitForFrames(4_800, channels: 2), "the sink's monitor records")
        let first = recording.frames(channels: 2)
        let start = ContinuousClock.now
        var beat = 0
        // When each drum was asked, in seconds after the start.
        var asked: [Double] = []
        while ContinuousClock.now - start < .seconds(Self.seconds) {
            asked.append((ContinuousClock.now - start).seconds)
            try game.press(["1", "2", "3", "4"][beat % 4])
            if beat % 2 == 1 { try game.press("r") }
            beat += 1
            Thread.sleep(forTimeInterval: 0.25)
        }
        try game.press("q")
        #expect(game.terminal.waitFor("drumdub: bye", seconds: 10), "the game ends on q: \(game.terminal.screen)")
        recording.stop()
        // A mixer hung in the reverb's cross-fade plays nothing from then on: every second
        // after the first holds the drums (a hit every 250 ms, each above -30 dBFS).
        let samples = Array(recording.samples.dropFirst(2 * first)), second = 2 * 48_000
        let seconds = samples.count / second
        #expect(Double(seconds) >= Self.seconds - 1, "\(seconds) s recorded of \(Self.seconds)")
        let silent = (1..<max(1, seconds)).filter { Measure.dB(Array(samples[($0 * second)..<(($0 + 1) * second)])) < -50 }
        // A second the test itself asked fewer than two drums for (its own thread late on a
        // loaded machine: each key is a tmux call) says nothing of the game; its drums are
        // looked for from 0.2 s before the second (the recording starts a little after the
        // clock) to 0.2 s before its end (the output's latency).
        let drumsAsked = { (k: Int) in asked.filter { $0 >= Double(k) - 0.2 && $0 < Double(k) + 0.8 }.count }
        let quiet = silent.filter { drumsAsked($0) >= 2 }
        let unasked = silent.filter { drumsAsked($0) < 2 }
        let longestPause = zip(asked, asked.dropFirst()).map { $1 - $0 }.max() ?? 0
        print("drumdub with PULSE_LATENCY_MSEC=\(milliseconds): \(beat) drums, \(beat / 2) reverb changes, \(seconds) s recorded, \(quiet.count) silent seconds"
              + " (and \(unasked.count) the test asked fewer than two drums for: \(unasked.prefix(10)); its longest pause between drums \(longestPause) s)")
        #expect(quiet.isEmpty, "silent seconds of the recording, with the drums asked in each: \(quiet.prefix(10).map { "\($0): \(drumsAsked($0))" })")
    }
}
