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
        /// The sound server played silence where the output ran dry (an ``OutputDropout``):
        /// the engine stepped back at the first.
        case dropouts
    }

    /// The mode before (nil: none was asked, OpenAL Soft's own periods).
    public let from: LatencyMode?
    /// The mode now.
    public let to: LatencyMode
    /// Why: asked, or stepped back after underruns.
    public let reason: Reason
    /// Underruns seen within the window when it stepped back (0 when asked).
    public let underruns: Int
    /// What the new mode asks of the server, in seconds (what the device reports comes once its
    /// stream runs again: ``AudioEngine/outputLatency``).
    public let requestedSeconds: Double

    /// For example `lowest -> low after 2 underruns (10 ms asked)`.
    public var description: String {
        let why = switch reason {
        case .asked: "asked"
        case .underruns: "after \(underruns) underruns"
        case .dropouts: "after \(underruns) dropouts"
        }
        return "\(from?.description ?? "default") -> \(to) \(why) (\(Int((requestedSeconds * 1_000).rounded())) ms asked)"
    }
}
