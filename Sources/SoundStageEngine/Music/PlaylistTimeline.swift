import SoundStageCore
import SoundStageSession

/// Follows the item a playlist's player is heard playing, and turns each change into
/// ``PlaylistEvent``s. The player calls it from its service tick, under the lock, with the
/// frame being heard; events go out through the engine's outbox, with no lock held.
final class PlaylistTimeline: Sendable {
    struct State {
        /// The item and frame heard at the last tick; nil before the first, and after a stop.
        var last: (item: Int, frame: Int)?
        weak var playlist: Playlist?
        /// The player the playlist plays through now: another (the outgoing side of a
        /// crossfade between items) is not followed.
        var active: ObjectIdentifier?
        weak var delegate: PlaylistDelegate?
        var subscribers = EventSubscribers<PlaylistEvent>()
    }

    let plan: PlaylistPlan
    let state = LockedState(State())

    init(plan: PlaylistPlan) {
        self.plan = plan
    }

    /// The player is heard at playlist frame `frame`: a new item (or the same one begun again,
    /// as a repeat does) ends the last and starts this one.
    func heard(_ held: borrowing LockHeld, frame: Int, by player: Player, engine: AudioEngine?) {
        let item = plan.item(atFrame: min(frame, max(0, plan.frameCount - 1)))
        let events = state.withLockedValue(held) { s -> [PlaylistEvent] in
            guard s.active == ObjectIdentifier(player) else { return [] }
            defer { s.last = (item, frame) }
            guard let last = s.last else { return [.itemStarted(index: item)] }
            // A repeat goes back to the item's start; a playhead corrected for a latency that
            // changed may step back a little, which is no repeat.
            let slack = min(plan.sampleRate / 20, plan.items[item].frames / 2)
            if last.item == item && frame + slack >= last.frame { return [] }
            // Items shorter than a tick, passed between two, are reported too (in the order
            // they play when nothing repeats; a repeat of one shorter than a tick is not).
            var events: [PlaylistEvent] = [.itemEnded(index: last.item)]
            var passed = last.item
            while let next = plan.next(after: passed), next != item, next != last.item, events.count < 2 * plan.items.count {
                events += [.itemStarted(index: next), .itemEnded(index: next)]
                passed = next
            }
            return events + [.itemStarted(index: item)]
        }
        for event in events { engine?.post(held, event, to: self) }
    }

    /// A seek moved the playhead to `frame`: leaving the item heard is reported now, and the
    /// next tick does not take the jump for a repeat.
    func moved(_ held: borrowing LockHeld, toFrame frame: Int, by player: Player, engine: AudioEngine?) {
        let item = plan.item(atFrame: min(frame, max(0, plan.frameCount - 1)))
        let events = state.withLockedValue(held) { s -> [PlaylistEvent] in
            guard s.active == ObjectIdentifier(player), let last = s.last else { return [] }
            s.last = (item, frame)
            return last.item == item ? [] : [.itemEnded(index: last.item), .itemStarted(index: item)]
        }
        for event in events { engine?.post(held, event, to: self) }
    }

    /// The player stopped: the item heard ended, and when it played out the playlist
    /// finished; either way the next play starts afresh.
    func halted(_ held: borrowing LockHeld, playedOut: Bool, by player: Player, engine: AudioEngine?) {
        let last = state.withLockedValue(held) { s -> Int?? in
            guard s.active == ObjectIdentifier(player) else { return .none }
            defer { s.last = nil }
            return .some(s.last?.item)
        }
        guard let last else { return }
        if let last { engine?.post(held, .itemEnded(index: last), to: self) }
        if playedOut { engine?.post(held, .finished, to: self) }
    }

    /// Hands an event to the playlist's delegate and streams, with no lock held.
    func deliver(_ event: PlaylistEvent) {
        let (playlist, delegate, streams) = state.withLockedValue { ($0.playlist, $0.delegate, $0.subscribers.all) }
        if let playlist, let delegate {
            switch event {
            case .itemStarted(let index): delegate.playlist(playlist, didStartItem: index)
            case .itemEnded(let index): delegate.playlist(playlist, didEndItem: index)
            case .finished: delegate.playlistDidFinish(playlist)
            }
        }
        streams.yield(event)
    }
}
