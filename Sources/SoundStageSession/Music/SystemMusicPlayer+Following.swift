import Foundation
import SoundStageCore

/// Everything about the players that changes, in one locked box.
struct MusicState {
    /// One player on the bus.
    struct Tracked {
        var info: MusicPlayerInfo
        /// Its unique connection name (`:1.42`), which its signals come from.
        var unique: String?
        /// It answered its last question in time (players that do not are left out).
        var answering = false
        /// When it last started playing, in the order seen (0: not while watched).
        var startedPlaying: UInt64 = 0
    }

    var availability = SystemMusicPlayer.Availability.connecting
    var players: [String: Tracked] = [:]
    /// The bus name of the player in charge.
    var current: String?
    /// Counts the starts of play, for ``Tracked/startedPlaying``.
    var starts: UInt64 = 0
    weak var delegate: (any SystemMusicPlayerDelegate)?
    var subscribers = EventSubscribers<MusicPlayerEvent>()
    /// Told of every event before the delegate (the session's bookkeeping).
    var observers: [@Sendable (MusicPlayerEvent) -> Void] = []

    /// The bus name of the player `name` designates: nil for the one in charge, else a bus
    /// name, or an identity or the bus name's last part (`mpv`). Only players that answer.
    func resolve(_ name: String?) -> String? {
        guard let name else { return current }
        let answering = players.filter { $0.value.answering }
        if answering[name] != nil { return name }
        if answering[MusicPlayerInfo.prefix + name] != nil { return MusicPlayerInfo.prefix + name }
        return answering.first { $0.value.info.identity == name }?.key
    }

    /// Works out the player in charge again; returns the event when it changed.
    mutating func chooseCurrent() -> MusicPlayerEvent? {
        let answering = players.values.filter(\.answering)
        func standing(_ p: Tracked) -> (UInt64, Int) {
            (p.startedPlaying, p.info.playbackState == .playing ? 2 : p.info.playbackState == .paused ? 1 : 0)
        }
        let best = answering.max { a, b in
            let (x, y) = (standing(a), standing(b))
            return x != y ? x < y : a.info.busName > b.info.busName
        }
        let chosen = best?.info.busName
        guard chosen != current else { return nil }
        current = chosen
        return .currentPlayerChanged(busName: chosen)
    }
}

/// What the bus thread (``MPRISWorker``) reports, taken into the state, with the events it
/// makes posted.
extension SystemMusicPlayer {
    /// The first look at the bus is over.
    func discoveryFinished() {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            guard case .connecting = s.availability else { return [] }
            s.availability = .available
            return [.availabilityChanged(.available)]
        }
        post(events)
    }

    /// The bus went away (or never answered).
    func connectionEnded(_ reason: String) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            let gone = s.players.values.filter(\.answering).map { MusicPlayerEvent.playerVanished(busName: $0.info.busName) }
            s.players.removeAll()
            s.availability = .unavailable(reason: reason)
            var events = gone + [.availabilityChanged(s.availability)]
            if let changed = s.chooseCurrent() { events.append(changed) }
            return events
        }
        post(events)
    }

    /// The players that answer and play, by bus name.
    func playingPlayers() -> [String] {
        state.withLockedValue { s in s.players.filter { $0.value.answering && $0.value.info.playbackState == .playing }.map(\.key) }
    }

    /// The bus name of the player whose connection is `unique`.
    func playerName(unique: String) -> String? {
        player(unique: unique)?.name
    }

    /// The bus name of the player whose connection is `unique`, and whether it answers.
    func player(unique: String) -> (name: String, answering: Bool)? {
        state.withLockedValue { s in s.players.first { $0.value.unique == unique }.map { ($0.key, $0.value.answering) } }
    }

    /// The player `name` has the connection `unique` (it just came onto the bus).
    func playerOwned(_ name: String, unique: String) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            guard let known = s.players[name], let was = known.unique, was != unique else {
                // New, or known by its bus name only until now.
                s.players[name, default: MusicState.Tracked(info: MusicPlayerInfo(busName: name))].unique = unique
                return []
            }
            // Another process took the name: the one before is gone.
            s.players[name] = MusicState.Tracked(info: MusicPlayerInfo(busName: name), unique: unique)
            var events: [MusicPlayerEvent] = known.answering ? [.playerVanished(busName: name)] : []
            if let changed = s.chooseCurrent() { events.append(changed) }
            return events
        }
        post(events)
    }

    /// The player `name` left the bus.
    func playerVanished(_ name: String) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            guard let gone = s.players.removeValue(forKey: name) else { return [] }
            var events: [MusicPlayerEvent] = gone.answering ? [.playerVanished(busName: name)] : []
            if let changed = s.chooseCurrent() { events.append(changed) }
            return events
        }
        post(events)
    }

    /// The player `name` answered `GetAll`: everything it plays.
    func playerAnswered(_ name: String, unique: String?, properties: [String: BusValue]) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            var player = s.players[name] ?? MusicState.Tracked(info: MusicPlayerInfo(busName: name))
            if let unique { player.unique = unique }
            let was = player
            player.info.update(player: properties)
            player.answering = true
            if player.info.playbackState == .playing, !was.answering || was.info.playbackState != .playing {
                s.starts += 1
                player.startedPlaying = s.starts
            }
            s.players[name] = player
            var events = was.answering ? Self.changes(from: was.info, to: player.info) : [.playerAppeared(player.info)]
            if let changed = s.chooseCurrent() { events.append(changed) }
            return events
        }
        post(events)
    }

    /// The player `name` did not answer `GetAll` (in time: `notAnswering`).
    func playerFailed(_ name: String, notAnswering: Bool) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            // Its connection's name comes from the bus before its answer could: a name not
            // known by now has no owner any more (the player left).
            guard var player = s.players[name] else { return [] }
            let was = player.answering
            player.answering = false
            s.players[name] = player
            var events: [MusicPlayerEvent] = notAnswering ? [.playerNotAnswering(busName: name)] : []
            if was, !notAnswering { events.append(.playerVanished(busName: name)) }
            if let changed = s.chooseCurrent() { events.append(changed) }
            return events
        }
        post(events)
    }

    /// The player `name` announced changes of its player interface. Returns whether it should be
    /// asked for everything again (it was not answering: this is the first sign of life).
    @discardableResult
    func playerChanged(_ name: String, player changed: [String: BusValue]) -> Bool {
        var askAgain = false
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            guard var player = s.players[name] else { return [] }
            guard player.answering else { askAgain = true; return [] }
            let was = player.info
            player.info.update(player: changed)
            if player.info.playbackState == .playing, was.playbackState != .playing {
                s.starts += 1
                player.startedPlaying = s.starts
            }
            s.players[name] = player
            var events = Self.changes(from: was, to: player.info)
            if let current = s.chooseCurrent() { events.append(current) }
            return events
        }
        post(events)
        return askAgain
    }

    /// The player `name` announced changes of its root interface (its identity).
    func playerChanged(_ name: String, root changed: [String: BusValue]) {
        state.withLockedValue { s in s.players[name]?.info.update(root: changed) }
    }

    /// The player `name` is at `microseconds`: it jumped there (`announce`), or was asked.
    func playerSeeked(_ name: String, microseconds: Int64, announce: Bool = true) {
        let events = state.withLockedValue { s -> [MusicPlayerEvent] in
            guard s.players[name] != nil else { return [] }
            s.players[name]!.info.moved(to: microseconds)
            return announce ? [.seeked(busName: name, s.players[name]!.info.currentPlaybackTime)] : []
        }
        post(events)
    }

    /// The events a change of a player's facts makes.
    private static func changes(from was: MusicPlayerInfo, to now: MusicPlayerInfo) -> [MusicPlayerEvent] {
        var events: [MusicPlayerEvent] = []
        if now.nowPlayingItem != was.nowPlayingItem { events.append(.nowPlayingItemChanged(busName: now.busName, now.nowPlayingItem)) }
        if now.playbackState != was.playbackState { events.append(.playbackStateChanged(busName: now.busName, now.playbackState)) }
        if let v = now.volume, v != was.volume { events.append(.volumeChanged(busName: now.busName, v)) }
        return events
    }
}
