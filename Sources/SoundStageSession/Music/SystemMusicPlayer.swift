import Foundation
import SoundStageCore

/// The desktop's music player, after `MPMusicPlayerController.systemMusicPlayer`: any MPRIS
/// player on the user's session bus (Rhythmbox, Spotify, a browser, mpv with mpv-mpris), seen
/// and driven from the game.
///
/// ```swift
/// let music = SystemMusicPlayer.shared
/// if case .available = await music.ready() {
///     print(music.nowPlayingItem?.title ?? "nothing playing")
///     music.pause()
/// }
/// for await event in music.events() { print(event) }   // players, states, items
/// ```
///
/// Several players may be on the bus; commands and the `nowPlayingItem`-style properties go
/// to the one in charge, ``currentPlayer``: the one that most recently started playing (or,
/// before any did while watched, one playing, else one paused, else the first by name).
/// Each command can name another player instead.
///
/// Nothing here blocks the game: the players are followed on a thread of the player's own,
/// the properties read what was last heard (the position moved on by the time since), and
/// a command is sent at once and answered later (``perform(_:on:)`` waits for the answer).
/// A player that does not answer within ``answerTimeout`` is left out until it is heard from
/// again. Without a session bus, or without libsystemd, ``availability`` says why, and
/// commands fail with ``SoundStageError/Code-swift.struct/musicPlayerUnavailable``.
///
/// Events go to the ``delegate`` and to every ``events()`` stream, in order, on the audio
/// session's thread (``AudioSession/isSessionThread``).
public final class SystemMusicPlayer: Sendable {
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`), watched from its first use.
    public static let shared = SystemMusicPlayer()

    /// The furthest position a seek asks for, and a player's position, length and clock are
    /// held to: 10^7 s (115 days), as ``MusicPlayerInfo/currentPlaybackTime`` reads them.
    public static let longestPosition = 1e7
    /// The playback rates a player's `Rate` is held to (MPRIS players offer 0.01 to 100 at
    /// most in practice; a peer may announce any double).
    public static let rates: ClosedRange<Double> = 0.01...100

    /// Whether the players can be reached.
    public enum Availability: Sendable, Equatable, CustomStringConvertible {
        /// Connecting to the bus and asking the players what they play.
        case connecting
        /// The bus answered and every player present was asked (there may be none).
        case available
        /// No session bus, no libsystemd, or the connection was lost; the reason says which.
        case unavailable(reason: String)

        /// `connecting`, `available` or `unavailable (the reason)`.
        public var description: String {
            switch self {
            case .connecting: "connecting"
            case .available: "available"
            case .unavailable(let reason): "unavailable (\(reason))"
            }
        }
    }

    /// How long a player has to answer a question or a command.
    public let answerTimeout: Duration
    /// The bus address given, nil for the user's session bus.
    public let busAddress: String?
    let state = LockedState(MusicState())
    /// The session's thread, where the events are delivered (the session itself is not held:
    /// a session holds its music player).
    private let thread: SerialThread
    private let worker = LockedBox<(MPRISWorker, WorkerThread)?>(nil)

    /// Watches the MPRIS players on the session bus at `busAddress` (a D-Bus address such as
    /// `unix:path=/run/user/1000/bus`; nil: the user's own). Connecting and finding the
    /// players happen on the player's thread: this returns at once (see ``ready()``).
    ///
    /// - Parameters:
    ///   - answerTimeout: how long a player has to answer (at least 1 ms).
    ///   - session: the session whose thread delivers the events.
    public init(busAddress: String? = nil, answerTimeout: Duration = .milliseconds(500), session: AudioSession = .shared) {
        self.busAddress = busAddress
        self.answerTimeout = answerTimeout
        self.thread = session.thread
        do {
            let started = try MPRISWorker.start(address: busAddress, timeout: answerTimeout, owner: self)
            worker.withLock { $0 = started }
        } catch {
            state.withLockedValue { $0.availability = .unavailable(reason: error.reason) }
        }
    }

    deinit {
        if let (worker, thread) = worker.withLock({ $0.take() }) {
            worker.requestStop()
            thread.joinOrDetach()
        }
        for stream in state.withLockedValue({ $0.subscribers.end() }) { stream.finish() }
    }

    // MARK: - What the players play

    /// Whether the players can be reached; ``Availability/connecting`` until the first look
    /// at the bus is done.
    public var availability: Availability { state.withLockedValue { $0.availability } }

    /// Waits until the first look at the bus is done (every player present answered or
    /// timed out), at most ``answerTimeout`` plus 3 seconds, and returns the availability.
    public func ready() async -> Availability {
        let deadline = ContinuousClock.now + answerTimeout + .seconds(3)
        while ContinuousClock.now < deadline {
            if case .connecting = availability { try? await Task.sleep(for: .milliseconds(5)) } else { break }
        }
        return availability
    }

    /// ``ready()`` for a caller that cannot suspend (the session's thread): polls, bounded
    /// the same way.
    package func waitUntilReady() -> Availability {
        let deadline = ContinuousClock.now + answerTimeout + .seconds(3)
        while case .connecting = availability, ContinuousClock.now < deadline { usleep(5_000) }
        return availability
    }

    /// Calls `observer` with every event, on the session's thread, before the delegate (the
    /// session follows the players it paused this way).
    package func observe(_ observer: @escaping @Sendable (MusicPlayerEvent) -> Void) {
        state.withLockedValue { $0.observers.append(observer) }
    }

    /// The players that answer, by bus name.
    public var players: [MusicPlayerInfo] {
        state.withLockedValue { s in s.players.values.filter(\.answering).map(\.info).sorted { $0.busName < $1.busName } }
    }

    /// The player in charge: the one that most recently started playing (see the type's
    /// overview); nil when no player answers.
    public var currentPlayer: MusicPlayerInfo? { state.withLockedValue { s in s.current.flatMap { s.players[$0]?.info } } }

    /// What the player in charge plays (`MPMusicPlayerController.nowPlayingItem`).
    public var nowPlayingItem: MusicItem? { currentPlayer?.nowPlayingItem }

    /// Whether the player in charge plays; ``MusicPlaybackState/stopped`` without one.
    public var playbackState: MusicPlaybackState { currentPlayer?.playbackState ?? .stopped }

    /// The position of the player in charge in its item, in seconds (0 without one).
    public var currentPlaybackTime: TimeInterval { currentPlayer?.currentPlaybackTime ?? 0 }

    /// The player in charge's own volume, 0...1; nil without one or when it has none.
    public var volume: Double? { currentPlayer?.volume }

    /// Whether the player in charge shuffles; nil without one or when it cannot.
    public var shuffleMode: MusicShuffleMode? { currentPlayer?.shuffleMode }

    /// What the player in charge repeats; nil without one or when it cannot.
    public var repeatMode: MusicRepeatMode? { currentPlayer?.repeatMode }

    // MARK: - Events

    /// Receives the events on the session's thread; held weakly.
    public var delegate: (any SystemMusicPlayerDelegate)? {
        get { state.withLockedValue { $0.delegate } }
        set { state.withLockedValue { $0.delegate = newValue } }
    }

    /// A stream of the events from now on; each call makes a new subscriber.
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<MusicPlayerEvent> { EventSubscribers.subscribe(state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { state.withLockedValue { $0.subscribers.dropped } }

    /// Delivers `events` on the session's thread, after those posted before.
    func post(_ events: [MusicPlayerEvent]) {
        guard !events.isEmpty else { return }
        thread.submit { [self] in
            let (delegate, streams, observers) = state.withLockedValue { ($0.delegate, $0.subscribers.all, $0.observers) }
            for event in events {
                for observer in observers { observer(event) }
                delegate?.systemMusicPlayer(self, didReceive: event)
                streams.yield(event)
            }
        }
    }

    // MARK: - Commands

    /// Starts the player in charge, or the player named (its bus name or identity).
    public func play(_ player: String? = nil) { send(.play, to: player) }
    /// Pauses it.
    public func pause(_ player: String? = nil) { send(.pause, to: player) }
    /// Plays it if paused, pauses it if playing.
    public func togglePlayPause(_ player: String? = nil) { send(.togglePlayPause, to: player) }
    /// Stops it.
    public func stop(_ player: String? = nil) { send(.stop, to: player) }
    /// Moves it to the next item.
    public func skipToNextItem(_ player: String? = nil) { send(.skipToNextItem, to: player) }
    /// Moves it to the previous item.
    public func skipToPreviousItem(_ player: String? = nil) { send(.skipToPreviousItem, to: player) }

    /// Sends `command` to player `name` (a bus name) and tells `done` the outcome on the bus
    /// thread (nil: it answered); for the session, which must know a pause failed.
    package func send(_ command: MusicCommand, to name: String, done: @escaping @Sendable (SoundStageError?) -> Void) {
        dispatch(command, to: name, done: done)
    }

    /// Sends `command` and returns at once; a refusal or no answer in time is posted as
    /// ``MusicPlayerEvent/commandFailed(busName:command:reason:)``, as is there being no
    /// player (with the bus name `""`).
    public func send(_ command: MusicCommand, to player: String? = nil) {
        dispatch(command, to: player) { _ in }
    }

    /// Sends `command` to the player in charge (or the one named) and waits for its answer.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/musicPlayerUnavailable`` naming the player
    ///   and the reason: no bus, no such player, a refusal, or no answer within
    ///   ``answerTimeout``; ``SoundStageError/Code-swift.struct/invalidArgument`` for a
    ///   volume outside 0...1 or a position outside 0...``longestPosition``.
    public func perform(_ command: MusicCommand, on player: String? = nil) async throws {
        // Right after the player was made, its first look at the bus may still be under way.
        _ = await ready()
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<SoundStageError?, Never>) in
            dispatch(command, to: player) { done.resume(returning: $0) }
        }
        if let outcome { throw outcome }
    }

    /// Checks `command`, finds its player and hands it to the bus thread; `done` gets the
    /// error, or nil once the player answered.
    private func dispatch(_ command: MusicCommand, to player: String?, done: @escaping @Sendable (SoundStageError?) -> Void) {
        let operation = "SystemMusicPlayer.\(command)"
        @Sendable func failure(_ code: SoundStageError.Code, _ object: String, _ reason: String) -> SoundStageError {
            SoundStageError(code, operation: operation, object: object, reason: reason)
        }
        switch command {
        case .setVolume(let v) where !(0...1).contains(v):
            return done(failure(.invalidArgument, player ?? "the music player", "volume must be in 0...1, got \(v)"))
        case .seek(let t) where !t.isFinite || t < 0 || t > Self.longestPosition:
            return done(failure(.invalidArgument, player ?? "the music player", "position must be in 0...\(Self.longestPosition) seconds, got \(t)"))
        default: break
        }
        let target = state.withLockedValue { s -> Result<MusicPlayerInfo, SoundStageError> in
            if case .unavailable(let reason) = s.availability {
                return .failure(failure(.musicPlayerUnavailable, busAddress ?? "the session bus", reason))
            }
            guard let name = s.resolve(player) else {
                return .failure(failure(.musicPlayerUnavailable, player ?? "the music player",
                                        player == nil ? "no MPRIS player answers on the session bus" : "no MPRIS player of that name answers"))
            }
            return .success(s.players[name]!.info)
        }
        let info: MusicPlayerInfo
        switch target {
        case .failure(let error):
            post([.commandFailed(busName: player ?? "", command: command, reason: error.reason)])
            return done(error)
        case .success(let found): info = found
        }
        guard let worker = worker.withLock({ $0?.0 }) else {
            return done(failure(.musicPlayerUnavailable, info.busName, "the music player was shut down"))
        }
        let position = info.currentPlaybackTime, trackID = info.nowPlayingItem?.trackID
        worker.submit { [weak self] worker in
            guard let worker else { return done(failure(.musicPlayerUnavailable, info.busName, "the music player was shut down")) }
            worker.send(command, to: info.busName, trackID: trackID, position: position) { reply in
                switch reply {
                case .answered: done(nil)
                case .failed(let reason, _):
                    self?.post([.commandFailed(busName: info.busName, command: command, reason: reason)])
                    done(failure(.musicPlayerUnavailable, info.busName, reason))
                }
            }
        }
    }
}

/// Receives a ``SystemMusicPlayer``'s events.
public protocol SystemMusicPlayerDelegate: AnyObject, Sendable {
    /// Called on the audio session's thread for each event, in order.
    func systemMusicPlayer(_ player: SystemMusicPlayer, didReceive event: MusicPlayerEvent)
}
