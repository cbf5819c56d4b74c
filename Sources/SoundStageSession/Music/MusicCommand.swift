import Foundation

/// Something ``SystemMusicPlayer`` asks a player to do.
public enum MusicCommand: Sendable, Hashable, CustomStringConvertible {
    /// Start or go on playing (MPRIS `Play`).
    case play
    /// Pause (`Pause`).
    case pause
    /// Play if paused, pause if playing (`PlayPause`).
    case togglePlayPause
    /// Stop (`Stop`).
    case stop
    /// Go to the next item (`Next`).
    case skipToNextItem
    /// Go to the previous item (`Previous`).
    case skipToPreviousItem
    /// Jump to a position in seconds in the item playing (MPRIS `SetPosition`).
    case seek(to: TimeInterval)
    /// Set the player's own volume, 0...1.
    case setVolume(Double)
    /// Shuffle or not (MPRIS `Shuffle`).
    case setShuffleMode(MusicShuffleMode)
    /// Repeat the item, the list or nothing (MPRIS `LoopStatus`).
    case setRepeatMode(MusicRepeatMode)

    /// e.g. `play`, `seek(to: 12.0)`.
    public var description: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .togglePlayPause: "togglePlayPause"
        case .stop: "stop"
        case .skipToNextItem: "skipToNextItem"
        case .skipToPreviousItem: "skipToPreviousItem"
        case .seek(let t): "seek(to: \(t))"
        case .setVolume(let v): "setVolume(\(v))"
        case .setShuffleMode(let m): "setShuffleMode(\(m))"
        case .setRepeatMode(let m): "setRepeatMode(\(m))"
        }
    }
}
