import Foundation

/// What ``SystemMusicPlayer`` tells its delegate and its ``SystemMusicPlayer/events()``
/// streams, after `MPMusicPlayerController`'s notifications.
public enum MusicPlayerEvent: Sendable, Equatable, CustomStringConvertible {
    /// The session bus was reached and the players on it found, or it could not be.
    case availabilityChanged(SystemMusicPlayer.Availability)
    /// A player came onto the bus (or answered at last).
    case playerAppeared(MusicPlayerInfo)
    /// A player left the bus (it quit or was killed).
    case playerVanished(busName: String)
    /// A player started, paused or stopped (`MPMusicPlayerControllerPlaybackStateDidChange`).
    case playbackStateChanged(busName: String, MusicPlaybackState)
    /// A player moved to another item, or lost its item
    /// (`MPMusicPlayerControllerNowPlayingItemDidChange`).
    case nowPlayingItemChanged(busName: String, MusicItem?)
    /// A player's volume changed (`MPMusicPlayerControllerVolumeDidChange`).
    case volumeChanged(busName: String, Double)
    /// A player jumped to a position, in seconds (MPRIS `Seeked`).
    case seeked(busName: String, TimeInterval)
    /// Another player is now the one in charge (the one most recently playing), or none is.
    case currentPlayerChanged(busName: String?)
    /// A player did not answer within ``SystemMusicPlayer/answerTimeout``: it is left out of
    /// ``SystemMusicPlayer/players`` until it is heard from again.
    case playerNotAnswering(busName: String)
    /// A command was refused by the player or not answered in time.
    case commandFailed(busName: String, command: MusicCommand, reason: String)

    /// One line, e.g. `playbackStateChanged org.mpris.MediaPlayer2.mpv playing`.
    public var description: String {
        switch self {
        case .availabilityChanged(let a): "availabilityChanged \(a)"
        case .playerAppeared(let p): "playerAppeared \(p.busName) \(p)"
        case .playerVanished(let name): "playerVanished \(name)"
        case .playbackStateChanged(let name, let state): "playbackStateChanged \(name) \(state)"
        case .nowPlayingItemChanged(let name, let item): "nowPlayingItemChanged \(name) \(item.map(\.description) ?? "none")"
        case .volumeChanged(let name, let v): "volumeChanged \(name) \(String(format: "%.2f", v))"
        case .seeked(let name, let t): "seeked \(name) \(String(format: "%.1f", t)) s"
        case .currentPlayerChanged(let name): "currentPlayerChanged \(name ?? "none")"
        case .playerNotAnswering(let name): "playerNotAnswering \(name)"
        case .commandFailed(let name, let command, let reason): "commandFailed \(name) \(command): \(reason)"
        }
    }
}
