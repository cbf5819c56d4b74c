import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Plays a non-positioned sound once on a player of its own, on the effects bus.
    ///
    /// Deprecated: the one-shot call is ``play(_:at:volume:pitch:priority:loops:bus:options:)``,
    /// which plays on the same bus, unpositioned when `at` is nil, and returns a ``Voice``:
    /// counted in the pool, held to the sound's ``VoiceRules``, and refused (not thrown) when
    /// they say no. This one stays, and works as it did.
    ///
    /// - Returns: the player, should the caller want to stop it early.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a volume outside
    ///   0...1, and what ``Player/play()`` throws.
    @available(*, deprecated, message: "use play(_:volume:), the one-shot call: it returns a Voice on the effects bus")
    @discardableResult
    public func playEffect(_ sound: Sound, volume: Float = 1) throws -> Player {
        let player = Player(sound: sound, engine: self, isEffect: true)
        try player.setVolume(volume)
        try player.play()
        return player
    }

    /// Silences the effects bus (``effectsBus``): every voice played without a bus of its
    /// own, and whatever else the game put on it, at once and until switched off. The same as
    /// `effectsBus.isMuted`.
    public var effectsMuted: Bool {
        get { effectsBus.isMuted }
        set { effectsBus.isMuted = newValue }
    }
}
