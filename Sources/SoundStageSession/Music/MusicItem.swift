import Foundation

/// What a music player is playing, after `MPMediaItem`: read from the MPRIS `Metadata` map
/// (`xesam:title`, `xesam:artist`, `xesam:album`, `mpris:length`, `mpris:artUrl`, ...).
/// A player fills in what it knows; the rest is nil.
public struct MusicItem: Sendable, Hashable, CustomStringConvertible {
    /// The title (`xesam:title`).
    public var title: String?
    /// The artists, joined with ", " (`xesam:artist`).
    public var artist: String?
    /// The album's title (`xesam:album`).
    public var albumTitle: String?
    /// The album's artists, joined (`xesam:albumArtist`).
    public var albumArtist: String?
    /// The length in seconds (`mpris:length`, in microseconds on the bus), held to
    /// ``SystemMusicPlayer/longestPosition``.
    public var playbackDuration: TimeInterval?
    /// The cover art (`mpris:artUrl`), often a `file://` address.
    public var artworkURL: URL?
    /// Where the track is played from (`xesam:url`).
    public var assetURL: URL?
    /// The player's name for the track (`mpris:trackid`), which ``SystemMusicPlayer``
    /// passes back when it seeks.
    public var trackID: String?

    /// An item with the given facts.
    public init(title: String? = nil, artist: String? = nil, albumTitle: String? = nil, albumArtist: String? = nil,
                playbackDuration: TimeInterval? = nil, artworkURL: URL? = nil, assetURL: URL? = nil, trackID: String? = nil) {
        self.title = title
        self.artist = artist
        self.albumTitle = albumTitle
        self.albumArtist = albumArtist
        self.playbackDuration = playbackDuration
        self.artworkURL = artworkURL
        self.assetURL = assetURL
        self.trackID = trackID
    }

    /// From an MPRIS `Metadata` map; nil when it says nothing (no track).
    init?(metadata: [String: BusValue]) {
        func text(_ key: String) -> String? { metadata[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        func url(_ key: String) -> URL? { text(key).flatMap { URL(string: $0) } }
        let length = metadata["mpris:length"]?.int.flatMap { $0 > 0 ? min(TimeInterval($0) / 1_000_000, SystemMusicPlayer.longestPosition) : nil }
        self.init(title: text("xesam:title"), artist: text("xesam:artist"), albumTitle: text("xesam:album"),
                  albumArtist: text("xesam:albumArtist"), playbackDuration: length, artworkURL: url("mpris:artUrl"),
                  assetURL: url("xesam:url"), trackID: text("mpris:trackid"))
        if title == nil, artist == nil, albumTitle == nil, playbackDuration == nil, assetURL == nil, trackID == nil { return nil }
    }

    /// `Title — Artist (Album)`, with what is known.
    public var description: String {
        var text = title ?? assetURL?.lastPathComponent ?? "untitled"
        if let artist { text += " — \(artist)" }
        if let albumTitle { text += " (\(albumTitle))" }
        return text
    }
}
