import COpenAL

/// What an ``AudioFilter`` does: EFX's three filters, each gain 0...1.
public enum FilterSettings: Sendable, Hashable {
    /// Attenuates everything by `gain` and high frequencies (above about 5 kHz) by `gainHF`
    /// more: occlusion, obstruction, muffling.
    case lowpass(gain: Float = 1, gainHF: Float)
    /// Attenuates everything by `gain` and low frequencies (below about 250 Hz) by `gainLF`.
    case highpass(gain: Float = 1, gainLF: Float)
    /// Both at once.
    case bandpass(gain: Float = 1, gainLF: Float, gainHF: Float)

    /// What is out of range; nil when every value fits.
    package var problem: String? {
        let values: [(String, Float)]
        switch self {
        case .lowpass(let g, let hf): values = [("gain", g), ("gainHF", hf)]
        case .highpass(let g, let lf): values = [("gain", g), ("gainLF", lf)]
        case .bandpass(let g, let lf, let hf): values = [("gain", g), ("gainLF", lf), ("gainHF", hf)]
        }
        for (name, v) in values where !v.isFinite || !(0...1).contains(v) { return "filter \(name) must be in 0...1, got \(v)" }
        return nil
    }
}

/// An EFX filter object, for a source's direct path or one of its sends
/// (``AudioSource/setDirectFilter(_:)``, ``AudioSource/setSend(_:to:filter:)``). Its settings
/// are fixed: OpenAL copies them when the filter is attached, so to change a filter, attach
/// another. Its OpenAL name is released when the last reference goes.
public final class AudioFilter: Sendable, CustomStringConvertible {
    /// The context the filter belongs to.
    public let context: AudioContext
    package let handle: ContextHandle
    let name: ALuint
    /// The settings the filter was made with.
    public let settings: FilterSettings

    /// Makes a filter in `context`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without `ALC_EXT_EFX`,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a gain outside 0...1.
    public init(context: AudioContext, _ settings: FilterSettings) throws {
        let object = "new filter in \(context)"
        guard context.hasEFX else {
            throw Self.failure(.extensionMissing, "init(context:_:)", object: object, "filters need ALC_EXT_EFX, which \(context.device) lacks")
        }
        if let problem = settings.problem { throw Self.failure(.invalidArgument, "init(context:_:)", object: object, problem) }
        let operation = Self.operationName("init(context:_:)")
        name = try OpenAL.makeName(in: context.handle, operation, object: object, alGenFilters, delete: alDeleteFilters) { name in
            switch settings {
            case .lowpass(let gain, let gainHF):
                alFilteri(name, AL_FILTER_TYPE, AL_FILTER_LOWPASS)
                alFilterf(name, AL_LOWPASS_GAIN, gain)
                alFilterf(name, AL_LOWPASS_GAINHF, gainHF)
            case .highpass(let gain, let gainLF):
                alFilteri(name, AL_FILTER_TYPE, AL_FILTER_HIGHPASS)
                alFilterf(name, AL_HIGHPASS_GAIN, gain)
                alFilterf(name, AL_HIGHPASS_GAINLF, gainLF)
            case .bandpass(let gain, let gainLF, let gainHF):
                alFilteri(name, AL_FILTER_TYPE, AL_FILTER_BANDPASS)
                alFilterf(name, AL_BANDPASS_GAIN, gain)
                alFilterf(name, AL_BANDPASS_GAINLF, gainLF)
                alFilterf(name, AL_BANDPASS_GAINHF, gainHF)
            }
        }
        self.context = context
        self.handle = context.handle
        self.settings = settings
    }

    deinit {
        OpenAL.deleteName(name, in: handle, Self.operationName("deinit"), object: description, alDeleteFilters)
    }

    /// For example `filter 1 (lowpass) in context 2`.
    public var description: String {
        switch settings {
        case .lowpass: return "filter \(name) (lowpass) in \(context)"
        case .highpass: return "filter \(name) (highpass) in \(context)"
        case .bandpass: return "filter \(name) (bandpass) in \(context)"
        }
    }
}

extension AudioFilter: ErrorNaming {
    package var errorObject: String { description }
}
