import COpenAL

/// What an ``AudioEffect`` does: the effect type and its parameters. Every effect OpenAL Soft
/// 1.19 implements is here (it has no vocal morpher).
public enum EffectSettings: Sendable, Hashable {
    /// Reverb: EAX reverb when OpenAL has it, standard reverb otherwise (see ``Reverb``).
    case reverb(Reverb)
    /// Echo: repeats of the sound, alternating left and right (see ``Echo``).
    case echo(Echo)
    /// Chorus: copies slightly delayed and detuned, for a fuller sound (see ``Chorus``).
    case chorus(Chorus)
    /// Flanger: a short, swept delay mixed back in (see ``Flanger``).
    case flanger(Flanger)
    /// Distortion: clipping with pre- and post-filters (see ``Distortion``).
    case distortion(Distortion)
    /// A four-band equalizer (see ``Equalizer``).
    case equalizer(Equalizer)
    /// A compressor that evens out the level (see ``Compressor``).
    case compressor(Compressor)
    /// Ring modulation by a carrier tone (see ``RingModulator``).
    case ringModulator(RingModulator)
    /// Auto-wah: a band-pass filter that follows the level (see ``Autowah``).
    case autowah(Autowah)
    /// Pitch shift by semitones and cents (see ``PitchShifter``).
    case pitchShifter(PitchShifter)
    /// Frequency shift by a number of hertz, up or down per side (see ``FrequencyShifter``).
    case frequencyShifter(FrequencyShifter)
    /// What is sent goes to the centre (dialog) channel.
    case dedicatedDialog(Dedicated)
    /// What is sent goes to the LFE channel.
    case dedicatedLowFrequency(Dedicated)

    /// The table-described settings, for the effects that have one.
    private var parameters: (any EFXParameters)? {
        switch self {
        case .reverb, .dedicatedDialog, .dedicatedLowFrequency: return nil
        case .echo(let e): return e
        case .chorus(let e): return e
        case .flanger(let e): return e
        case .distortion(let e): return e
        case .equalizer(let e): return e
        case .compressor(let e): return e
        case .ringModulator(let e): return e
        case .autowah(let e): return e
        case .pitchShifter(let e): return e
        case .frequencyShifter(let e): return e
        }
    }

    /// The effect's name, e.g. `pitch shifter`.
    public var label: String {
        switch self {
        case .reverb: return "reverb"
        case .dedicatedDialog: return "dedicated dialog"
        case .dedicatedLowFrequency: return "dedicated low frequency"
        default: return type(of: parameters!).label
        }
    }

    /// The OpenAL enum's name of the effect type, to ask whether OpenAL has it.
    var alName: String {
        switch self {
        case .reverb: return "AL_EFFECT_REVERB"
        case .dedicatedDialog: return "AL_EFFECT_DEDICATED_DIALOGUE"
        case .dedicatedLowFrequency: return "AL_EFFECT_DEDICATED_LOW_FREQUENCY_EFFECT"
        default: return type(of: parameters!).alName
        }
    }

    /// What is out of range; nil when every value fits.
    package var problem: String? {
        switch self {
        case .reverb(let reverb): return reverb.problem()
        case .dedicatedDialog(let d), .dedicatedLowFrequency(let d): return d.problem(label)
        default: return parameters!.problem()
        }
    }

    /// Sets the effect type and every parameter (already checked) on effect `name`, in the
    /// current context; `eax` says whether reverb is EAX reverb.
    package func write(to name: ALuint, eax: Bool) {
        switch self {
        case .reverb(let reverb): reverb.write(to: name, eax: eax)
        case .dedicatedDialog(let d):
            alEffecti(name, AL_EFFECT_TYPE, AL_EFFECT_DEDICATED_DIALOGUE)
            alEffectf(name, AL_DEDICATED_GAIN, d.gain)
        case .dedicatedLowFrequency(let d):
            alEffecti(name, AL_EFFECT_TYPE, AL_EFFECT_DEDICATED_LOW_FREQUENCY_EFFECT)
            alEffectf(name, AL_DEDICATED_GAIN, d.gain)
        default: parameters!.write(to: name)
        }
    }
}
