import SoundStageCore

/// An engine's output moved to another ``LatencyMode``, as
/// ``EngineEvent/latencyChanged(_:)`` reports it.
public struct LatencyChange: Sendable, CustomStringConvertible {
    /// Why it changed.
    public enum Reason: String, Sendable, Hashable {
        /// The game asked (``AudioEngine/setLatencyMode(_:)``).
        case asked
        /// The output ran dry more often than the mode allows (``AudioEngine/underrunsBeforeSteppingBack``
        /// within ``AudioEngine/underrunWindow``): the machine does not hold it, and the engine
        /// stepped back to the next safer one.
        case underruns
    }

    /// The mode before (nil: none was asked, OpenAL Soft's own periods).
    public let from: LatencyMode?
    /// The mode now.
    public let to: LatencyMode
    /// Why: asked, or stepped back after underruns.
    public let reason: Reason
    /// Underruns seen within the window when it stepped back (0 when asked).
    public let underruns: Int
    /// The device's latency reported after the change (`ALC_DEVICE_LATENCY_SOFT`), in seconds;
    /// nil when it reports none yet.
    public let outputSeconds: Double?

    /// For example `lowest -> low after 2 underruns (output 9.8 ms)`.
    public var description: String {
        let why = reason == .asked ? "asked" : "after \(underruns) underruns"
        let output = outputSeconds.map { String(format: " (output %.1f ms)", $0 * 1_000) } ?? ""
        return "\(from?.description ?? "default") -> \(to) \(why)\(output)"
    }
}
