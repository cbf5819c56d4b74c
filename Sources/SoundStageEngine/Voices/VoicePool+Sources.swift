import SoundStageCore
import SoundStageSession

// Real voices: taking a source for a voice, giving it back, and keeping the source in step
// with the voice.
extension VoicePool {
    /// Gives voice `i` a source and starts it at the sample its playhead says. False when no
    /// source can be had or the sound cannot be fed (the error is kept for the engine to
    /// report); the voice stays virtual.
    @discardableResult
    func makeReal(_ s: inout VoicePoolState, _ held: borrowing LockHeld, _ i: Int, in context: AudioContext) -> Bool {
        guard s.reals.count < voiceCapacity(s), let source = takeSource(&s, in: context) else { return false }
        guard let sound = s.sounds[Int(s.slots.details[i].sound)].playing else { return false }
        let frames = Int64(max(1, sound.frameCount))
        let length = s.slots.length[i]
        let position = max(0, s.slots.playhead(i, at: s.clockFrame)), bits = Int64(s.stepping.fractionBits)
        let played = position >> bits
        let fraction = Double(position & (s.stepping.one - 1)) / Double(s.stepping.one)
        let plays = length == .max ? -1 : Int((length >> bits) / frames - played / frames)
        guard plays != 0 else {
            // It reached its end while it waited: it is done.
            recycle(&s, source)
            end(&s, i, .finished, fade: false)
            return false
        }
        do {
            // On the fraction of a frame where a source that never stopped would be: far into
            // a loaded sound, only a stream of its samples can start there.
            let frame = Int(played % frames)
            let feed = try sound.makeFeed(plays: plays, in: context, fromMemory: fraction > 0 && frame >= s.stepping.exactOffsetFrames)
            try feed.attach(to: source, atFrame: frame, fraction: fraction)
            s.reals.append(RealVoice(slot: Int32(i), source: source, feed: feed, gain: -1,
                                     loopsInPlace: plays < 0 && feed.isExhausted))
            s.slots.setReal(i, Int32(s.reals.count - 1))
            writeSettings(&s, held, i, .all)
            try source.play()
            return true
        } catch {
            s.errors.append(error)
            if s.slots.real[i] >= 0 { dropReal(&s, Int(s.slots.real[i])) }
            recycle(&s, source)
            return false
        }
    }

    /// A stopped, empty source: a spare one, a new one while the pool may make more, or one
    /// still fading out (cut short).
    private func takeSource(_ s: inout VoicePoolState, in context: AudioContext) -> AudioSource? {
        if let source = s.sources.spare.popLast() { return source }
        if s.sources.made < s.sources.limit {
            do {
                let source = try AudioSource(context: context)
                s.sources.made += 1
                return source
            } catch {
                // The context is full for now (players, the game's own sources): a source
                // fading out serves, and the next tick tries again.
            }
        }
        guard let source = s.sources.leaving.popLast() else { return nil }
        empty(&s, source)
        return source
    }

    /// Stops and empties a source.
    private func empty(_ s: inout VoicePoolState, _ source: AudioSource) {
        do {
            try source.stop()
            try source.setBuffer(nil)
        } catch {
            s.errors.append(error)
        }
    }

    /// Puts an emptied source back with the spares.
    private func recycle(_ s: inout VoicePoolState, _ source: AudioSource) {
        empty(&s, source)
        s.sources.spare.append(source)
    }

    /// Takes voice `i`'s source away. With `fade`, the source is silenced now (OpenAL ramps
    /// the gain down over its next mix, so there is no click) and stopped at the next tick;
    /// without, it stops at once (a voice that played out, an engine going away).
    func makeVirtual(_ s: inout VoicePoolState, _ i: Int, fade: Bool) {
        let r = Int(s.slots.real[i])
        guard r >= 0 else { return }
        let source = s.reals[r].source
        dropReal(&s, r)
        if fade, source.state == .playing {
            do { try source.set(.gain, to: 0) } catch { s.errors.append(error) }
            s.sources.leaving.append(source)
        } else {
            recycle(&s, source)
        }
    }

    /// Removes real voice `r` from the list (its slot becomes virtual).
    private func dropReal(_ s: inout VoicePoolState, _ r: Int) {
        s.slots.setReal(Int(s.reals[r].slot), -1)
        let last = s.reals.count - 1
        if r != last {
            s.reals[r] = s.reals[last]
            s.slots.setReal(Int(s.reals[r].slot), Int32(r))
        }
        s.reals.removeLast()
    }

    /// Stops the sources silenced at the last tick and makes them spares.
    func releaseLeaving(_ s: inout VoicePoolState) {
        let leaving = s.sources.leaving
        s.sources.leaving.removeAll()
        for source in leaving { recycle(&s, source) }
        trimSpares(&s)
    }

    /// Lets go of spare sources beyond the pool's size (it shrank): the context gets them back.
    func trimSpares(_ s: inout VoicePoolState) {
        while s.sources.made > s.sources.limit, !s.sources.spare.isEmpty {
            s.sources.spare.removeLast()
            s.sources.made -= 1
        }
    }

    /// Before the engine leaves its device at engine frame `frame`: every playhead is brought
    /// to that frame. Leaving a device that still plays (`stoppingSources`), which plays out
    /// what it has mixed before it closes, a real voice's source stops where its mixer is
    /// (a pause takes effect at once), and that is where the voice goes on from.
    func leave(_ held: borrowing LockHeld, atFrame frame: Int, stoppingSources: Bool) {
        state.withLockedValue(held) { s in
            let since = Int64(max(0, frame - s.clockFrame))
            // Playheads that move are there by themselves; the others stay where they were.
            for i in s.slots.indices where s.slots.isLive(i) && !advances(s, i) { s.slots.hold(i, by: since) }
            s.clockFrame = max(s.clockFrame, frame)
            guard stoppingSources else { return }
            for r in s.reals.indices {
                do { try s.reals[r].source.pause() } catch { s.errors.append(error) }
                if let playhead = mixerPlayhead(s, r) { s.slots.setPlayhead(Int(s.reals[r].slot), playhead, at: s.clockFrame) }
            }
        }
    }

    /// Real voice `r`'s playhead where its source's mixer is, to the fraction of a frame (a
    /// real-time engine's clock is the wall's, and a source runs by its device's); nil
    /// without `AL_SOFT_source_latency`.
    private func mixerPlayhead(_ s: VoicePoolState, _ r: Int) -> Int64? {
        let real = s.reals[r], i = Int(real.slot)
        guard real.source.context.isExtensionPresent("AL_SOFT_source_latency"),
              let frames = s.sounds[Int(s.slots.details[i].sound)].playing.map({ Int64(max(1, $0.frameCount)) }) else { return nil }
        let offset = real.source.fixedSampleOffsetWithLatency().offset
        let bits = Int64(s.stepping.fractionBits)
        // The frame of the play the source is in, against the one the playhead is in: the
        // same play, or the one before or after across a loop.
        let model = s.slots.playhead(i, at: s.clockFrame) >> bits
        var shift = Int64(real.feed.frame(atQueueOffset: Int(offset >> 32))) - model % frames
        if shift > frames / 2 { shift -= frames } else if shift < -frames / 2 { shift += frames }
        return max(0, (model + shift) << bits | (offset & 0xffff_ffff) >> (32 - bits))
    }

    /// The engine moved to another device (after ``leave(_:atFrame:stoppingSources:)``), whose
    /// mixer is at `clockFrame`: every source (on the old one) is dropped, real voices become
    /// virtual and keep time, and the playhead steps follow a change of sample rate (or of
    /// mixer).
    func moved(_ held: borrowing LockHeld, to newRate: Int, clockFrame: Int) {
        state.withLockedValue(held) { s in
            dropSources(&s)
            // The playheads are as of the moment the engine left; the new device's clock is there now.
            rebaseClock(&s, to: clockFrame)
            guard let context = s.engine?.context else { return }
            if s.isConfigured { resize(&s, context: context) }
            let stepping = context.mixerStepping
            if stepping != s.stepping {
                // Playheads and lengths in the new mixer's fixed point.
                let shift = Int64(stepping.fractionBits - s.stepping.fractionBits)
                for i in s.slots.indices where s.slots.isLive(i) {
                    let playhead = s.slots.playhead(i, at: s.clockFrame), length = s.slots.length[i]
                    s.slots.setTiming(i, playhead: shift >= 0 ? playhead << shift : playhead >> -shift, increment: s.slots.increment[i],
                                      length: length == .max ? .max : shift >= 0 ? length << shift : length >> -shift, at: s.clockFrame)
                }
                s.stepping = stepping
            }
            guard newRate > 0 else { return }
            for i in s.slots.indices where s.slots.isLive(i) {
                let rate = s.sounds[Int(s.slots.details[i].sound)].playing?.sampleRate ?? newRate
                s.slots.details[i].rateRatio = MixerStepping.rateRatio(soundRate: rate, outputRate: newRate)
                s.slots.setIncrement(i, stepping.increment(ratio: s.slots.details[i].rateRatio, pitch: s.slots.pitch[i]), at: s.clockFrame)
            }
        }
    }

    /// Moves the pool's clock to `frame` without moving any playhead (the engine's clock
    /// starts again on another device).
    func rebaseClock(_ s: inout VoicePoolState, to frame: Int) {
        let shift = Int64(frame) &- Int64(s.clockFrame)
        for i in s.slots.indices where s.slots.isLive(i) { s.slots.hold(i, by: shift) }
        s.clockFrame = frame
    }

    /// The engine frame the playheads are as of.
    func clockFrame(_ held: borrowing LockHeld) -> Int { state.withLockedValue(held) { $0.clockFrame } }

    /// The shared filter for `settings` on `context`, made the first time it is asked for.
    func filter(_ s: inout VoicePoolState, _ settings: FilterSettings?, in context: AudioContext) throws -> AudioFilter? {
        guard let settings else { return nil }
        if let made = s.sources.filters[settings], made.context === context { return made }
        let made = try AudioFilter(context: context, settings)
        s.sources.filters[settings] = made
        return made
    }

    /// Drops every source: real voices become virtual and keep time.
    func dropSources(_ s: inout VoicePoolState) {
        s.sources.filters.removeAll()
        // Bus effects' slots are on the old device: made again when first needed.
        for b in s.tree.buses.indices { s.tree.buses[b].effectSlot = nil }
        for l in s.zones.lanes.indices { s.zones.lanes[l].slot = nil }
        for r in s.reals.indices.reversed() { s.slots.setReal(Int(s.reals[r].slot), -1) }
        s.reals.removeAll()
        s.sources.leaving.removeAll()
        s.sources.spare.removeAll()
        s.sources.made = 0
    }

    /// Voice `i`'s settings as its source takes them: its volume times its bus's gain,
    /// placed in the world, at an offset from the listener, or at the listener.
    func sourceSettings(_ s: VoicePoolState, _ i: Int) -> SourceSettings {
        let slot = s.slots.row(i), details = s.slots.details[i]
        let placement: SourcePlacement = slot.positioned && !slot.relative ? .world(slot.position) : .listener(slot.positioned ? slot.position : .zero)
        return SourceSettings(gain: slot.volume * s.tree.buses[Int(slot.bus)].gain, pitch: slot.pitch, placement: placement,
                              velocity: details.velocity, distance: slot.distance, cone: details.cone, occlusion: details.occlusion,
                              obstruction: details.obstruction, sendLevel: details.sendLevel, bus: slot.bus)
    }

    /// Writes `parts` of voice `i`'s settings to its source, if it has one: every part when
    /// it becomes real, the one a change through its handle touched after.
    func writeSettings(_ s: inout VoicePoolState, _ held: borrowing LockHeld, _ i: Int, _ parts: SourceSettings.Parts) {
        let r = Int(s.slots.real[i])
        guard r >= 0 else { return }
        let source = s.reals[r].source
        let settings = sourceSettings(s, i)
        var parts = parts
        // A placement in the space already written: its point alone (a move, most often).
        let isRelative = settings.placement.isRelative
        if parts.contains(.placement), s.reals[r].isRelative == isRelative {
            parts.remove(.placement)
            parts.insert(.position)
        }
        do {
            try settings.write(parts, to: source, held) { try sends(&s, for: $0, in: source.context) }
            if parts.contains(.placement) { s.reals[r].isRelative = isRelative }
        } catch {
            s.errors.append(error)
            s.reals[r].isRelative = nil
        }
        if parts.contains(.gain) { s.reals[r].gain = settings.gain }
    }

    /// Writes real voice `r`'s gain (its volume times its bus) when it changed.
    func writeGain(_ s: inout VoicePoolState, _ held: borrowing LockHeld, _ r: Int) {
        let i = Int(s.reals[r].slot)
        guard s.slots.volume[i] * s.tree.buses[Int(s.slots.bus[i])].gain != s.reals[r].gain else { return }
        writeSettings(&s, held, i, .gain)
    }
}
