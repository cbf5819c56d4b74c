import SoundStageCore
import SoundStageSession

// Players go through the same pool as voices: a player's source is lent by the pool and
// counts against its real voices, as a pinned voice would. When the real voices are all in
// use, the weakest voice gives its place up to the player (it becomes virtual and keeps
// time); players never get fewer sources than the context has.
extension VoicePool {
    /// Lends a source in `context` to a player, set as a new source is (a voice may have
    /// used it with its own distances, cone and velocity). `replacing`: the player gives
    /// back the one it has once this succeeds (it moves), so it is counted once.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context
    ///   has no source left and no voice holds one; then no voice has lost anything.
    func lendSource(_ held: borrowing LockHeld, in context: AudioContext, replacing: Bool = false) throws -> AudioSource {
        try state.withLockedValue(held) { s in
            if !s.isConfigured { try configureByDefault(&s, context: context) }
            let source = try sourceForPlayer(&s, in: context)
            try resetForPlayer(source, held)
            // Over the pool's places now: the weakest voice gives its place up (fading out).
            if s.reals.count + s.sources.lent + (replacing ? 0 : 1) > s.realLimit, let weakest = weakestReal(&s) {
                let w = Int(s.reals[weakest.real].slot)
                if s.slots.whenVirtual(w) == .stop { end(&s, w, .culled) } else { makeVirtual(&s, w, fade: true) }
            }
            if !replacing { s.sources.lent += 1 }
            return source
        }
    }

    /// A source for a player: a spare, a new one while the context has room, one still
    /// fading out (cut short), or, the context being full, the weakest voice's.
    private func sourceForPlayer(_ s: inout VoicePoolState, in context: AudioContext) throws -> AudioSource {
        if let spare = s.sources.spare.popLast() {
            s.sources.made -= 1   // it leaves the pool's own sources
            return spare
        }
        if context.sourceCount < context.sourceLimit { return try AudioSource(context: context) }
        if let fading = s.sources.leaving.popLast() {
            s.sources.made -= 1
            try fading.stop()
            try fading.setBuffer(nil)
            return fading
        }
        if let weakest = weakestReal(&s) {
            let w = Int(s.reals[weakest.real].slot)
            if s.slots.whenVirtual(w) == .stop { end(&s, w, .culled, fade: false) } else { makeVirtual(&s, w, fade: false) }
            if let spare = s.sources.spare.popLast() {
                s.sources.made -= 1
                return spare
            }
        }
        return try AudioSource(context: context)   // throws sourceLimitReached, naming the context
    }

    /// Sets every property a voice writes back to OpenAL's defaults.
    private func resetForPlayer(_ source: AudioSource, _ held: borrowing LockHeld) throws {
        try SourceSettings().write(.all, to: source, held) { _ in .cleared(sendCount: source.context.auxiliarySends) }
    }

    /// A player gives its source back (it goes away); the source goes when its last
    /// reference does.
    func takeBack(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { s in s.sources.lent = max(0, s.sources.lent - 1) }
    }

    /// Real voices the pool may have now: its limit less the sources lent to players.
    func voiceCapacity(_ s: VoicePoolState) -> Int { max(0, s.realLimit - s.sources.lent) }
}
