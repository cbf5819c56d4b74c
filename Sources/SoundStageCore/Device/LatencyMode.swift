/// How far ahead of the sound server an output device mixes: the lowest modes answer a key
/// soonest and ask the most of the machine, the safest hold on a loaded one.
///
/// OpenAL Soft mixes into the sound server's buffer in periods; how long that buffer is,
/// is the output's latency. It takes no attribute for it (it reads `ALC_REFRESH` back, but sets
/// its period from its configuration, once a process), so SoundStage asks the server through
/// libpulse's own request, `PULSE_LATENCY_MSEC`, set only while the device's stream is made
/// (its context created, its device reset or reopened); the server then chooses the periods,
/// and OpenAL Soft mixes in them. PulseAudio and PipeWire (pipewire-pulse) both follow it. A
/// process that sets `PULSE_LATENCY_MSEC` itself keeps it, and the modes are not asked; where
/// its value gives periods OpenAL Soft 1.19.1's reverb hangs in (at 44.1 kHz, 5, 10 or 11 ms:
/// 55, 110, 121 frames), the milliseconds nearest that give whole periods are asked in its
/// place, with a warning (``AudioContext/serverLatencyRequest`` says which).
public enum LatencyMode: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The lowest the server gives: 4 ms of buffer asked.
    case lowest
    /// 12 ms asked: a drum game's mode on an idle machine (drumdub played 5 minutes at it with
    /// no underrun the server saw; at 8 ms, 7).
    case low
    /// 60 ms asked: about OpenAL Soft's own default (3 periods of 1,024 frames, 64 ms at
    /// 48 kHz), which a device with no mode asked (``ContextAttributes/latency`` nil) keeps.
    case balanced
    /// 120 ms asked: for a machine too loaded to hold the others.
    case safe

    /// What is asked of the server (`PULSE_LATENCY_MSEC`): the whole buffer, in milliseconds.
    /// Multiples of 4, so that PulseAudio's periods (a quarter of the buffer, in whole frames)
    /// are whole multiples of 4 frames at 44.1 and 48 kHz, as OpenAL Soft 1.19.1's reverb needs
    /// them below 128 frames; elsewhere the context asks again near them (see
    /// ``AudioContext/periodFrames``).
    public var requestedMilliseconds: Int {
        switch self {
        case .lowest: 4
        case .low: 12
        case .balanced: 60
        case .safe: 120
        }
    }

    /// The next safer mode; nil for ``safe``.
    public var safer: LatencyMode? {
        switch self {
        case .lowest: .low
        case .low: .balanced
        case .balanced: .safe
        case .safe: nil
        }
    }

    /// Lower modes first.
    public static func < (a: LatencyMode, b: LatencyMode) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The name, e.g. `low`.
    public var description: String { rawValue }
}
