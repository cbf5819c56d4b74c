import COpenAL

/// An EFX effect object: settings OpenAL applies once loaded into an ``EffectSlot``.
///
/// An effect is a fixed set of settings: every parameter is checked against its EFX range
/// before OpenAL sees it. To change a slot's sound, load another effect into it (OpenAL
/// copies the effect's settings when it is loaded, so one effect may be loaded into many
/// slots). Its OpenAL name is released when the last reference goes.
public final class AudioEffect: Sendable, CustomStringConvertible {
    /// The context the effect belongs to.
    public let context: AudioContext
    let handle: ContextHandle
    let name: ALuint
    /// The settings the effect was made with.
    public let settings: EffectSettings
    /// For reverb: whether OpenAL plays it as EAX reverb (false: the standard reverb, which
    /// has no low-frequency, pan, echo or modulation parameters).
    public let usesEAXReverb: Bool

    /// Makes an effect in `context`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without `ALC_EXT_EFX`,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` naming a parameter out of its
    ///   EFX range.
    public init(context: AudioContext, _ settings: EffectSettings) throws {
        let object = "new effect in \(context)"
        guard context.hasEFX else {
            throw Self.failure(.extensionMissing, "init(context:_:)", object: object, "effects need ALC_EXT_EFX, which \(context.device) lacks")
        }
        if let problem = settings.problem { throw Self.failure(.invalidArgument, "init(context:_:)", object: object, problem) }
        let operation = Self.operationName("init(context:_:)")
        (name, usesEAXReverb) = try OpenAL.withContext(context.handle) { scope in
            let eax = alGetEnumValue("AL_EFFECT_EAXREVERB") != 0
            var name: ALuint = 0
            try scope.call(operation, on: object) { alGenEffects(1, &name) }
            do {
                try scope.call(operation, on: object) { Self.write(settings, to: name, eax: eax) }
            } catch {
                alDeleteEffects(1, &name)
                throw error
            }
            return (name, eax)
        }
        self.context = context
        self.handle = context.handle
        self.settings = settings
    }

    deinit {
        OpenAL.deleteName(name, in: handle, Self.operationName("deinit"), object: description, alDeleteEffects)
    }

    /// For example `effect 3 (reverb) in context 2`.
    public var description: String {
        switch settings {
        case .reverb: return "effect \(name) (\(usesEAXReverb ? "EAX reverb" : "reverb")) in \(context)"
        case .echo: return "effect \(name) (echo) in \(context)"
        }
    }

    /// Sets the effect type and every parameter (already checked).
    private static func write(_ settings: EffectSettings, to name: ALuint, eax: Bool) {
        switch settings {
        case .reverb(let reverb):
            alEffecti(name, AL_EFFECT_TYPE, eax ? AL_EFFECT_EAXREVERB : AL_EFFECT_REVERB)
            for p in Reverb.parameters {
                let param = eax ? p.eax : p.standard
                if param != 0 { alEffectf(name, param, reverb[keyPath: p.value]) }
            }
            alEffecti(name, eax ? AL_EAXREVERB_DECAY_HFLIMIT : AL_REVERB_DECAY_HFLIMIT, reverb.decayHFLimit ? AL_TRUE : AL_FALSE)
            if eax {
                var pan = [reverb.reflectionsPan.x, reverb.reflectionsPan.y, reverb.reflectionsPan.z]
                alEffectfv(name, AL_EAXREVERB_REFLECTIONS_PAN, &pan)
                pan = [reverb.lateReverbPan.x, reverb.lateReverbPan.y, reverb.lateReverbPan.z]
                alEffectfv(name, AL_EAXREVERB_LATE_REVERB_PAN, &pan)
            }
        case .echo(let echo):
            alEffecti(name, AL_EFFECT_TYPE, AL_EFFECT_ECHO)
            for p in Echo.parameters { alEffectf(name, p.param, echo[keyPath: p.value]) }
        }
    }
}

extension AudioEffect: ErrorNaming {
    var errorObject: String { description }
}
