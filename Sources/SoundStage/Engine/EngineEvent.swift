/// What happens to an engine as a whole, delivered like player events (serially, on the
/// thread running the service loop): see ``AudioEngine/events()``.
public enum EngineEvent: Sendable, CustomStringConvertible {
    /// The service loop met an error no caller could catch: an OpenAL error found by a tick's
    /// check of the property writes, a source that could not be refilled or restarted, a
    /// scheduled start that could not start. `player` is the player involved, if one was; it
    /// reports `finished(successfully: false)` when the error cut it short. The error is
    /// also logged (see `LoggingSystem` in swift-log).
    case serviceError(SoundStageError, player: Player?)

    /// For example `serviceError(...)`.
    public var description: String {
        switch self {
        case .serviceError(let error, let player):
            return "serviceError(\(error)\(player.map { ", \($0)" } ?? ""))"
        }
    }
}
