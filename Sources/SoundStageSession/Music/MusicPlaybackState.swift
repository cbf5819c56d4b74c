/// Whether a music player plays, after `MPMusicPlaybackState` (MPRIS `PlaybackStatus`).
public enum MusicPlaybackState: String, Sendable, Hashable, CustomStringConvertible {
    case stopped
    case playing
    case paused

    /// From MPRIS's `Playing`, `Paused` or `Stopped`.
    init?(mpris: String) {
        switch mpris {
        case "Playing": self = .playing
        case "Paused": self = .paused
        case "Stopped": self = .stopped
        default: return nil
        }
    }

    /// `playing`, `paused` or `stopped`.
    public var description: String { rawValue }
}
