import SoundStageCore
import SoundStageSession

extension Player {
    /// The track's tempo and meter, for transitions and stingers on its beats and bars
    /// (``TransitionPoint/nextBeat``, ``TransitionPoint/nextBar``); nil by default. A tempo
    /// that cannot be used (see ``MusicalTempo``) is ignored; ``setTempo(_:)`` throws.
    public var tempo: MusicalTempo? {
        get { state.withLockedValue { $0.settings.tempo } }
        set { logging { try setTempo(newValue) } }
    }

    /// Sets ``tempo``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` naming what is wrong.
    public func setTempo(_ tempo: MusicalTempo?) throws {
        if let problem = tempo?.problem { throw failure(.invalidArgument, "setTempo(_:)", problem) }
        state.withLockedValue { $0.settings.tempo = tempo }
    }

    /// Fades this player out and `next` in over `duration` seconds, starting at `point`:
    /// equal power by default, so the loudness holds across two different tracks (use
    /// `.linear` for two takes of the same material, whose sum then stays constant).
    ///
    /// `next` is started at the transition's start, sample-exact offline (within a service
    /// tick in real time, heard on the beat), and rises from silence to the ``volume`` it has
    /// now; this player falls from its volume to silence and stops (without a `finished`
    /// event, as ``stop()``), its volume set back to what it was, so a crossfade back to it
    /// brings it in at that level. Beats and bars are this player's (``tempo``).
    ///
    /// ```swift
    /// try calm.crossfade(to: battle, duration: 2, on: .nextBar)
    /// ```
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for `next` being this
    ///   player, of another engine, or a duration or time that cannot be;
    ///   ``SoundStageError/Code-swift.struct/invalidState`` when `next` is already playing,
    ///   or for a beat or bar when this player has no ``tempo`` or is not playing.
    public func crossfade(to next: Player, duration: Double, curve: FadeCurve = .equalPower, on point: TransitionPoint = .now) throws {
        let member = "crossfade(to:duration:curve:on:)"
        let engine = try liveEngine(member)
        guard next !== self else { throw failure(.invalidArgument, member, "a player cannot crossfade to itself") }
        guard next.engine === engine else { throw failure(.invalidArgument, member, "\(next) belongs to another engine") }
        guard duration.isFinite, duration >= 0 else { throw failure(.invalidArgument, member, "duration must be finite and not negative, got \(duration)") }
        guard !next.isPlaying else { throw failure(.invalidState, member, "\(next) is playing already; fade it instead") }
        let start = try transitionStart(point, member)
        let target = next.volume, own = volume
        try next.setVolume(0)
        do {
            try next.start(at: start, engine: engine)
        } catch {
            try? next.setVolume(target)
            throw error
        }
        try next.addTween(.volume, member, from: { _ in .zero }, to: SIMD3(repeating: target), duration: duration, curve: curve, start: start.seconds)
        try addTween(.volume, member, from: { SIMD3(repeating: $0.volume) }, to: .zero, duration: duration, curve: curve, stopAtEnd: true,
                     start: start.seconds, volumeAfterStop: own)
    }

    /// Plays at `point` of `track`: a stinger on the next beat or bar of the music playing,
    /// sample-exact offline, heard on the beat in real time.
    ///
    /// - Throws: as ``crossfade(to:duration:curve:on:)`` for the point, and what ``play()``
    ///   throws.
    public func play(on point: TransitionPoint, of track: Player) throws {
        let member = "play(on:of:)"
        let engine = try liveEngine(member)
        guard track.engine === engine else { throw failure(.invalidArgument, member, "\(track) belongs to another engine") }
        try start(at: try track.transitionStart(point, member), engine: engine)
    }

    /// ``crossfade(to:duration:curve:on:)``: `at:` names a position or a time elsewhere
    /// (`AudioEngine.play(_:at:)`, `play(atTime:)`); a beat or bar is `on:`.
    @available(*, deprecated, renamed: "crossfade(to:duration:curve:on:)")
    public func crossfade(to next: Player, duration: Double, curve: FadeCurve = .equalPower, at point: TransitionPoint) throws {
        try crossfade(to: next, duration: duration, curve: curve, on: point)
    }

    /// ``play(on:of:)``: `at:` names a position or a time elsewhere; a beat or bar is `on:`.
    @available(*, deprecated, renamed: "play(on:of:)")
    public func play(at point: TransitionPoint, of track: Player) throws { try play(on: point, of: track) }

    /// The engine time and frame of the next `unit` of this player's sound, as heard.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` when the player has no
    ///   ``tempo`` or is not playing.
    public func nextBoundary(_ unit: MusicalUnit) throws -> (seconds: Double, frame: Int) {
        try transitionStart(unit == .beat ? .nextBeat : .nextBar, "nextBoundary(_:)")
    }

    /// Starts the player at `start`: now when that is not ahead of the engine's clock.
    private func start(at start: (seconds: Double, frame: Int), engine: AudioEngine) throws {
        if engine.isOffline ? start.frame > engine.currentFrame : start.seconds > engine.currentTime {
            if engine.isOffline { try play(atFrame: start.frame) } else { try play(atTime: start.seconds) }
        } else {
            try play()
        }
    }

    /// Where `point` falls, in engine seconds and frames; beats and bars are this player's.
    func transitionStart(_ point: TransitionPoint, _ member: String) throws -> (seconds: Double, frame: Int) {
        let engine = try liveEngine(member)
        let outputRate = Double(engine.context.frequency)
        switch point {
        case .now:
            return (engine.currentTime, engine.currentFrame)
        case .atTime(let seconds):
            return (seconds, try engine.scheduledFrame(seconds, member))
        case .nextBeat, .nextBar:
            let unit: MusicalUnit = point == .nextBeat ? .beat : .bar
            return try OpenAL.lock.withLock { held in
                // The engine's clock first, then the playhead: the engine's box is not opened
                // inside the player's.
                let (nowSeconds, nowFrame) = (engine.currentTime, engine.currentFrame)
                let latency = engine.isOffline ? 0 : engine.outputLatencySeconds(held)
                let (frame, rate, loops, tempo, playing) = state.withLockedValue(held) { s in
                    (currentFrame(s), s.settings.rate, s.settings.numberOfLoops, s.settings.tempo, s.status == .playing)
                }
                guard let tempo else { throw failure(.invalidState, member, "it has no tempo; set `tempo` for beats and bars") }
                guard playing else { throw failure(.invalidState, member, "it is not playing, so it has no next \(unit.rawValue)") }
                let time = Double(frame) / Double(sound.sampleRate)
                var boundary = tempo.nextBoundary(unit, after: time)
                // The grid starts again with each play of a sound that repeats.
                let repeats = loops != 0 || (timeline.map { $0.plan.repeatMode.withLock { $0 } != .off } ?? false)
                if boundary >= duration && repeats { boundary = duration + tempo.firstBeat }
                let ahead = (boundary - time) / Double(rate)
                // A boundary that far off (a tempo whose first beat is past the sound's end by
                // more than a start may be scheduled) is refused before any frame is counted.
                guard ahead.isFinite, ahead <= AudioEngine.latestStartSeconds else {
                    throw failure(.invalidArgument, member, "the next \(unit.rawValue) is \(ahead) s away, more than \(AudioEngine.latestStartSeconds) s")
                }
                if engine.isOffline {
                    let at = nowFrame + Int((ahead * outputRate).rounded())
                    return (Double(at) / outputRate, at)
                }
                // Started a latency early, so it is heard on the boundary with the track.
                let seconds = max(nowSeconds, nowSeconds + ahead - latency)
                return (seconds, Int((seconds * outputRate).rounded()))
            }
        }
    }
}
