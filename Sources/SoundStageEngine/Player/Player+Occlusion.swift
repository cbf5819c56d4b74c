import SoundStageCore
import SoundStageSession

extension Player {
    /// How much of a wall stands between the player and the listener, 0...1 (see
    /// ``Occlusion``): its direct sound loses highs and level. Kept in steps of 0.01;
    /// out-of-range values are clamped, NaN ignored; ``setOcclusion(_:obstruction:)`` throws.
    public var occlusion: Float {
        get { settings.occlusion }
        set { if !newValue.isNaN { logging { try setOcclusion(Occlusion.quantized(newValue), obstruction: obstruction) } } }
    }

    /// How much is in the way (the room still shared), 0...1 (see ``Occlusion``).
    public var obstruction: Float {
        get { settings.obstruction }
        set { if !newValue.isNaN { logging { try setOcclusion(occlusion, obstruction: Occlusion.quantized(newValue)) } } }
    }

    /// Sets ``occlusion`` and ``obstruction`` together; heard at once.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1.
    public func setOcclusion(_ occlusion: Float, obstruction: Float = 0) throws {
        guard Occlusion.range.contains(occlusion), Occlusion.range.contains(obstruction) else {
            throw failure(.invalidArgument, "setOcclusion(\(occlusion), obstruction: \(obstruction))", "each must be in 0...1")
        }
        try keepingEngine {
            try OpenAL.lock.withLock { held in
                try state.withLockedValue(held) { s in
                    s.settings.occlusion = Occlusion.quantized(occlusion)
                    s.settings.obstruction = Occlusion.quantized(obstruction)
                    try apply(.effects, &s, held)
                }
            }
        }
    }

    /// How much of the player goes to effects (its bus's effect and the reverb zones), 0...1:
    /// 1 by default, 0 keeps it dry. Kept in steps of 0.01; out-of-range values are clamped,
    /// NaN ignored; ``setSendLevel(_:)`` throws.
    public var sendLevel: Float {
        get { settings.sendLevel }
        set { if !newValue.isNaN { logging { try setSendLevel(Occlusion.quantized(newValue)) } } }
    }

    /// Sets ``sendLevel``; heard at once.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1.
    public func setSendLevel(_ level: Float) throws {
        guard Occlusion.range.contains(level) else {
            throw failure(.invalidArgument, "setSendLevel(\(level))", "the send level must be in 0...1")
        }
        try keepingEngine {
            try OpenAL.lock.withLock { held in
                try state.withLockedValue(held) { s in
                    s.settings.sendLevel = Occlusion.quantized(level)
                    try apply(.effects, &s, held)
                }
            }
        }
    }

    /// Sets the source's effects again after its bus's effect changed.
    func refreshEffects(_ held: borrowing LockHeld) {
        state.withLockedValue(held) { s in
            do { try apply(.effects, &s, held) } catch { report(&s, held, error) }
        }
    }
}
