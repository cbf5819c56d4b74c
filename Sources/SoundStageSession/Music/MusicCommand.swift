import Foundation

/// Something ``SystemMusicPlayer`` asks a player to do.
public enum MusicCommand: Sendable, Hashable, CustomStringConvertible {
    case play
    case pause
    case togglePlayPause
    case stop
    case skipToNextItem
    case skipToPreviousItem
    /// Jump to a position in seconds in the item playing (MPRIS `SetPosition`).
    case seek(to: TimeInterval)
    /// Set the player's own volume, 0...1.
    case setVolume(Double)
    case setShuffleMode(MusicShuffleMode)
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
