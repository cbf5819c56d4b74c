import Foundation
import SoundStage
import Testing

/// A null sink of one test's own on the sound server the test script starts, so what the test
/// plays into it (and records from its monitor) is not mixed with the other suites' sounds.
/// ``stop()`` unloads it.
package final class RecordingRig {
    package let sinkName: String
    /// The sink's description, which names its monitor in OpenAL's capture list.
    package let label: String
    private let module: String

    /// Whether the recording suites can run: a server answers, or the test script promised one.
    package static var enabled: Bool { PulseServer.answers || PulseServer.expected }

    /// Whether the timing suites on the server run in this pass: not when the test script
    /// runs them later, alone (`SOUNDSTAGE_TIMING_TESTS=later`).
    package static var timingEnabled: Bool { enabled && ProcessInfo.processInfo.environment["SOUNDSTAGE_TIMING_TESTS"] != "later" }

    /// Whether the suite runs under a sanitizer (`scripts/sanitize.sh` says which): tests that
    /// measure whether capture keeps up in real time do not run then, as the sanitizer slows
    /// every thread several times.
    package static var underSanitizer: Bool { ProcessInfo.processInfo.environment["SOUNDSTAGE_SANITIZER"] != nil }

    package init() throws {
        // Recorders record only in a category that can (as AVAudioRecorder); for players,
        // playAndRecord behaves as the default category.
        try AudioSession.shared.setCategory(.playAndRecord)
        let id = UUID().uuidString.prefix(8)
        sinkName = "rec_\(id)"
        label = "Rec\(id)"
        let pactl = try #require(ToolRunner.which("pactl"))
        let loaded = try ToolRunner.run(pactl, ["load-module", "module-null-sink", "sink_name=\(sinkName)", "sink_properties=device.description=\(label)"])
        guard loaded.status == 0 else { throw PulseError("cannot add a null sink: \(loaded.stderr)") }
        module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Poll.until(seconds: 5, every: 0.05, { AudioDevice.captureDevices.contains(monitor) }) else {
            throw PulseError("OpenAL does not list \(monitor): \(AudioDevice.captureDevices)")
        }
    }

    /// The OpenAL name of the sink's monitor source.
    package var monitor: String { "Monitor of \(label)" }

    /// Plays `file` into the sink with paplay; returns its pid (``Spawn/wait(_:)`` for its end).
    package func play(_ file: URL) throws -> pid_t {
        try Spawn.start(try #require(ToolRunner.which("paplay")), ["--device=\(sinkName)", file.path])
    }

    /// Writes a `seconds`-long 1 kHz tone into `folder` and plays it into the sink (a monitor
    /// delivers nothing while its sink plays nothing); ``stopPlaying(_:)`` ends it.
    package func playTone(in folder: TemporaryFolder, seconds: Double) throws -> pid_t {
        let tone = folder.file("tone.wav")
        try Self.tone(tone, seconds: seconds)
        return try play(tone)
    }

    /// Waits until the sink plays (``SinkState``), as after ``play(_:)``.
    package func waitUntilPlaying(seconds: Double = 10) throws {
        let pactl = try #require(ToolRunner.which("pactl"))
        try SinkState.waitUntilRunning(sinkName, seconds: seconds) { try ToolRunner.run(pactl, ["list", "short", "sinks"]).stdout }
    }

    /// Ends a paplay ``play(_:)`` started, and waits for it.
    package static func stopPlaying(_ player: pid_t) {
        kill(player, SIGTERM)
        _ = Spawn.wait(player)
    }

    /// Sleeps until `instant` (at once if it is past): the timeline of a test's calls.
    package static func sleep(until instant: ContinuousClock.Instant) {
        let left = (instant - ContinuousClock.now).components
        let wait = Double(left.seconds) + Double(left.attoseconds) * 1e-18
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// Removes the sink.
    package func stop() {
        if let pactl = ToolRunner.which("pactl") { _ = try? ToolRunner.run(pactl, ["unload-module", module]) }
    }

    /// A stereo WAV at 48 kHz of sines one after another: each (frequency, amplitude, seconds).
    package static func tones(_ url: URL, _ parts: [(frequency: Double, amplitude: Float, seconds: Double)]) throws {
        var samples: [Float] = []
        for part in parts {
            for i in 0..<Int(part.seconds * 48_000) {
                let v = part.amplitude * Float(sin(2 * .pi * part.frequency * Double(i) / 48_000))
                samples += [v, v]
            }
        }
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo), samples: samples).writeWAV(to: url, as: .float32)
    }

    /// A stereo WAV of white noise at amplitude 0.5 (seeded), `seconds` long, at 48 kHz:
    /// what an encoder cannot squeeze.
    package static func noise(_ url: URL, seconds: Double) throws {
        var generator = SystemRandomNumberGenerator()
        let samples = (0..<Int(seconds * 48_000) * 2).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo), samples: samples).writeWAV(to: url, as: .pcm16)
    }

    /// A stereo WAV of a `frequency` sine at `amplitude`, `seconds` long, at 48 kHz.
    package static func tone(_ url: URL, frequency: Double = 1_000, amplitude: Float = 0.5, seconds: Double) throws {
        try tones(url, [(frequency, amplitude, seconds)])
    }
}

/// Collects a recorder's events as they come, as its delegate (keep it alive: the recorder
/// holds its delegate weakly).
package final class RecorderEventLog: RecorderDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [RecorderEvent] = []

    package init(_ recorder: Recorder) { recorder.delegate = self }

    package func recorderDidFinishRecording(_ recorder: Recorder, successfully: Bool) {
        lock.withLock { events.append(.finished(successfully: successfully)) }
    }

    package func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError) {
        lock.withLock { events.append(.encodeError(error)) }
    }

    package func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError) {
        lock.withLock { events.append(.deviceLost(error)) }
    }

    /// Waits up to `seconds` for an event `matching`.
    package func wait(seconds: Double, for matching: (RecorderEvent) -> Bool) -> Bool {
        Poll.until(seconds: seconds) { all.contains(where: matching) }
    }

    package var all: [RecorderEvent] { lock.withLock { events } }

    /// The finished events so far, by their success.
    package var finishes: [Bool] { all.compactMap { if case .finished(let ok) = $0 { return ok } else { return nil } } }

    /// Waits up to `seconds` for a finished event.
    package func waitForFinish(seconds: Double) -> Bool {
        Poll.until(seconds: seconds) { !finishes.isEmpty }
    }
}
