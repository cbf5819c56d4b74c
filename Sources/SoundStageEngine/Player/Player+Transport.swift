import SoundStageCore
import SoundStageSession

extension Player {
    /// Makes the source and queues the sound from ``currentTime``, so ``play()`` starts at
    /// once. Called by ``play()`` when needed.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context has
    ///   no source left, and what decoding the first chunk of a streamed sound throws.
    public func prepareToPlay() throws {
        try keepingEngine { try OpenAL.lock.withLock { held in _ = try prepare(held) } }
    }

    /// Plays, or resumes after ``pause()``. Playing again after the sound finished or was
    /// stopped starts from ``currentTime`` (0 after a natural end).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context has
    ///   no source left, ``SoundStageError/Code-swift.struct/invalidState`` during an
    ///   interruption or once the engine is gone, and the errors of preparing the source.
    public func play() throws {
        let engine = try liveEngine("play()")
        try OpenAL.lock.withLock { held in
            if engine.isInterrupted(held) {
                throw failure(.invalidState, "play()", "the audio is interrupted; players resume when the interruption ends")
            }
            let status = state.withLockedValue(held) { s in
                settleEnded(&s, held)
                return s.status
            }
            switch status {
            case .playing:
                return
            case .paused:
                let resumed = try state.withLockedValue(held) { s -> Bool in
                    guard let source = s.source else { return false }
                    try unsilence(&s, held)
                    try source.play()
                    return true
                }
                if resumed { markStarted(held) }
            case .scheduled, .idle, .stopped:
                try engine.startTogether(held, [self])
            }
        }
    }

    /// Plays at engine time `time` in seconds (``AudioEngine/currentTime``): on its exact
    /// frame in an offline render, within one service tick in real time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time in the past.
    public func play(atTime time: Double) throws { try liveEngine("play(atTime:)").play([self], atTime: time) }

    /// Plays at engine frame `frame` (``AudioEngine/currentFrame``): sample-exact offline,
    /// within one service tick in real time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a frame in the past.
    public func play(atFrame frame: Int) throws { try liveEngine("play(atFrame:)").play([self], atFrame: frame) }

    /// Pauses; ``play()`` resumes from here. A scheduled start is cancelled (the player stays
    /// prepared, paused at its start).
    public func pause() {
        keepingEngine { pauseKeepingEngine() }
    }

    private func pauseKeepingEngine() {
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { s in
                s.wasInterrupted = false
                s.pausedByBus = false
                switch s.status {
                case .playing:
                    guard let source = s.source, !settleEnded(&s, held) else { return }
                    do { try pauseSource(&s, held, source) } catch { report(&s, held, error) }
                    s.status = .paused
                    s.underrunWatch = nil
                case .scheduled:
                    engineRef?.unschedule(held, self)
                    s.status = .paused
                    engineRef?.retain(held, self)
                default:
                    return
                }
            }
        }
    }

    /// Stops without reporting ``PlayerEvent/finished(successfully:)``, as on iOS (even an
    /// end already reached and not yet delivered). The next ``play()`` starts from
    /// ``currentTime``, which stop leaves where it was.
    public func stop() {
        keepingEngine {
            OpenAL.lock.withLock { held in
                state.withLockedValue(held) { s in
                    guard s.status != .idle && s.status != .stopped else { return }
                    stop(&s, held)
                }
            }
        }
    }

    // MARK: - Under the lock

    /// Pauses the player's source, its gain set to 0 first. OpenAL Soft 1.20 and later, with
    /// HRTF on, play a source paused before the mixer first took it up (a play and a pause
    /// within one mixer update) as a ramp from its full gain over a whole update, some
    /// 1,000 frames, where a pause later fades over 64; with its gain at 0 it is silent in
    /// both cases, and the usual fade is unchanged (measured: `scripts/probes/pause-before-mix.c`).
    func pauseSource(_ s: inout PlayerState, _ held: borrowing LockHeld, _ source: AudioSource) throws {
        var silent = sourceSettings(s)
        silent.gain = 0
        try silent.write(.gain, to: source, held)
        s.silencedForPause = true
        try source.pause()
    }

    /// Before the player's source plays again: the gain its pause took away.
    func unsilence(_ s: inout PlayerState, _ held: borrowing LockHeld) throws {
        guard s.silencedForPause else { return }
        s.silencedForPause = false
        try apply(.gain, &s, held)
    }

    /// Makes the source if needed and, unless it is fed already, feeds it from the start frame.
    @discardableResult
    func prepare(_ held: borrowing LockHeld) throws -> AudioSource {
        let busGain = busGain(held)
        let engine = try liveEngine("prepareToPlay()")
        let context = engine.context
        return try state.withLockedValue(held) { s in
            if let old = s.source, old.context !== context, !s.isEngaged {
                // The engine moved to another device since this player last played.
                try replaceSource(&s, old, in: context, held)
            }
            // The source comes from the engine's pool, as a pinned voice's would. With none left
            // the error names this player (the context's own names only the context).
            let source: AudioSource
            do {
                source = try s.source ?? engine.lendSource(held, in: context)
            } catch let error as SoundStageError where error.code == .sourceLimitReached {
                throw failure(.sourceLimitReached, "prepareToPlay()", "no OpenAL source left to play on: \(error.object): \(error.reason)")
            }
            s.source = source
            try unsilence(&s, held)
            if s.isEngaged || s.pendingStart != nil {
                // Fed already: only the bus and its effects may have changed since (a bus
                // unmuted, an effect or a reverb zone added meanwhile).
                let gainChanged = s.appliedBusGain != busGain
                s.appliedBusGain = busGain
                try apply(gainChanged ? [.gain, .effects] : .effects, &s, held)
                return source
            }
            try feed(&s, source, from: s.startFrame)
            s.appliedBusGain = busGain
            try apply([.gain, .pitch, .placement, .effects], &s, held)
            return source
        }
    }

    /// Feeds the source to play from sound frame `frame` once started.
    private func feed(_ s: inout PlayerState, _ source: AudioSource, from frame: Int) throws {
        try source.stop()
        try source.setBuffer(nil)
        s.feed = nil
        s.finishAt = nil
        let feed = try makeFeed(&s, in: source.context)
        try feed.attach(to: source, atFrame: frame)
        s.feed = feed
        s.pendingStart = frame
    }

    /// How the player's sound is fed: a looping buffer with loop points for a loop region,
    /// otherwise as every sound is (``Sound/makeFeed(plays:in:)``).
    ///
    /// `plays` is how many plays are left (-1 forever); nil: as many as ``numberOfLoops`` asks.
    /// The buffers come from `context`'s device.
    func makeFeed(_ s: inout PlayerState, in context: AudioContext, plays: Int? = nil) throws -> any PlaybackFeed {
        // numberOfLoops + 1 plays, Int.max at most (numberOfLoops = Int.max plays as long).
        let plays = plays ?? (s.settings.numberOfLoops < 0 ? -1 : s.settings.numberOfLoops.addingReportingOverflow(1).overflow ? Int.max : s.settings.numberOfLoops + 1)
        if !sound.isStreamed, let region = s.settings.loopRegion {
            let frames = loopRegionFrames(of: region)
            let kept = s.loopBuffer.flatMap { $0.context.device === context.device ? $0 : nil }
            let buffer = try kept ?? makeLoopBuffer(frames, in: context)
            s.loopBuffer = buffer
            return LoopingBufferFeed(sound: sound, buffer: buffer, loopEnd: frames.upperBound)
        }
        return try sound.makeFeed(plays: plays, in: context, buffering: s.settings.streamBuffering)
    }

    /// A copy of the sound's buffer with loop points on `frames`, on `context`'s device.
    private func makeLoopBuffer(_ frames: Range<Int>, in context: AudioContext) throws -> AudioBuffer {
        guard sound.buffer != nil else {
            throw failure(.invalidState, "setLoopRegion(_:)", "loop regions need a loaded sound, not a streamed one")
        }
        let buffer = try sound.buffer(in: context).copy(to: context)
        try buffer.setLoopPoints(frames: frames)
        return buffer
    }

    /// The fed source was started by the engine (`alSourcePlayv`).
    func markStarted(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { s in
            s.pendingStart = nil
            s.status = .playing
            s.wasInterrupted = false
            s.pausedByBus = false
            s.serviceError = nil
            s.run += 1
        }
        engineRef?.retain(held, self)
    }

    /// The player was prepared and put in a scheduled start.
    func markScheduled(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { $0.status = .scheduled }
    }

    /// A scheduled start that could not happen: the player is left stopped, and told
    /// (`finished(successfully: false)`, of a run of its own).
    func abandonSchedule(_ held: borrowing LockHeld) {
        let run = state.withLockedValue(held) { s -> Int? in
            guard s.status == .scheduled else { return nil }
            s.status = .stopped
            s.run += 1
            return s.run
        }
        if let run { engineRef?.post(held, .finished(successfully: false), to: self, run: run) }
    }

    func isPlaying(_ held: borrowing LockHeld) -> Bool { state.withLockedValue(held) { $0.status == .playing } }
    func isScheduled(_ held: borrowing LockHeld) -> Bool { state.withLockedValue(held) { $0.status == .scheduled } }
    func currentRun(_ held: borrowing LockHeld) -> Int { state.withLockedValue(held) { $0.run } }

    /// stop() on the state: keeps the playhead for the next play (0 for a sound already
    /// played out) and cancels a finished event not yet delivered.
    func stop(_ s: inout PlayerState, _ held: borrowing LockHeld) {
        var frame = min(currentFrame(s), max(0, sound.frameCount - 1))
        if let source = s.source, playedOut(s, source) { frame = 0 }
        s.cancelledThrough = s.run
        halt(&s, held, resumeAt: frame)
    }

    /// Stops the source, lets the engine go of the player and leaves it stopped, to start
    /// from `frame` next time.
    func halt(_ s: inout PlayerState, _ held: borrowing LockHeld, resumeAt frame: Int) {
        s.startFrame = frame
        s.status = .stopped
        s.finishAt = nil
        s.wasInterrupted = false
        s.pausedByBus = false
        if let source = s.source {
            do { try source.stop() } catch { report(&s, held, error) }
            do { try source.setBuffer(nil) } catch { report(&s, held, error) }
        }
        s.feed = nil
        s.pendingStart = nil
        s.heard = nil
        s.underrunWatch = nil
        s.tweens.removeAll()
        timeline?.halted(held, playedOut: false, by: self, engine: engineRef)
        engineRef?.release(held, self)
    }
}
