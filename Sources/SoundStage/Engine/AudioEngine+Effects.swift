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

    /// Silences the effects bus (``effectsBus``): every effect started with
    /// ``playEffect(_:volume:)``, every voice played without a bus of its own, and whatever
    /// else the game put on it, at once and until switched off. The same as
    /// `effectsBus.isMuted`.
    public var effectsMuted: Bool {
        get { effectsBus.isMuted }
        set { effectsBus.isMuted = newValue }
    }
}
