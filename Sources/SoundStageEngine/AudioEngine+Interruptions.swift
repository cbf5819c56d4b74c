import SoundStageCore
import SoundStageSession

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
            holdVoices(held)
        }
    }

    /// Holds the voices while the engine is interrupted or its device paused for the session
    /// (they wait, silenced at once, their playheads still, and go on from where they were),
    /// and lets them go when neither holds.
    func holdVoices(_ held: borrowing LockHeld) {
        let hold = state.withLockedValue(held) { $0.interrupted || $0.devicePaused }
        voices.setInterrupted(held, hold, nowSeconds: currentTime)
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
            holdVoices(held)
        }
    }
}
