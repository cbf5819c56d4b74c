/// What an output device's stream asked of the sound server when it was last made (its
/// context created, its device reset or reopened): libpulse's `PULSE_LATENCY_MSEC`, in
/// milliseconds, and whose value it was (``AudioContext/serverLatencyRequest``).
///
/// The server chooses the periods from it. Where they would be ones OpenAL Soft 1.19.1's
/// reverb hangs in (shorter than 128 frames and not a multiple of 4: 10 ms at 44.1 kHz gives
/// 110), the context asks again with the milliseconds nearest, and says so in ``replaced``:
/// for a latency mode's milliseconds, and for the process's own `PULSE_LATENCY_MSEC` too.
public struct ServerLatencyRequest: Sendable, Hashable, CustomStringConvertible {
    /// Whose milliseconds were asked.
    public enum Origin: String, Sendable, Hashable {
        /// A latency mode's (``LatencyMode/requestedMilliseconds``), SoundStage's own request.
        case mode
        /// The process's own `PULSE_LATENCY_MSEC`, set before SoundStage's first OpenAL call:
        /// it decides, and the modes are not asked (``AudioContext/followsLatencyModes``).
        case process
    }

    /// The milliseconds the stream asked of the server.
    public let milliseconds: Int
    /// Whose they were.
    public let origin: Origin
    /// The milliseconds the origin asked first, when the periods they gave were not whole and
    /// ``milliseconds`` were asked in their place; nil when they were kept.
    public let replaced: Int?
    /// The mixer's period the server gave, in frames (nil when the device did not say).
    public let periodFrames: Int?
    /// The device's rate, in Hz.
    public let sampleRate: Int

    /// The period ``milliseconds`` ask for: a quarter of the buffer, as PulseAudio and
    /// pipewire-pulse make it (12 ms at 48 kHz: 144 frames).
    public var askedPeriodFrames: Int { milliseconds * sampleRate / 4_000 }

    /// Whether the server gave a period well above the one asked (more than half as long
    /// again): its floor, not the request, decided the latency. PipeWire's pipewire-pulse
    /// gives no less than its `pulse.min.quantum` (256 frames at 48 kHz by default, 5.3 ms,
    /// and more in a virtual machine), where PulseAudio gave `.low` its 144 frames.
    public var metServerFloor: Bool { (periodFrames ?? 0) * 2 > askedPeriodFrames * 3 }

    /// What the period says where the server's floor set it, e.g. `the server's floor: 144
    /// asked; on PipeWire, its pulse.min.quantum`; nil where the request did.
    public var floorNote: String? {
        metServerFloor ? "the server's floor: \(askedPeriodFrames) asked; on PipeWire, its pulse.min.quantum" : nil
    }

    /// E.g. `12 ms asked (the latency mode's); period 132 frames`, or `8 ms asked in place of
    /// 10 (the process's PULSE_LATENCY_MSEC), whose periods OpenAL Soft 1.19.1's reverb hangs
    /// in; period 88 frames`.
    public var description: String {
        let whose = origin == .mode ? "the latency mode's" : "the process's PULSE_LATENCY_MSEC"
        let head = replaced.map { "\(milliseconds) ms asked in place of \($0) (\(whose)), whose periods OpenAL Soft 1.19.1's reverb hangs in" }
            ?? "\(milliseconds) ms asked (\(whose))"
        let floor = floorNote.map { " (\($0))" } ?? ""
        return head + (periodFrames.map { "; period \($0) frames\(floor)" } ?? "")
    }
}
