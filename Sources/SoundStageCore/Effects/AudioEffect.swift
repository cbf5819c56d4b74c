import COpenAL

/// An EFX effect object: settings OpenAL applies once loaded into an ``EffectSlot``. Whether
/// OpenAL has the effect type is asked at runtime (`alGetEnumValue`): one it lacks is
/// ``SoundStageError/Code-swift.struct/extensionMissing``, and reverb falls back from EAX
/// reverb to standard reverb.
///
/// An effect is a fixed set of settings: every parameter is checked against its EFX range
/// before OpenAL sees it. To change a slot's sound, load another effect into it (OpenAL
/// copies the effect's settings when it is loaded, so one effect may be loaded into many
/// slots). Its OpenAL name is released when the last reference goes.
public final class AudioEffect: Sendable, CustomStringConvertible {
    /// The context the effect belongs to.
    public let context: AudioContext
    package let handle: ContextHandle
    let name: ALuint
    /// The settings the effect was made with.
    public let settings: EffectSettings
    /// For reverb: whether OpenAL plays it as EAX reverb (false: the standard reverb, which
    /// has no low-frequency, pan, echo or modulation parameters).
    public let usesEAXReverb: Bool

    /// Makes an effect in `context`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without `ALC_EXT_EFX`
    ///   or for an effect type this OpenAL lacks,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` naming a parameter out of its
    ///   EFX range.
    public init(context: AudioContext, _ settings: EffectSettings) throws {
        let object = "new effect in \(context)"
        guard context.hasEFX else {
            throw Self.failure(.extensionMissing, "init(context:_:)", object: object, "effects need ALC_EXT_EFX, which \(context.device) lacks")
        }
        if let problem = settings.problem { throw Self.failure(.invalidArgument, "init(context:_:)", object: object, problem) }
        let operation = Self.operationName("init(context:_:)")
        let (present, eax) = try OpenAL.withContext(context.handle) { _ in
            (alGetEnumValue(settings.alName) != 0, alGetEnumValue("AL_EFFECT_EAXREVERB") != 0)
        }
        guard present else {
            throw Self.failure(.extensionMissing, "init(context:_:)", object: object, "this OpenAL has no \(settings.label) effect")
        }
        name = try OpenAL.makeName(in: context.handle, operation, object: object, alGenEffects, delete: alDeleteEffects) {
            settings.write(to: $0, eax: eax)
        }
        usesEAXReverb = eax
        self.context = context
        self.handle = context.handle
        self.settings = settings
    }

    deinit {
        OpenAL.deleteName(name, in: handle, Self.operationName("deinit"), object: description, alDeleteEffects)
    }

    /// For example `effect 3 (EAX reverb) in context 2`.
    public var description: String {
        if case .reverb = settings, usesEAXReverb { return "effect \(name) (EAX reverb) in \(context)" }
        return "effect \(name) (\(settings.label)) in \(context)"
    }
}

extension AudioEffect: ErrorNaming {
    package var errorObject: String { description }
}
