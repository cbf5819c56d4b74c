/// Whether a music player plays, after `MPMusicPlaybackState` (MPRIS `PlaybackStatus`).
public enum MusicPlaybackState: String, Sendable, Hashable, CustomStringConvertible {
    /// Nothing plays; play starts from the beginning of the item (MPRIS `Stopped`).
    case stopped
    /// It plays (`Playing`).
    case playing
    /// It is paused; play goes on from where it is (`Paused`).
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
