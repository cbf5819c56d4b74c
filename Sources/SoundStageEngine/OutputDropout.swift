import SoundStageCore

/// Silence the sound server played in the engine's output because its stream ran dry, as the
/// server's own copy of the stream shows it (``EngineEvent/outputDropout(_:)``): heard, not
/// guessed from the engine's clocks. A process starved as a whole (its mixer and its service
/// thread both late) catches its clock up with a burst and shows no lag, but the listener
/// heard the gap; this is that gap.
///
/// Heard through the audio session's sound server monitor
/// (``AudioSession/WatchedEvents/outputDropouts``, on by default), on PulseAudio and PipeWire.
/// Each counts as one of ``AudioEngine/outputUnderruns``, and an engine with a latency mode
/// steps back to the next safer one at the first (``LatencyChange/Reason/dropouts``), except
/// one heard as the output's stream was made again (``streamRemade``).
public struct OutputDropout: Sendable, Hashable, CustomStringConvertible {
    /// How long the server played silence, in seconds.
    public let seconds: Double
    /// When the engine heard of it, in engine time (``AudioEngine/currentTime``): within about
    /// 50 ms of when it was played.
    public let heardAt: Double
    /// The latency mode the output held when it happened (nil: none asked).
    public let mode: LatencyMode?
    /// Whether it was heard while the output's stream was being made again or within a second
    /// after: a device reset (an HRTF switch, a latency change, on any thread), a move to
    /// another output, a pause or a silent output. The new stream's start, not the machine
    /// falling behind: not counted in ``AudioEngine/outputUnderruns``, and no step back.
    public let streamRemade: Bool

    init(seconds: Double, heardAt: Double, mode: LatencyMode?, streamRemade: Bool) {
        (self.seconds, self.heardAt, self.mode, self.streamRemade) = (seconds, heardAt, mode, streamRemade)
    }

    /// For example `4.5 ms of silence at 12.301 s (low)`.
    public var description: String {
        let milliseconds = (seconds * 10_000).rounded() / 10
        let at = (heardAt * 1_000).rounded() / 1_000
        return "\(milliseconds) ms of silence at \(at) s (\(mode?.description ?? "default"))" + (streamRemade ? " as the stream was made again" : "")
    }
}
