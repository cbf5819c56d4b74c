extension AudioEngine {
    /// Pauses every playing player and tells each (``PlayerEvent/interruptionBegan``), as
    /// when another app or a phone call takes the audio. The audio session drives this.
    /// Until ``endInterruption(resume:)``, `play()` throws and scheduled starts wait.
    public func beginInterruption() {
        interrupt()
        deliverEvents()
    }

    /// Pauses the players for an interruption; their events wait for the next tick.
    func interrupt() {
        OpenAL.lock.withLock { held in
            let players = state.withLockedValue(held) { s -> [Player] in
                guard !s.interrupted else { return [] }
                s.interrupted = true
                return Array(s.active.values)
            }
            for player in players where player.interrupt(held) {
                post(held, .interruptionBegan, to: player, run: player.currentRun(held))
            }
        }
    }

    /// Ends an interruption: tells each interrupted player (``PlayerEvent/interruptionEnded``)
    /// and, when `resume` is true, plays it on from where it was paused.
    public func endInterruption(resume: Bool = true) {
        resumeAfterInterruption(resume)
        deliverEvents()
    }

    /// Ends an interruption for the players; their events wait for the next tick.
    func resumeAfterInterruption(_ resume: Bool) {
        OpenAL.lock.withLock { held in
            let players = state.withLockedValue(held) { s -> [Player] in
                guard s.interrupted else { return [] }
                s.interrupted = false
                return Array(s.active.values)
            }
            for player in players where player.endInterruption(held, resume: resume) {
                post(held, .interruptionEnded, to: player, run: player.currentRun(held))
            }
        }
    }
}
