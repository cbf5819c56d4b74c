import Foundation
import SoundStage
import Testing

/// What the timing tests on the real sound server share: an engine on a rig's own sink,
/// handed over once OpenAL Soft's stream mixes, and parec recording the sink's monitor.
package enum ServerListening {
    /// An engine on `rig`'s sink, once OpenAL lists the sink and the engine's stream mixes in
    /// time:
    /// OpenAL Soft's PulseAudio stream starts a while after the device opens (measured: about
    /// 1.7 s on the test server; its clock stands still until then).
    package static func engine(on rig: RecordingRig, attributes: ContextAttributes = ContextAttributes(hrtf: .off)) async throws -> AudioEngine {
        let listed = ContinuousClock.now
        while !AudioDevice.outputDevices.contains(rig.label) {
            try #require(ContinuousClock.now - listed < .seconds(5), "OpenAL does not list \(rig.label): \(AudioDevice.outputDevices)")
            try await Task.sleep(for: .milliseconds(50))
        }
        let engine = try AudioEngine(output: .named(rig.label), attributes: attributes)
        // Until it has mixed half a second: its first mix is a burst that fills the server's
        // buffer, and a starved stream must meet a mixer that keeps time.
        let opened = try #require(engine.device.clockNanoseconds)
        let start = ContinuousClock.now
        while (engine.device.clockNanoseconds ?? opened) - opened < 500_000_000 {
            try #require(ContinuousClock.now - start < .seconds(10), "the device's clock does not move")
            try await Task.sleep(for: .milliseconds(20))
        }
        return engine
    }

    /// parec recording `rig`'s monitor, mono float32 at `rate`, into `file`; handed over once
    /// it has recorded `seconds` (its stream, too, takes a while to start on a busy server).
    package static func record(_ rig: RecordingRig, rate: Int, to file: URL, after seconds: Double = 0.2) async throws -> Process {
        let parec = try #require(ToolRunner.which("parec"), "parec (pulseaudio-utils) is needed")
        let recorder = Process()
        recorder.executableURL = parec
        recorder.arguments = ["--latency-msec=20", "--raw", "--format=float32le", "--channels=1", "--rate=\(rate)", "-d", "\(rig.sinkName).monitor", file.path]
        try recorder.run()
        let started = ContinuousClock.now
        while fileSize(file) < Int(seconds * Double(rate)) * 4 {
            try #require(ContinuousClock.now - started < .seconds(20), "parec records nothing")
            try await Task.sleep(for: .milliseconds(20))
        }
        return recorder
    }

    /// Ends parec (SIGTERM ends it at once; on SIGINT it would drain) and reads what it wrote.
    package static func stop(_ recorder: Process, reading file: URL) async throws -> [Float] {
        kill(recorder.processIdentifier, SIGTERM)
        let end = ContinuousClock.now + .seconds(5)
        while recorder.isRunning && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(20)) }
        if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) }
        let data = try Data(contentsOf: file)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The underruns an engine's event stream reported (it ends when the engine goes).
    package static func underruns(_ events: AsyncStream<EngineEvent>) async -> [StreamUnderrun] {
        await trouble(events).underruns
    }

    /// What an engine's event stream reported of its output's troubles (it ends when the
    /// engine goes): streams that ran dry, and the dropouts the sound server played.
    package static func trouble(_ events: AsyncStream<EngineEvent>) async -> (underruns: [StreamUnderrun], dropouts: [OutputDropout]) {
        var found: (underruns: [StreamUnderrun], dropouts: [OutputDropout]) = ([], [])
        for await event in events {
            switch event {
            case .streamUnderrun(let underrun): found.underruns.append(underrun)
            case .outputDropout(let dropout): found.dropouts.append(dropout)
            default: break
            }
        }
        return found
    }

    /// The size of the file at `url` in bytes (0 when it is not there yet).
    package static func fileSize(_ url: URL) -> Int {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_size) : 0
    }
}
