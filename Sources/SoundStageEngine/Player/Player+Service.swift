import SoundStageCore
import SoundStageSession

extension Player {
    /// One service tick: tweens, loop top-up, streaming, end of sound. The engine reads once a
    /// tick, for all its players, the device's output `latency` in seconds and the gain of
    /// this player's bus.
    func service(_ held: borrowing LockHeld, nowSeconds now: Double, latencySeconds latency: Double, busGain: Float) {
        state.withLockedValue(held) { s in
            guard s.status == .playing, let source = s.source else { return }
            if s.appliedBusGain != busGain {
                s.appliedBusGain = busGain
                do { try apply(.gain, &s, held) } catch { report(&s, held, error) }
            }
            advanceTweens(&s, held, nowSeconds: now, busGain: busGain)
            guard s.status == .playing, settle(&s, held, source) else {
                if !isOffline, s.status == .playing, let feed = s.feed {
                    let offset = queueOffset(s, source)
                    s.heard = (feed.frame(atQueueOffset: offset), offset)
                }
                if let timeline, s.status == .playing {
                    timeline.heard(held, frame: s.heard?.frame ?? currentFrame(s), by: self, engine: engineRef)
                }
                return
            }
            if !isOffline && hasSourceLatency {
                // On a real device the mixer runs ahead of the ear by the output latency: the
                // source stops that long before its last sample is heard, so the end is
                // reported when it is heard. A stream a few hundred milliseconds old has no
                // latency reading yet (PulseAudio gives none, OpenAL Soft reads about 1 ms):
                // then at least OpenAL Soft's queue of three mixer updates, so a short sound
                // is not reported (and a tool not ended) before it has been heard.
                let queue = source.context.refresh > 0 ? 3 / Double(source.context.refresh) : 0
                let heardAt = s.finishAt ?? now + max(latency, queue)
                s.finishAt = heardAt
                if now < heardAt { return }
            }
            finish(&s, held)
        }
    }

    /// Brings a playing source's feed up to date: unqueues what was played, queues or
    /// decodes more, reports a decode error, and restarts a source that ran dry with more to
    /// play. Returns whether the sound has played out (the source stopped, nothing left).
    func settle(_ s: inout PlayerState, _ held: borrowing LockHeld, _ source: AudioSource) -> Bool {
        guard let feed = s.feed else { return true }
        if let watch = s.underrunWatch, ranDryEarly(feed, source) {
            return recoverUnderrun(&s, held, source, feed, watch)
        }
        if let stream = feed as? StreamFeed, let stall = engineRef?.takeRefillStall(), stall > 0 { stream.stallWhileQueueing = stall }
        let outcome = feed.settle(source, isOffline: isOffline, leavingDryStreams: true)
        if let decodeError = outcome.decodeError {
            engineRef?.post(held, .decodeError(decodeError), to: self, run: s.run)
        }
        for error in outcome.errors { report(&s, held, error) }
        if outcome.ranDryEarly {
            // It ran dry while this tick decoded: where it ran out is the last tick's watch.
            if let watch = s.underrunWatch { return recoverUnderrun(&s, held, source, feed, watch) }
            do { try source.play() } catch { report(&s, held, error) }
        }
        if !outcome.playedOut { watchQueue(&s, source, feed) }
        return outcome.playedOut
    }

    /// When playing, settles the feed and, if the sound has played out unnoticed, finishes
    /// it now (reporting `finished`). Returns whether it had played out.
    @discardableResult
    func settleEnded(_ s: inout PlayerState, _ held: borrowing LockHeld) -> Bool {
        guard s.status == .playing, let source = s.source, settle(&s, held, source) else { return false }
        finish(&s, held)
        return true
    }

    /// Whether the source has stopped with nothing more to play, or plays only the silence
    /// queued after the sound's end.
    func playedOut(_ s: PlayerState, _ source: AudioSource) -> Bool {
        guard s.status == .playing else { return false }
        switch source.state {
        case .stopped: return s.feed?.isExhausted ?? true
        case .playing: return s.feed.map { $0.isExhausted && $0.isInEndSilence(source) } ?? false
        default: return false
        }
    }

    /// The sound played out: the player stops and `finished` is posted, successfully unless
    /// decoding failed or the service met an error this run.
    func finish(_ s: inout PlayerState, _ held: borrowing LockHeld) {
        let successfully = s.feed?.failure == nil && s.serviceError == nil
        timeline?.halted(held, playedOut: true, by: self, engine: engineRef)
        halt(&s, held, resumeAt: 0)
        engineRef?.post(held, .finished(successfully: successfully), to: self, run: s.run)
    }

    /// An error met where no caller can catch it: kept (the run cannot finish successfully)
    /// and handed to the engine, which posts it as an ``EngineEvent`` and logs it. One is
    /// posted a run; a different later one is logged, and a repeat of the first (a refill
    /// that fails every tick) is not.
    func report(_ s: inout PlayerState, _ held: borrowing LockHeld, _ error: any Error) {
        let error = error as? SoundStageError ?? failure(.invalidState, "service", "\(error)")
        guard let first = s.serviceError else {
            s.serviceError = error
            if let engine = engineRef {
                engine.reportServiceError(held, error, player: self)
            } else {
                Log.report(error)
            }
            return
        }
        // One is posted a run; a different one is logged, a repeat (a refill failing every
        // tick) is not.
        if error != first { Log.report(error) }
    }

    /// The device's output latency in seconds, read through this player's source (it is the
    /// same for every source of the device); nil offline or without `AL_SOFT_source_latency`.
    func outputLatency(_ held: borrowing LockHeld) -> Double? {
        guard !isOffline, hasSourceLatency else { return nil }
        return state.withLockedValue(held) { s in
            guard s.status == .playing, let source = s.source else { return nil }
            return source.get(.offsetWithLatency).latency
        }
    }

    // MARK: - Interruptions

    /// Pauses for an interruption; false when the player was not playing, or had played out
    /// (it is reported finished instead).
    func interrupt(_ held: borrowing LockHeld) -> Bool {
        state.withLockedValue(held) { s in
            guard s.status == .playing, let source = s.source, !settleEnded(&s, held) else { return false }
            if s.settings.interruptionPolicy == .stop {
                stop(&s, held)
                return false
            }
            do { try pauseSource(&s, held, source) } catch { report(&s, held, error) }
            s.status = .paused
            s.wasInterrupted = true
            s.underrunWatch = nil
            return true
        }
    }

    /// A scheduled start that came due during an interruption: prepared and paused, to
    /// start when the interruption ends.
    func holdForInterruption(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { s in
            s.status = .paused
            s.wasInterrupted = true
        }
        engineRef?.retain(held, self)
    }

    /// Ends an interruption for this player, resuming it when asked; false when the
    /// interruption had not paused it.
    func endInterruption(_ held: borrowing LockHeld, resume: Bool) -> Bool {
        let (wasInterrupted, resumed) = state.withLockedValue(held) { s -> (Bool, Bool) in
            guard s.wasInterrupted else { return (false, false) }
            s.wasInterrupted = false
            guard resume, s.settings.interruptionPolicy == .resume, s.status == .paused, let source = s.source else { return (true, false) }
            do {
                try unsilence(&s, held)
                try source.play()
                return (true, true)
            } catch {
                report(&s, held, error)
                return (true, false)
            }
        }
        if resumed { markStarted(held) }
        return wasInterrupted
    }
}
