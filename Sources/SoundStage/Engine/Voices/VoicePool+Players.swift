// Players go through the same pool as voices: a player's source is lent by the pool and
// counts against its real voices, as a pinned voice would. When the real voices are all in
// use, the weakest voice gives its source up to the player (it becomes virtual and keeps
// time); players never get fewer sources than the context has.
extension VoicePool {
    /// Lends a source in `context` to a player.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context
    ///   has no source left and no voice holds one.
    func lendSource(_ held: borrowing LockHeld, in context: AudioContext) throws -> AudioSource {
        try state.withLockedValue(held) { s in
            if !s.isConfigured { try configure(&s, s.configuration, context: context) }
            if s.reals.count + s.lent >= s.realLimit, let weakest = weakestReal(s) {
                let w = Int(s.reals[weakest.real].slot)
                if s.slots[w].whenVirtual == .stop { end(&s, w, .culled) } else { makeVirtual(&s, w, fade: true) }
            }
            let source: AudioSource
            if let spare = s.spare.popLast() {
                s.sourcesMade -= 1   // it leaves the pool's own sources
                source = spare
            } else if s.leaving.count > 0, context.sourceCount >= context.sourceLimit {
                // The context is full: a source still fading out is cut short for the player.
                source = s.leaving.removeLast()
                s.sourcesMade -= 1
                try source.stop()
                try source.setBuffer(nil)
                try source.set(.gain, to: 1)
            } else {
                source = try AudioSource(context: context)
            }
            s.lent += 1
            return source
        }
    }

    /// A player gives its source back (it goes away, or moves to another device); the
    /// source goes when its last reference does.
    func takeBack(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { s in s.lent = max(0, s.lent - 1) }
    }

    /// Real voices the pool may have now: its limit less the sources lent to players.
    func voiceCapacity(_ s: VoicePoolState) -> Int { max(0, s.realLimit - s.lent) }
}
