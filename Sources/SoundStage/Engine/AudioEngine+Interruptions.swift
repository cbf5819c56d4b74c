extension AudioEngine {
    /// Pauses every playing player and tells each (``PlayerEvent/interruptionBegan``), as
    /// when another app or a phone call takes the audio. The audio session drives this.
    /// Until ``endInterruption(resume:)``, `play()` throws and scheduled starts wait.
    public func beginInterruption() {
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
        deliverEvents()
    }

    /// Ends an interruption: tells each interrupted player (``PlayerEvent/interruptionEnded``)
    /// and, when `resume` is true, plays it on from where it was paused.
    public func endInterruption(resume: Bool = true) {
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
        deliverEvents()
    }
}
