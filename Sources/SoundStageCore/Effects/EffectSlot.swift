import COpenAL
import Synchronization

/// An auxiliary effect slot: where an ``AudioEffect`` runs, fed by the sources that send to
/// it (``AudioSource/setSend(_:to:filter:)``). A source retains the slots it sends to, so a
/// slot in use is never released. When the last reference goes, its OpenAL slot is emptied
/// and kept by the context for the next `EffectSlot`, not deleted: OpenAL Soft 1.19.1
/// crashes when the device is reset (an HRTF switch) after a slot was deleted and before
/// the mixer ran again. The context's slots go with it.
public final class EffectSlot: Sendable, CustomStringConvertible {
    /// The context the slot belongs to.
    public let context: AudioContext
    package let handle: ContextHandle
    let name: ALuint
    private struct Loaded {
        var effect: AudioEffect?
        var gain: Float = 1
        var sendAuto = true
    }
    private let loaded = LockedBox(Loaded())

    /// Makes a slot in `context`, with no effect loaded.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without `ALC_EXT_EFX`,
    ///   ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context already has
    ///   ``AudioContext/effectSlotLimit`` slots.
    public init(context: AudioContext) throws {
        let object = "new effect slot in \(context)"
        guard context.hasEFX else {
            throw Self.failure(.extensionMissing, "init(context:)", object: object, "effect slots need ALC_EXT_EFX, which \(context.device) lacks")
        }
        let limit = context.effectSlotLimit
        guard context.liveEffectSlots.add(1, ordering: .relaxed).newValue <= limit else {
            context.liveEffectSlots.subtract(1, ordering: .relaxed)
            throw Self.failure(.sourceLimitReached, "init(context:)", object: object, "the context already has its \(limit) effect slots; release one")
        }
        let operation = Self.operationName("init(context:)")
        if let spare = context.spareEffectSlots.withLock({ $0.popLast() }) {
            name = spare
        } else {
            do {
                name = try OpenAL.makeName(in: context.handle, operation, object: object, alGenAuxiliaryEffectSlots,
                                           delete: alDeleteAuxiliaryEffectSlots)
            } catch {
                context.liveEffectSlots.subtract(1, ordering: .relaxed)
                throw error
            }
        }
        self.context = context
        self.handle = context.handle
    }

    deinit {
        // Emptied to a new slot's state (no effect, gain 1, sends adjusted) and kept for the
        // next slot; deleted only if that fails.
        let name = self.name
        do {
            try OpenAL.withContext(handle) { scope in
                try scope.call(Self.operationName("deinit"), on: description) {
                    Self.loadEffect(0, into: name, on: context.device)
                    alAuxiliaryEffectSlotf(name, AL_EFFECTSLOT_GAIN, 1)
                    alAuxiliaryEffectSloti(name, AL_EFFECTSLOT_AUXILIARY_SEND_AUTO, AL_TRUE)
                }
            }
            context.spareEffectSlots.withLock { $0.append(name) }
        } catch let error as SoundStageError where error.code == .deviceClosed {
            // The slot went with its device.
        } catch {
            Log.report(error)
            OpenAL.deleteName(name, in: handle, Self.operationName("deinit"), object: description, alDeleteAuxiliaryEffectSlots)
        }
        context.liveEffectSlots.subtract(1, ordering: .relaxed)
    }

    /// For example `effect slot 1 in context 2`.
    public var description: String { "effect slot \(name) in \(context)" }

    /// The effect loaded, nil for none.
    public var effect: AudioEffect? { loaded.withLock { $0.effect } }

    /// Loads `effect` (OpenAL copies its settings), or unloads with nil.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/wrongContext`` for an effect of another
    ///   context.
    public func setEffect(_ effect: AudioEffect?) throws {
        if let effect, effect.context !== context {
            throw failure(.wrongContext, "setEffect(_:)", "\(effect) belongs to \(effect.context), not \(context)")
        }
        try OpenAL.withContext(handle) { scope in
            try scope.call(Self.operationName("setEffect(_:)"), on: description) {
                Self.loadEffect(ALint(bitPattern: effect?.name ?? 0), into: name, on: context.device)
            }
            // A reverb loaded (or its settings loaded again) cross-fades into them.
            context.device.reverbMayFade(release: context.release)
        }
        loaded.withLock { $0.effect = effect }
    }

    /// Loads effect `effect` (0: none) into slot `slot` on `device`, once no reset of the
    /// device runs (``DeviceRoundTrip``): OpenAL Soft makes the new effect's state under its
    /// device's lock, holding the context's property and slot locks, and a reset takes them
    /// the other way round (1.19.1 and 1.23.1 alike). Under the gateway's lock.
    private static func loadEffect(_ effect: ALint, into slot: ALuint, on device: AudioDevice) {
        DeviceRoundTrip.run(on: device.handle.raw) { alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, effect) }
    }

    /// The gain of the slot's output, 0...1.
    public var gain: Float { loaded.withLock { $0.gain } }

    /// Sets ``gain``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1.
    public func setGain(_ gain: Float) throws {
        guard gain.isFinite, (0...1).contains(gain) else { throw failure(.invalidArgument, "setGain(\(gain))", "the gain must be in 0...1") }
        try OpenAL.withContext(handle) { scope in
            try scope.call(Self.operationName("setGain(_:)"), on: description) { alAuxiliaryEffectSlotf(name, AL_EFFECTSLOT_GAIN, gain) }
        }
        loaded.withLock { $0.gain = gain }
    }

    /// Whether OpenAL adjusts what sources send by their distance, as a room's reverb would
    /// (`AL_EFFECTSLOT_AUXILIARY_SEND_AUTO`, on by default).
    public var sendsAuto: Bool { loaded.withLock { $0.sendAuto } }

    /// Sets ``sendsAuto``.
    public func setSendsAuto(_ on: Bool) throws {
        try OpenAL.withContext(handle) { scope in
            try scope.call(Self.operationName("setSendsAuto(_:)"), on: description) {
                alAuxiliaryEffectSloti(name, AL_EFFECTSLOT_AUXILIARY_SEND_AUTO, on ? AL_TRUE : AL_FALSE)
            }
        }
        loaded.withLock { $0.sendAuto = on }
    }
}

extension EffectSlot: ErrorNaming {
    package var errorObject: String { description }
}
