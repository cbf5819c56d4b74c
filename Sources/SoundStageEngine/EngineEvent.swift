import SoundStageCore
import SoundStageSession

/// What happens to an engine as a whole, delivered like player events (serially, on the
/// thread running the service loop): see ``AudioEngine/events()``.
public enum EngineEvent: Sendable, CustomStringConvertible {
    /// The service loop met an error no caller could catch: an OpenAL error found by a tick's
    /// check of the property writes, a source that could not be refilled or restarted, a
    /// scheduled start that could not start. `player` is the player involved, if one was; it
    /// reports `finished(successfully: false)` when the error cut it short. The error is
    /// also logged (see `LoggingSystem` in swift-log).
    case serviceError(SoundStageError, player: Player?)
    /// The engine moved to another output device (see ``RouteChange``).
    case routeChanged(RouteChange)
    /// The output device was lost and no other opens: the engine keeps every player's state
    /// and tries again, `retryInSeconds` from now (the wait starts at 50 ms and doubles up to
    /// 2 s; it starts over once a replacement has played for a second).
    case outputUnavailable(device: String, error: SoundStageError, retryInSeconds: Double)
    /// A streamed player's source ran dry on a real device (the service thread was starved, or
    /// decoding was slow) and was started again: see ``StreamUnderrun``.
    case streamUnderrun(StreamUnderrun)
    /// The output moved to another latency mode: asked, or stepped back to a safer one after
    /// underruns (see ``LatencyChange``).
    case latencyChanged(LatencyChange)
    /// The sound server played silence where the output's stream ran dry: heard from the
    /// server's own copy of the stream (see ``OutputDropout``).
    case outputDropout(OutputDropout)

    /// For example `serviceError(...)`.
    public var description: String {
        switch self {
        case .serviceError(let error, let player):
            return "serviceError(\(error)\(player.map { ", \($0)" } ?? ""))"
        case .routeChanged(let change):
            return "routeChanged(\(change))"
        case .outputUnavailable(let device, let error, let retry):
            return "outputUnavailable('\(device)', retry in \(retry) s: \(error))"
        case .streamUnderrun(let underrun):
            return "streamUnderrun(\(underrun))"
        case .latencyChanged(let change):
            return "latencyChanged(\(change))"
        case .outputDropout(let dropout):
            return "outputDropout(\(dropout))"
        }
    }
}
