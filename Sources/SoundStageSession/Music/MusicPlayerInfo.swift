import Foundation

/// One MPRIS player on the session bus, as last heard from: what it plays and how.
public struct MusicPlayerInfo: Sendable, Equatable, CustomStringConvertible {
    /// What a player says it can do (MPRIS `CanPlay`, `CanPause`, ...).
    public struct Capabilities: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: Int
        /// Capabilities from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// It can start playing (`CanPlay`).
        public static let play = Capabilities(rawValue: 1)
        /// It can pause (`CanPause`).
        public static let pause = Capabilities(rawValue: 2)
        /// It has a next item (`CanGoNext`).
        public static let next = Capabilities(rawValue: 4)
        /// It has a previous item (`CanGoPrevious`).
        public static let previous = Capabilities(rawValue: 8)
        /// It can jump within the item (`CanSeek`).
        public static let seek = Capabilities(rawValue: 16)
        /// Whether it takes commands at all (`CanControl`).
        public static let control = Capabilities(rawValue: 32)
    }

    /// Its name on the bus, e.g. `org.mpris.MediaPlayer2.mpv`.
    public let busName: String
    /// Its name for people (MPRIS `Identity`, e.g. `mpv`; the bus name's last part when it
    /// gives none).
    public var identity: String
    /// Whether it plays.
    public var playbackState: MusicPlaybackState
    /// What it plays; nil when nothing is loaded.
    public var nowPlayingItem: MusicItem?
    /// Its volume, 0...1 (MPRIS `Volume`); nil when it has none.
    public var volume: Double?
    /// Whether it shuffles; nil when it does not say.
    public var shuffleMode: MusicShuffleMode?
    /// What it repeats; nil when it does not say.
    public var repeatMode: MusicRepeatMode?
    /// What it says it can do.
    public var capabilities: Capabilities
    /// The playback rate (MPRIS `Rate`, 1 when it gives none), held to
    /// ``SystemMusicPlayer/rates``.
    public var rate: Double
    /// The position in seconds when last heard, and when that was.
    var position: TimeInterval
    var positionAt: ContinuousClock.Instant

    init(busName: String) {
        self.busName = busName
        identity = String(busName.dropFirst(Self.prefix.count).split(separator: ".").first ?? Substring(busName))
        playbackState = .stopped
        capabilities = []
        rate = 1
        position = 0
        positionAt = .now
    }

    /// The bus names of MPRIS players start with this.
    static let prefix = "org.mpris.MediaPlayer2."

    /// The position now, in seconds: as last heard, moved on by the time since at its rate
    /// while it plays (MPRIS players do not announce the position as it moves), and kept
    /// within the item's length.
    public var currentPlaybackTime: TimeInterval {
        var t = position
        if playbackState == .playing {
            let elapsed = ContinuousClock.now - positionAt
            t += Double(elapsed.components.seconds) * rate + Double(elapsed.components.attoseconds) * 1e-18 * rate
        }
        if let length = nowPlayingItem?.playbackDuration { t = min(t, length) }
        return min(max(0, t), SystemMusicPlayer.longestPosition)
    }

    /// `mpv: playing Title — Artist (Album)`.
    public var description: String {
        "\(identity): \(playbackState)" + (nowPlayingItem.map { " \($0)" } ?? "")
    }

    /// Takes in the properties of `org.mpris.MediaPlayer2.Player` that `changed` holds.
    mutating func update(player changed: [String: BusValue]) {
        if let s = changed["PlaybackStatus"]?.string, let state = MusicPlaybackState(mpris: s) {
            if state != playbackState { position = currentPlaybackTime; positionAt = .now }
            playbackState = state
        }
        if let metadata = changed["Metadata"]?.dictionary { nowPlayingItem = MusicItem(metadata: metadata) }
        if let v = changed["Volume"]?.double, v.isFinite { volume = max(0, v) }
        if let b = changed["Shuffle"]?.bool { shuffleMode = b ? .songs : .off }
        if let s = changed["LoopStatus"]?.string { repeatMode = MusicRepeatMode(mpris: s) }
        // A peer's rate, held to what players offer (1e300 would run the clock past any bound).
        if let r = changed["Rate"]?.double, r.isFinite, r > 0 {
            position = currentPlaybackTime
            positionAt = .now
            rate = min(max(r, SystemMusicPlayer.rates.lowerBound), SystemMusicPlayer.rates.upperBound)
        }
        if let p = changed["Position"]?.int { moved(to: p) }
        let flags: [(String, Capabilities)] = [("CanPlay", .play), ("CanPause", .pause), ("CanGoNext", .next),
                                               ("CanGoPrevious", .previous), ("CanSeek", .seek), ("CanControl", .control)]
        for (key, capability) in flags {
            guard let b = changed[key]?.bool else { continue }
            if b { capabilities.insert(capability) } else { capabilities.remove(capability) }
        }
    }

    /// The player is at `microseconds` now.
    mutating func moved(to microseconds: Int64) {
        position = min(max(0, TimeInterval(microseconds) / 1_000_000), SystemMusicPlayer.longestPosition)
        positionAt = .now
    }

    /// Takes in the properties of `org.mpris.MediaPlayer2` (its identity).
    mutating func update(root changed: [String: BusValue]) {
        if let name = changed["Identity"]?.string, !name.isEmpty { identity = name }
    }
}
