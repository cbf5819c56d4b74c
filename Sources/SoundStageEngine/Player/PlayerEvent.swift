import SoundStageCore
import SoundStageSession

/// What happens to a player, delivered by the engine's service loop.
public enum PlayerEvent: Sendable, CustomStringConvertible {
    /// The sound reached its end (`successfully` true), or decoding failed (false).
    /// ``Player/stop()`` does not report this, as on iOS.
    case finished(successfully: Bool)
    /// Part of the sound could not be decoded: damaged data skipped (the sound plays on),
    /// or data that ends early (``finished(successfully:)`` with false follows, after what
    /// decoded); the error names the file and where (see ``DecodeDamage``).
    case decodeError(SoundStageError)
    /// Playback was paused by an interruption.
    case interruptionBegan
    /// The interruption is over.
    case interruptionEnded

    /// For example `finished(successfully: true)`.
    public var description: String {
        switch self {
        case .finished(let ok): return "finished(successfully: \(ok))"
        case .decodeError(let error): return "decodeError(\(error))"
        case .interruptionBegan: return "interruptionBegan"
        case .interruptionEnded: return "interruptionEnded"
        }
    }
}

/// Receives a player's events, like `AVAudioPlayerDelegate`. Called serially on the thread
/// running the engine's service loop. Every method has an empty default.
public protocol PlayerDelegate: AnyObject {
    /// The sound finished: at its natural end (`successfully` true) or because decoding failed.
    func playerDidFinishPlaying(_ player: Player, successfully: Bool)
    /// Decoding failed.
    func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError)
    /// An interruption paused the player.
    func playerBeginInterruption(_ player: Player)
    /// The interruption ended.
    func playerEndInterruption(_ player: Player)
}

extension PlayerDelegate {
    public func playerDidFinishPlaying(_ player: Player, successfully: Bool) {}
    public func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) {}
    public func playerBeginInterruption(_ player: Player) {}
    public func playerEndInterruption(_ player: Player) {}
}
