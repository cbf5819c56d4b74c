import SoundStageCore
import SoundStageSession

// What players ask of their engine. Each touches only the engine's own state, so a player
// may call them from inside its own locked state.
extension AudioEngine {
    /// Keeps a playing, paused or scheduled player alive.
    func retain(_ held: borrowing LockHeld, _ player: Player) {
        state.withLockedValue(held) { $0.active[ObjectIdentifier(player)] = player }
    }

    /// Lets go of a player that stopped: out of the active players and the scheduled starts.
    func release(_ held: borrowing LockHeld, _ player: Player) {
        unschedule(held, player)
        _ = state.withLockedValue(held) { $0.active.removeValue(forKey: ObjectIdentifier(player)) }
    }

    /// Takes a player out of the scheduled starts.
    func unschedule(_ held: borrowing LockHeld, _ player: Player) {
        state.withLockedValue(held) { s in
            guard s.scheduled.contains(where: { $0.players.contains { $0 === player } }) else { return }
            s.scheduled = s.scheduled.compactMap { start in
                var start = start
                start.players.removeAll { $0 === player }
                return start.players.isEmpty ? nil : start
            }
        }
    }

    /// A bus changed outside the tick: every active player takes its bus's gain and pause now.
    func busesChanged(_ held: borrowing LockHeld) {
        let players = state.withLockedValue(held) { Array($0.active.values) }
        let gains = voices.busGains(held)
        for player in players {
            let (bus, _) = player.busPlaying(held)
            player.followBus(held, paused: gains.paused[Int(bus)])
            player.refreshGain(held)
            player.refreshEffects(held)
        }
    }

    /// Queues an event of run `run` for `player`, delivered after the tick.
    func post(_ held: borrowing LockHeld, _ event: PlayerEvent, to player: Player, run: Int) {
        state.withLockedValue(held) { $0.outbox.append(.player(player, event, run: run)) }
    }

    /// The output latency the last service tick read, in seconds (0 offline).
    func outputLatencySeconds(_ held: borrowing LockHeld) -> Double {
        state.withLockedValue(held) { $0.lastLatencySeconds }
    }

    /// Queues an underrun's report.
    func post(_ held: borrowing LockHeld, _ underrun: StreamUnderrun) {
        state.withLockedValue(held) { $0.outbox.append(.engine(.streamUnderrun(underrun))) }
    }

    /// Queues a playlist's event for delivery after the tick.
    func post(_ held: borrowing LockHeld, _ event: PlaylistEvent, to timeline: PlaylistTimeline) {
        state.withLockedValue(held) { $0.outbox.append(.playlist(timeline, event)) }
    }

    /// Whether an interruption holds the output.
    func isInterrupted(_ held: borrowing LockHeld) -> Bool {
        state.withLockedValue(held) { $0.interrupted }
    }

    // The voice pool as players see it: they reach it only through these.

    /// A source for a player, from the pool (counted as a pinned real voice); `replacing`: in
    /// place of one the player gives back (a move), counted once.
    func lendSource(_ held: borrowing LockHeld, in context: AudioContext, replacing: Bool = false) throws -> AudioSource {
        try voices.lendSource(held, in: context, replacing: replacing)
    }

    /// A player's source goes back to the pool's count.
    func takeBackSource(_ held: borrowing LockHeld) {
        voices.takeBack(held)
    }

    /// The gain bus `bus` gives now.
    func gain(_ held: borrowing LockHeld, ofBus bus: Int32) -> Float {
        voices.gain(held, ofBus: bus)
    }

    /// The filter and sends a player's source takes for `settings`, as the pool's voices
    /// take theirs.
    func sends(_ held: borrowing LockHeld, for settings: SourceSettings, in context: AudioContext) throws -> SourceSends {
        try voices.state.withLockedValue(held) { pool in try voices.sends(&pool, for: settings, in: context) }
    }
}
