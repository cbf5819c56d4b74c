import Foundation
import SoundStageCore
import SoundStageSession

/// How long sound takes through a device and back: measured by ``LatencyProbe``.
public struct LatencyMeasurement: Sendable, CustomStringConvertible {
    /// The output device played to.
    public let outputDevice: String
    /// The capture device listened with.
    public let captureDevice: String
    /// The latency mode the output was asked for (nil: none, OpenAL Soft's own periods).
    public let mode: LatencyMode?
    /// The mixer's period the output got, in frames (nil if the device did not say).
    public let periodFrames: Int?
    /// What the output's stream asked of the sound server (nil: nothing, OpenAL Soft's own
    /// periods): the mode's milliseconds or the process's own `PULSE_LATENCY_MSEC`, and what
    /// was asked in their place when their periods were not whole.
    public let serverRequest: ServerLatencyRequest?
    /// OpenAL's output latency while the clicks played (`AL_SOFT_source_latency`): from a
    /// sample leaving the mixer to the device's output.
    public let outputSeconds: Double
    /// From asking OpenAL to play a click to the click reaching the capture reader, the
    /// median over the clicks heard.
    public let roundTripSeconds: Double
    /// The spread of the round trips (largest less smallest).
    public let spreadSeconds: Double
    /// Clicks played.
    public let clicks: Int
    /// Clicks heard.
    public let heard: Int

    /// What the round trip leaves after the output: the way in, from the device's input to
    /// the capture reader. Nil when the round trip is shorter than the output latency: the
    /// capture taps the output before it reaches the device's output (a sound server's
    /// monitor of a virtual sink does), so the two cannot be told apart.
    public var inputSeconds: Double? { roundTripSeconds >= outputSeconds ? roundTripSeconds - outputSeconds : nil }

    /// For example `output 40.1 ms, input 52.3 ms, round trip 92.4 ms (5 of 5 clicks heard, spread 1.2 ms)`.
    public var description: String {
        let input = inputSeconds.map { String(format: "%.1f ms", $0 * 1_000) } ?? "not separable (the capture hears the output before its output latency, as a monitor does)"
        return String(format: "output %.1f ms, input %@, round trip %.1f ms (%d of %d clicks heard, spread %.1f ms)",
                      outputSeconds * 1_000, input, roundTripSeconds * 1_000, heard, clicks, spreadSeconds * 1_000)
    }
}

/// Measures round-trip latency: plays clicks on an output device and listens for them on a
/// capture device that hears that output (a sound server's monitor of it, or a microphone
/// or loopback cable), timing each from the play call to the capture reader.
public enum LatencyProbe {
    /// Plays `clicks` clicks, 0.3 s apart, on the output device named `output` (the default
    /// when nil) and times them through the capture device named `capture` (the default
    /// when nil), the output asked for `latency` (nil: OpenAL Soft's own periods).
    ///
    /// - Throws: what opening the devices throws, and
    ///   ``SoundStageError/Code-swift.struct/invalidState`` when no click is heard (the
    ///   capture device does not hear that output).
    public static func measure(output: String? = nil, capture: String? = nil, clicks: Int = 5,
                               latency: LatencyMode? = nil) throws -> LatencyMeasurement {
        let object = "latency probe"
        let rate = 48_000
        let device = try AudioDevice.openOutput(named: output)
        let context = try AudioContext(device: device, attributes: ContextAttributes(latency: latency))
        var click = [Float](repeating: 0, count: rate / 100)
        for i in 0..<48 { click[i] = 0.9 * (i % 2 == 0 ? 1 : -1) }
        let buffer = try AudioBuffer(context: context, samples: click, sampleRate: rate, label: "click")
        let source = try AudioSource(context: context)
        try source.setBuffer(buffer)
        try source.set(.isRelative, to: true)
        let input = try CaptureDevice.open(named: capture, format: RenderFormat(sampleRate: rate, channels: .mono), bufferSeconds: 2)
        let started = ContinuousClock.now
        func now() -> Double { (ContinuousClock.now - started).seconds }
        var captured = 0
        var origin = Double.infinity
        var pending: [Float] = []
        /// Reads what was captured, keeping the clock time of frame 0 as closely as the reads tell.
        func read() throws {
            let samples = try input.read()
            captured += samples.count
            if captured > 0 { origin = min(origin, now() - Double(captured) / Double(rate)) }
            pending += samples
        }
        input.start()
        defer { input.stop() }
        // The capture must flow before the first click (a monitor can take a second to start).
        let deadline = ContinuousClock.now + .seconds(3)
        while captured == 0, ContinuousClock.now < deadline {
            try read()
            Thread.sleep(forTimeInterval: 0.005)
        }
        var trips: [Double] = []
        var outputs: [Double] = []
        for _ in 0..<max(1, clicks) {
            try read()
            pending.removeAll()
            let base = captured
            let played = now()
            try source.play()
            var heardAt: Double?
            let until = now() + 0.3
            while now() < until {
                Thread.sleep(forTimeInterval: 0.002)
                // The device's output latency (the same for every source), read all along: read
                // only while the 10 ms click played, a few reads of a stream whose timing the
                // server had not yet reported (0) made the median 0 (CI, once).
                let latency = source.get(.offsetWithLatency).latency
                if latency > 0 { outputs.append(latency) }
                try read()
                if heardAt == nil, let k = pending.firstIndex(where: { abs($0) > 0.1 }) {
                    heardAt = origin + Double(base + k) / Double(rate)
                }
            }
            if let heardAt { trips.append(heardAt - played) }
        }
        guard !trips.isEmpty else {
            throw SoundStageError(.invalidState, operation: "LatencyProbe.measure", object: object,
                                  reason: "no click was heard on \(input.name): does it hear \(device.name)? (a sound server's monitor of that output, or a cable from it)")
        }
        trips.sort()
        return LatencyMeasurement(outputDevice: device.name, captureDevice: input.name, mode: latency,
                                  periodFrames: context.periodFrames, serverRequest: context.serverLatencyRequest, outputSeconds: outputs.isEmpty ? 0 : outputs.sorted()[outputs.count / 2],
                                  roundTripSeconds: trips[trips.count / 2], spreadSeconds: trips.last! - trips.first!, clicks: max(1, clicks), heard: trips.count)
    }
}
