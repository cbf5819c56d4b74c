import SoundStageCore
import SoundStageSession

extension Player {
    /// The bus the player plays through: the music bus unless set. Its gain multiplies
    /// ``volume``; pausing it pauses the player, resuming it resumes the player. nil once the
    /// engine is gone.
    /// Setting a bus of another engine is ignored; ``setBus(_:)`` throws.
    public var bus: Bus? {
        get {
            guard let engine = engineRef else { return nil }
            return engine.bus(at: settings.bus)
        }
        set { if let newValue { logging { try setBus(newValue) } } }
    }

    /// Moves the player to `bus`; its gain applies at once.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a bus of another
    ///   engine, ``SoundStageError/Code-swift.struct/invalidState`` once the engine is gone.
    public func setBus(_ bus: Bus) throws {
        let engine = try liveEngine("setBus(_:)")
        guard engine.owns(bus) else {
            throw failure(.invalidArgument, "setBus(\(bus.name))", "\(bus) belongs to another engine")
        }
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { $0.settings.bus = bus.index }
            // Only this player changed bus: it takes the new bus's pause, gain and effect.
            followBus(held, paused: bus.isPausedInTree)
            refreshGain(held)
            refreshEffects(held)
        }
    }

    /// The player's bus, and whether it plays now (for ducking).
    func busPlaying(_ held: borrowing LockHeld) -> (bus: Int32, playing: Bool) {
        state.withLockedValue(held) { ($0.settings.bus, $0.status == .playing) }
    }

    /// Pauses a playing player whose bus is paused, and resumes one its bus paused once the
    /// bus plays again.
    func followBus(_ held: borrowing LockHeld, paused: Bool) {
        // An interruption holds every player; the bus resumes them only once it ends.
        if !paused, engineRef?.isInterrupted(held) == true { return }
        let resumed = state.withLockedValue(held) { s -> Bool in
            if paused, s.status == .playing, let source = s.source {
                guard !settleEnded(&s, held) else { return false }
                do { try pauseSource(&s, held, source) } catch { report(&s, held, error) }
                s.status = .paused
                s.pausedByBus = true
                return false
            }
            guard !paused, s.pausedByBus, s.status == .paused, let source = s.source else { return false }
            s.pausedByBus = false
            do {
                try unsilence(&s, held)
                try source.play()
                return true
            } catch {
                report(&s, held, error)
                return false
            }
        }
        if resumed { markStarted(held) }
    }
}
