extension AudioEngine {
    /// Plays a non-positioned sound once, fire and forget (the System Sound Services
    /// one-liner). It is silent while ``effectsMuted`` is on.
    ///
    /// - Returns: the player, should the caller want to stop it early.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a volume outside
    ///   0...1, and what ``Player/play()`` throws.
    @discardableResult
    public func playEffect(_ sound: Sound, volume: Float = 1) throws -> Player {
        let player = Player(sound: sound, engine: self, isEffect: true)
        try player.setVolume(volume)
        try player.play()
        return player
    }

    /// Silences every effect started with ``playEffect(_:volume:)``, at once and until
    /// switched off; other players are not affected.
    public var effectsMuted: Bool {
        get { state.withLockedValue { $0.effectsMuted } }
        set {
            OpenAL.lock.withLock { held in
                let effects = state.withLockedValue(held) { s in
                    s.effectsMuted = newValue
                    return s.active.values.filter(\.isEffect)
                }
                for player in effects { player.refreshGain(held) }
            }
        }
    }
}
