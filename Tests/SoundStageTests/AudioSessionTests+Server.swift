import Foundation
import Testing
import SoundStage

/// The session against a real PulseAudio server of the test's own, with `soundstage session`
/// as the game: a child process, so that the server can be changed, killed and restarted,
/// and OpenAL Soft configured, without touching this process.
@Suite("AudioSession on a real sound server: lost sinks, a server that dies and returns", .serialized)
struct AudioSessionServerTests {
    static var enabled: Bool { PulseServer.expected || ToolRunner.which("pulseaudio") != nil }

    /// The 440 Hz level in dB of the last `seconds` of a monitor recording (-160 if empty).
    static func toneLevel(_ samples: [Float], lastSeconds seconds: Double) -> (dB: Double, hz: Double) {
        let tail = Array(samples.suffix(Int(seconds * 48_000)))
        guard tail.count > 4_800 else { return (-160, 0) }
        return (Measure.dB(tail), Measure.peakFrequency(tail, sampleRate: 48_000))
    }

    @Test("the sink in use unloaded mid-play: music pauses, an effect moves to the remaining sink and is heard there")
    func sinkUnloaded() throws {
        try #require(Self.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        let first = try pulse.addSink("first")
        _ = try pulse.addSink("second")
        try pulse.pactl(["set-default-sink", "first"])
        let music = try pulse.session(["--tone", "440", "--status-every", "0.1"])
        let effect = try pulse.session(["--tone", "440", "--effect"])
        defer { music.stop(); effect.stop() }
        #expect(music.waitForLine(containing: "playing sine") != nil && effect.waitForLine(containing: "playing sine") != nil)
        Thread.sleep(forTimeInterval: 0.5)
        let second = try pulse.record("second")
        defer { second.stop() }
        let unloaded = ContinuousClock.now
        try pulse.pactl(["set-default-sink", "second"])
        try pulse.pactl(["unload-module", first])
        let moved = try #require(effect.waitForLine(containing: "routeChanged(oldDeviceUnavailable"), "\(effect.lines)")
        #expect(moved.at - unloaded < .milliseconds(500))
        #expect(music.waitForLine(containing: "routeChanged(oldDeviceUnavailable") != nil, "\(music.lines)")
        let paused = music.waitForLine(containing: "status: paused")
        #expect(paused != nil, "music pauses when its device goes: \(music.lines.suffix(5))")
        Thread.sleep(forTimeInterval: 2)
        let heard = Self.toneLevel(second.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the effect on the second sink: \(heard)")
    }

    @Test("PulseAudio killed and restarted: the engine waits, then plays on the new server")
    func serverRestarted() throws {
        try #require(Self.enabled, "PulseAudio is not installed")
        let pulse = try PrivatePulse()
        defer { pulse.stop() }
        _ = try pulse.addSink("first")
        let child = try pulse.session(["--tone", "440", "--effect"])
        defer { child.stop() }
        #expect(child.waitForLine(containing: "playing sine") != nil)
        Thread.sleep(forTimeInterval: 0.3)
        try pulse.kill()
        #expect(child.waitForLine(containing: "outputUnavailable") != nil, "\(child.lines)")
        let before = child.lines.count
        try pulse.start()
        _ = try pulse.addSink("first")
        let back = child.waitForLine(containing: "routeChanged(", after: before)
        #expect(back != nil, "\(child.lines)")
        let monitor = try pulse.record("first")
        defer { monitor.stop() }
        Thread.sleep(forTimeInterval: 2)
        let heard = Self.toneLevel(monitor.samples, lastSeconds: 1)
        #expect(heard.dB > -30 && abs(heard.hz - 440) < 5, "the tone on the restarted server: \(heard)")
        #expect(child.isRunning)
    }
}
