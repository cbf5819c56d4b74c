/// Whether a music player shuffles, after `MPMusicShuffleMode` (MPRIS `Shuffle`).
public enum MusicShuffleMode: String, Sendable, Hashable, CustomStringConvertible {
    /// Items play in their order.
    case off
    /// Items play in an order of the player's choosing.
    case songs

    /// `off` or `songs`.
    public var description: String { rawValue }
}

/// What a music player repeats, after `MPMusicRepeatMode` (MPRIS `LoopStatus`: `None`,
/// `Track`, `Playlist`).
public enum MusicRepeatMode: String, Sendable, Hashable, CustomStringConvertible {
    /// Nothing repeats.
    case none
    /// The item repeats.
    case one
    /// The whole list repeats.
    case all

    init?(mpris: String) {
        switch mpris {
        case "None": self = .none
        case "Track": self = .one
        case "Playlist": self = .all
        default: return nil
        }
    }

    /// MPRIS's name for the mode.
    var mpris: String {
        switch self {
        case .none: "None"
        case .one: "Track"
        case .all: "Playlist"
        }
    }

    /// `none`, `one` or `all`.
    public var description: String { rawValue }
}
