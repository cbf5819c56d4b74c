import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Plays `sound` on a voice from the engine's pool, fire and forget or kept to control.
    ///
    /// ```swift
    /// try engine.setVoiceRules(VoiceRules(maxInstances: 8, minimumInterval: 0.03,
    ///                                     variation: Variation(pitch: 0.95...1.05)), for: footstep)
    /// try engine.play(footstep, at: [2, 0, -3])                    // fire and forget
    /// let engineHum = try engine.play(hum, at: car, loops: -1)     // kept to move it
    /// engineHum.position = car
    /// ```
    ///
    /// Any number of voices may play (up to ``VoiceConfiguration/maxVoices``); the most
    /// important and audible hold the pool's OpenAL sources, the rest are virtual and keep
    /// time (see ``Voice``). A play the sound's rules, its options or a full pool refuse is
    /// not an error: the voice returned has ended as ``VoiceEnd/refused``, its
    /// ``Voice/refusal`` says why, and ``VoiceCounts/refused`` counts it.
    ///
    /// - Parameters:
    ///   - sound: what plays: loaded or streamed, of this engine's device.
    ///   - position: where it plays (absolute coordinates), nil for unpositioned.
    ///   - volume: ``Voice/volumeRange``, before its bus and variation (above 1 boosts before
    ///     distance attenuation, as OpenAL's source gain).
    ///   - pitch: ``Voice/pitchRange``, before variation.
    ///   - priority: 0...255, higher wins: a voice is never stolen for one of lower
    ///     priority, and a higher priority is real before any audibility of a lower one.
    ///   - loops: 0 plays once, N plays N+1 times, -1 loops until stopped (``Voice/loopsRange``).
    ///   - bus: the bus it plays through; the effects bus by default.
    ///   - options: pinning, what a virtual voice does, distances, a cone, relative
    ///     placement and variation (``VoiceOptions``).
    /// - Returns: the voice; a refused one (``Voice/refusal``) when the rules say no, having
    ///   stolen nothing.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` during an interruption (as
    ///   ``Player/play()``),
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a value out of range or a bus
    ///   of another engine.
    @discardableResult
    public func play(_ sound: Sound, at position: SIMD3<Float>? = nil, volume: Float = 1, pitch: Float = 1, priority: Int = 128,
                     loops: Int = 0, bus: Bus? = nil, options: VoiceOptions = VoiceOptions()) throws -> Voice {
        // Named in an error only: a play that goes ahead builds no string.
        func member() -> String { "play(\(sound.label))" }
        try checkVoice(position: position, volume: volume, pitch: pitch, priority: priority, loops: loops, bus: bus, options: options, member())
        try sound.checkPlayable(on: device, member())
        let request = VoiceRequest(position: position, volume: volume, pitch: pitch, priority: UInt8(priority),
                                   plays: loops < 0 ? -1 : loops + 1, bus: (bus ?? effectsBus).index, options: options)
        return try OpenAL.lock.withLock { held in
            try checkNotShutDown(member())
            if isInterrupted(held) {
                throw failure(.invalidState, member(), "the audio is interrupted; voices and players play again when the interruption ends")
            }
            let context = self.context
            let frame = mixerFrame(held)
            // Offline the engine's clock is the frames rendered: the same read serves both.
            let seconds = isOffline ? Double(frame) / Double(context.frequency) : currentTime
            let (voice, ducking) = try voices.play(held, sound, request, context: context, nowFrame: frame, nowSeconds: seconds)
            if ducking { busesChanged(held) }
            return voice
        }
    }

    private func checkVoice(position: SIMD3<Float>?, volume: Float, pitch: Float, priority: Int, loops: Int, bus: Bus?,
                            options: VoiceOptions, _ member: @autoclosure () -> String) throws {
        if let problem = voiceProblem(position: position, volume: volume, pitch: pitch, priority: priority, loops: loops, bus: bus,
                                      options: options) {
            throw failure(.invalidArgument, member(), problem)
        }
    }

    /// What is wrong with a play's arguments (the first thing found), nil when nothing is.
    private func voiceProblem(position: SIMD3<Float>?, volume: Float, pitch: Float, priority: Int, loops: Int, bus: Bus?,
                              options: VoiceOptions) -> String? {
        if let position, !position.isFinite { return "the position must be finite" }
        if !volume.isFinite || !Voice.volumeRange.contains(volume) { return "the volume must be in \(Voice.volumeRange)" }
        if !pitch.isFinite || !Voice.pitchRange.contains(pitch) { return "the pitch must be in \(Voice.pitchRange)" }
        if !Voice.priorityRange.contains(priority) { return "the priority must be in \(Voice.priorityRange)" }
        if !Voice.loopsRange.contains(loops) { return "loops must be -1 (forever) or 0...\(Voice.loopsRange.upperBound), got \(loops)" }
        if let bus, bus.pool !== voices { return "\(bus) belongs to another engine" }
        func bad(_ distance: Float) -> Bool { !distance.isFinite || distance < 0 }
        if bad(options.referenceDistance) || bad(options.maxDistance) || bad(options.rolloffFactor) {
            return "the reference distance, maximum distance and rolloff must be finite and not negative"
        }
        if let cone = options.cone {
            if !cone.direction.isFinite || !(0...360).contains(cone.innerAngle) || !(0...360).contains(cone.outerAngle)
                || !(0...1).contains(cone.outerGain) {
                return "a cone needs a finite direction, angles in 0...360 and an outer gain in 0...1"
            }
        }
        if let v = options.variation {
            func bad(_ range: ClosedRange<Float>) -> Bool { !range.lowerBound.isFinite || !range.upperBound.isFinite || range.lowerBound <= 0 }
            if bad(v.pitch) || bad(v.volume) { return "variation factors must be finite and above 0" }
        }
        return nil
    }

    /// Sets the limits and variation for every later play of `sound` (see ``VoiceRules``).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a limit below 1, a
    ///   negative or non-finite interval, or variation factors not above 0.
    public func setVoiceRules(_ rules: VoiceRules, for sound: Sound) throws {
        let member = "setVoiceRules(_:for: \(sound.label))"
        if let limit = rules.maxInstances, limit < 1 { throw failure(.invalidArgument, member, "maxInstances must be at least 1, got \(limit)") }
        guard rules.minimumInterval.isFinite, rules.minimumInterval >= 0 else {
            throw failure(.invalidArgument, member, "the minimum interval must be finite and not negative, got \(rules.minimumInterval)")
        }
        for range in [rules.variation.pitch, rules.variation.volume] where !range.lowerBound.isFinite || !range.upperBound.isFinite || range.lowerBound <= 0 {
            throw failure(.invalidArgument, member, "variation factors must be finite and above 0, got \(range)")
        }
        voices.state.withLockedValue { s in
            let entry = voices.register(&s, sound)
            s.sounds[entry].rules = rules
        }
    }

    /// The rules set for `sound` (the defaults when none were).
    public func voiceRules(for sound: Sound) -> VoiceRules {
        voices.state.withLockedValue { s in
            // The entry must be this sound's, not a freed one's at the same address.
            guard let i = s.soundIndex[ObjectIdentifier(sound)], s.sounds[Int(i)].sound === sound else { return VoiceRules() }
            return s.sounds[Int(i)].rules
        }
    }

    /// Sizes the voice pool. Voices already playing go on; the new sizes apply from the next
    /// tick, and the generator restarts from the new seed.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for more real voices
    ///   than the context has sources, or a maximum outside ``VoiceConfiguration/maxVoicesRange``.
    public func configureVoices(_ configuration: VoiceConfiguration) throws {
        let context = self.context
        try voices.state.withLockedValue { s in try voices.configure(&s, configuration, context: context) }
    }

    /// The pool's configuration.
    public var voiceConfiguration: VoiceConfiguration { voices.state.withLockedValue { $0.configuration } }

    /// How many voices play, real and virtual, and how many were stolen or refused.
    public var voiceCounts: VoiceCounts { voices.counts }

    /// The real voices at most (see ``VoiceConfiguration/realVoices``).
    public var realVoiceLimit: Int {
        let context = self.context
        return voices.state.withLockedValue { s in
            if !s.isConfigured { try? voices.configureByDefault(&s, context: context) }
            return s.realLimit
        }
    }

    /// Moves many voices in one go (one lock for all: a game moving thousands of emitters a
    /// frame calls this once). Ended voices and non-finite positions are skipped.
    /// ``moveVoices(_:)`` moves them with no array of moves built first.
    ///
    /// - Returns: how many voices were moved.
    @discardableResult
    public func setPositions(_ moves: [(Voice, SIMD3<Float>)]) -> Int {
        moveVoices { positions in
            // Read in place: copying each handle out would retain and release its pool, an
            // atomic pair per voice, more than the rest of the loop costs.
            moves.withUnsafeBufferPointer { moves in
                var moved = 0
                for k in moves.indices where positions.move(moves[k].0, to: moves[k].1) { moved += 1 }
                return moved
            }
        }
    }

    /// Moves voices in place, under one lock: `body` gets the pool's positions and writes
    /// those of the voices it moves (``VoicePositions/move(_:to:)``,
    /// ``VoicePositions/move(_:by:)``), as a game's frame moves its emitters; the real
    /// voices' sources follow when it returns. It costs less a voice than ``setPositions(_:)``,
    /// which needs the moves in an array first:
    ///
    /// ```swift
    /// let swarm = try (0..<100).map { _ in try engine.play(hum, at: car, loops: -1) }
    /// engine.moveVoices { positions in   // each frame
    ///     for (bee, velocity) in zip(swarm, velocities) { positions.move(bee, by: velocity * dt) }
    /// }
    /// ```
    ///
    /// `body` runs with the voice pool open to it: it must not call the engine, its voices or
    /// its players, let go of the last reference to a player, nor first touch a lazily made
    /// value that does any of these (each traps), and should be as short as a loop of moves.
    /// Moves made before `body` throws are kept.
    ///
    /// - Returns: what `body` returns.
    @discardableResult
    public func moveVoices<R, E: Error>(_ body: (inout VoicePositions) throws(E) -> R) throws(E) -> R {
        try OpenAL.lock.withLock { held in voices.move(held, body) }.get()
    }

    /// The status of each of `voices`, read under one lock (a tool drawing ten thousand
    /// emitters asks once a frame, not ten thousand times).
    public func statuses(of voices: [Voice]) -> [VoiceStatus] {
        self.voices.state.withLockedValue { s in
            // A plain loop: a closure over the locked state would copy it for every voice.
            var out: [VoiceStatus] = []
            out.reserveCapacity(voices.count)
            for voice in voices { out.append(self.voices.status(s, voice)) }
            return out
        }
    }

    /// Stops every voice (players are not affected).
    public func stopVoices() {
        OpenAL.lock.withLock { held in voices.stopAll(held, .stopped) }
    }
}

extension VoicePool {
    /// Runs `body` on the table's positions (``AudioEngine/moveVoices(_:)``), then has the real
    /// voices it moved follow.
    func move<R, E: Error>(_ held: borrowing LockHeld, _ body: (inout VoicePositions) throws(E) -> R) -> Result<R, E> {
        let me = ObjectIdentifier(self)
        return state.withLockedValue(held) { s in
            let count = s.slots.count
            // The table's lanes are written through buffers (no uniqueness check per write).
            let outcome = s.slots.withMoveLanes { generation, flags, position in
                // Lent `inout`, so that a loop of moves keeps the lanes' addresses in registers
                // (a borrowed value is read through its address after every write: 4
                // instructions a move more).
                var positions = VoicePositions(count: count, generation: generation, flags: flags, position: position, pool: me)
                let outcome: Result<R, E>
                do throws(E) { outcome = .success(try body(&positions)) } catch { outcome = .failure(error) }
                // The only other positions a body can hold are another moveVoices' (nested, on
                // another engine); swapped with them, it would keep lanes past their lock.
                precondition(positions.pool == me && positions.position.base == position.base,
                             "moveVoices: the body exchanged its positions with another engine's")
                return outcome
            }
            // The real voices that moved (or are to be ranked again for another reason, which
            // writes the same placement again): their sources follow.
            for r in s.reals.indices {
                let i = Int(s.reals[r].slot)
                if s.slots.flags[i].contains(.needsRank) { writeSettings(&s, held, i, .placement) }
            }
            return outcome
        }
    }
}
