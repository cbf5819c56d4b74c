import Foundation
import Synchronization
import SoundStageCore
import SoundStageSession

/// Sounds played back to back with no gap and no overlap: the first frame of each item
/// follows the last frame of the one before, sample-exact, as an album plays.
///
/// Items may be loaded or streamed, of any format SoundStage reads, at any sample rate and
/// channel layout: the playlist converts them to one format (``sampleRate`` and ``channels``)
/// and plays them through one streamed ``Player``, decoded about 100 ms ahead.
///
/// ```swift
/// let playlist = try Playlist(engine: engine, items: [intro, verse, outro])
/// playlist.repeatMode = .all
/// try playlist.play()
/// for await event in playlist.events() { print(event) }   // itemStarted(index: 0), ...
/// ```
///
/// The ``player`` is an ordinary one: its volume, fades, crossfades, bus, metering and
/// interruption policy apply to the whole playlist, and its ``Player/currentTime`` runs
/// across the items. What repeats is decided as an item's end is decoded, about 400 ms
/// before it is heard; a ``repeatMode`` set later takes effect from the next item end.
public final class Playlist: Sendable, CustomStringConvertible {
    /// What plays after an item ends.
    public enum RepeatMode: String, Sendable, CaseIterable {
        /// The next item; the playlist finishes after the last.
        case off
        /// The same item again, for ever.
        case one
        /// The next item, and the first after the last, for ever.
        case all
    }

    /// The sounds, in order.
    public let items: [Sound]
    /// The player that plays them, one after another, as one sound. A crossfade between
    /// items (``crossfade(toItem:duration:curve:on:)``) hands the playlist to a new one.
    public var player: Player { current.withLock { $0 } }
    let current: LockedBox<Player>
    let plan: PlaylistPlan
    let timeline: PlaylistTimeline

    /// A playlist of `items` for `engine`, converted to `sampleRate` (by default the first
    /// item's) and `channels` (by default the widest layout among the items).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for no items, an empty
    ///   sound, a sample rate outside 8,000...192,000, or the `.rear` layout.
    public init(engine: AudioEngine, items: [Sound], sampleRate: Int? = nil, channels: ChannelLayout? = nil) throws {
        let member = "Playlist(engine:items:)"
        guard let first = items.first else {
            throw Self.failure(.invalidArgument, member, object: "playlist", "a playlist needs at least one item")
        }
        if let empty = items.first(where: { $0.frameCount == 0 }) {
            throw Self.failure(.invalidArgument, member, object: "playlist", "\(empty) has no frames")
        }
        let rate = sampleRate ?? first.sampleRate
        guard (8_000...192_000).contains(rate) else {
            throw Self.failure(.invalidArgument, member, object: "playlist", "the sample rate must be in 8000...192000 Hz, got \(rate)")
        }
        if channels == .rear {
            throw Self.failure(.invalidArgument, member, object: "playlist", "a playlist plays mono, stereo, quad, 5.1, 6.1 or 7.1, not a rear pair alone")
        }
        let widest = items.max { $0.channelCount < $1.channelCount }.flatMap { ChannelLayout(channelCount: $0.channelCount) } ?? .stereo
        plan = PlaylistPlan(sounds: items, sampleRate: rate, channels: channels ?? widest)
        timeline = PlaylistTimeline(plan: plan)
        self.items = items
        let player = Player(sound: Sound(playlist: plan), engine: engine, timeline: timeline)
        current = LockedBox(player)
        timeline.state.withLockedValue {
            $0.playlist = self
            $0.active = ObjectIdentifier(player)
        }
    }

    /// The playlist's sample rate: every item is converted to it.
    public var sampleRate: Int { plan.sampleRate }
    /// The playlist's channel layout: every item is mixed to it.
    public var channels: ChannelLayout { plan.channels }
    /// Every item once, in seconds.
    public var duration: Double { Double(plan.frameCount) / Double(plan.sampleRate) }

    /// What plays after an item ends; `.off` by default.
    public var repeatMode: RepeatMode {
        get { plan.repeatMode.withLock { $0 } }
        set { plan.repeatMode.withLock { $0 = newValue } }
    }

    /// Receives the playlist's events; held weakly.
    public var delegate: PlaylistDelegate? {
        get { timeline.state.withLockedValue { $0.delegate } }
        set { timeline.state.withLockedValue { $0.delegate = newValue } }
    }

    /// A stream of the playlist's events from now on; each call makes a new subscriber.
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<PlaylistEvent> { EventSubscribers.subscribe(timeline.state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { timeline.state.withLockedValue { $0.subscribers.dropped } }

    /// Plays, or resumes after ``pause()``, as ``Player/play()``.
    public func play() throws { try player.play() }
    /// Pauses, as ``Player/pause()``.
    public func pause() { player.pause() }
    /// Stops, keeping the playhead, as ``Player/stop()``.
    public func stop() { player.stop() }
    /// Whether the playlist is playing.
    public var isPlaying: Bool { player.isPlaying }

    /// For example `playlist of 3 items`.
    public var description: String { "playlist of \(items.count) item\(items.count == 1 ? "" : "s")" }
}

extension Playlist: ErrorNaming {
    package var errorObject: String { description }
}
