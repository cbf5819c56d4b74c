import SoundStageCore
import SoundStageSession

/// A streamed source that ran dry and was started again, as ``EngineEvent/streamUnderrun(_:)``
/// reports it.
public struct StreamUnderrun: Sendable, CustomStringConvertible {
    /// The player whose source ran dry.
    public let player: Player
    /// How long it was silent, in seconds of the output device's clock: from when its queue
    /// ran out to when it started again.
    public let seconds: Double
    /// The sound frame it stopped at (the first one not played).
    public let stoppedAtFrame: Int
    /// The sound frame it started again from: later than ``stoppedAtFrame`` by the time
    /// lost under ``UnderrunPolicy/keepTime``, the same under ``UnderrunPolicy/resume``.
    public let resumedAtFrame: Int
    /// The policy it followed.
    public let policy: UnderrunPolicy
    /// When it started again, in engine time (``AudioEngine/currentTime``); it is heard an
    /// output latency later.
    public let restartedAt: Double
    /// How much the stream keeps queued from now on, in seconds (it doubles after each
    /// underrun, up to ``StreamBuffering/maximumChunks``).
    public let queueSeconds: Double

    /// For example `player of sound (music.ogg) silent 0.281 s, keepTime from frame 96000 to 109488, 0.08 s queued`.
    public var description: String {
        let silent = (seconds * 1_000).rounded() / 1_000
        return "\(player) silent \(silent) s, \(policy) from frame \(stoppedAtFrame) to \(resumedAtFrame), \(queueSeconds) s queued"
    }
}

/// Where a streamed player starts again after its source ran dry.
public enum UnderrunPolicy: String, Sendable, Hashable, CaseIterable {
    /// At the frame it would have reached had it not stopped: what was lost is skipped, so
    /// the music stays on the output's clock (and on the beat with everything else). When
    /// the restart itself takes longer than the stream's queue plays (a machine too busy to
    /// decode in time), it plays on from the frame it started again at, that much late.
    case keepTime
    /// At the frame it stopped: nothing is skipped, the rest comes late.
    case resume
}
