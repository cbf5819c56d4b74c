import COpenAL

/// Reverb settings: every parameter of EFX's EAX reverb, with EFX's defaults, each checked
/// against its EFX range before OpenAL sees it. Played by the EAX reverb effect when OpenAL
/// has it, and otherwise by the standard reverb, which keeps the parameters it has (as
/// OpenAL Soft's `alreverb.c` example does); see ``AudioEffect``.
public struct Reverb: Sendable, Hashable {
    /// Modal density of the late reverb, 0...1: lower is more coloured, as in a small room.
    public var density: Float = AL_EAXREVERB_DEFAULT_DENSITY
    /// Echo density of the late reverb, 0...1: lower sounds grainy.
    public var diffusion: Float = AL_EAXREVERB_DEFAULT_DIFFUSION
    /// Level of the reflections and reverb together, 0...1 (the effect's master gain).
    public var gain: Float = AL_EAXREVERB_DEFAULT_GAIN
    /// High-frequency attenuation at ``hfReference``, 0...1.
    public var gainHF: Float = AL_EAXREVERB_DEFAULT_GAINHF
    /// Low-frequency attenuation at ``lfReference``, 0...1.
    public var gainLF: Float = AL_EAXREVERB_DEFAULT_GAINLF
    /// Seconds for the late reverb to fall 60 dB.
    public var decayTime: Float = AL_EAXREVERB_DEFAULT_DECAY_TIME
    /// High-frequency decay time as a ratio of ``decayTime``, 0.1...2.
    public var decayHFRatio: Float = AL_EAXREVERB_DEFAULT_DECAY_HFRATIO
    /// Low-frequency decay time as a ratio of ``decayTime``, 0.1...2.
    public var decayLFRatio: Float = AL_EAXREVERB_DEFAULT_DECAY_LFRATIO
    /// Level of the early reflections, 0...3.16.
    public var reflectionsGain: Float = AL_EAXREVERB_DEFAULT_REFLECTIONS_GAIN
    /// Seconds from the sound to its first reflection.
    public var reflectionsDelay: Float = AL_EAXREVERB_DEFAULT_REFLECTIONS_DELAY
    /// Where the early reflections come from, relative to the listener (length at most 1; zero: all around).
    public var reflectionsPan = SIMD3<Float>.zero
    /// Level of the late reverb, 0...10.
    public var lateReverbGain: Float = AL_EAXREVERB_DEFAULT_LATE_REVERB_GAIN
    /// Seconds from the first reflection to the late reverb.
    public var lateReverbDelay: Float = AL_EAXREVERB_DEFAULT_LATE_REVERB_DELAY
    /// Where the late reverb comes from, relative to the listener (length at most 1; zero: all around).
    public var lateReverbPan = SIMD3<Float>.zero
    /// Seconds between the late reverb's echoes, 0.075...0.25.
    public var echoTime: Float = AL_EAXREVERB_DEFAULT_ECHO_TIME
    /// How strong those echoes are, 0...1.
    public var echoDepth: Float = AL_EAXREVERB_DEFAULT_ECHO_DEPTH
    /// Seconds per cycle of the late reverb's pitch modulation, 0.04...4.
    public var modulationTime: Float = AL_EAXREVERB_DEFAULT_MODULATION_TIME
    /// How deep that modulation is, 0...1.
    public var modulationDepth: Float = AL_EAXREVERB_DEFAULT_MODULATION_DEPTH
    /// High-frequency loss per metre in air, 0.892...1.
    public var airAbsorptionGainHF: Float = AL_EAXREVERB_DEFAULT_AIR_ABSORPTION_GAINHF
    /// The frequency, in Hz, that ``gainHF`` and ``decayHFRatio`` refer to, 1000...20000.
    public var hfReference: Float = AL_EAXREVERB_DEFAULT_HFREFERENCE
    /// The frequency, in Hz, that ``gainLF`` and ``decayLFRatio`` refer to, 20...1000.
    public var lfReference: Float = AL_EAXREVERB_DEFAULT_LFREFERENCE
    /// How fast the reverb falls with distance, as the sources' rolloff does, 0...10.
    public var roomRolloffFactor: Float = AL_EAXREVERB_DEFAULT_ROOM_ROLLOFF_FACTOR
    /// Whether high frequencies decay no slower than air absorption allows.
    public var decayHFLimit = true

    /// EFX's default reverb.
    public init() {}

    /// One of the 113 standard presets (``ReverbPreset``), e.g. `Reverb(preset: .cave)`.
    public init(preset: ReverbPreset) {
        let v = preset.values
        (density, diffusion, gain, gainHF, gainLF) = (v[0], v[1], v[2], v[3], v[4])
        (decayTime, decayHFRatio, decayLFRatio, reflectionsGain, reflectionsDelay) = (v[5], v[6], v[7], v[8], v[9])
        reflectionsPan = SIMD3(v[10], v[11], v[12])
        (lateReverbGain, lateReverbDelay) = (v[13], v[14])
        lateReverbPan = SIMD3(v[15], v[16], v[17])
        (echoTime, echoDepth, modulationTime, modulationDepth) = (v[18], v[19], v[20], v[21])
        (airAbsorptionGainHF, hfReference, lfReference, roomRolloffFactor) = (v[22], v[23], v[24], v[25])
        decayHFLimit = v[26] != 0
    }

    /// A scalar parameter: its name, EAX enum, EFX range and place, and the standard reverb's
    /// enum for it (0 where the standard reverb lacks it).
    struct Parameter: Sendable {
        let eax: FloatParameter<Reverb>
        let standard: ALenum

        init(name: String, eax: ALenum, standard: ALenum, range: ClosedRange<Float>, value: WritableKeyPath<Reverb, Float> & Sendable) {
            self.eax = FloatParameter(name: name, param: eax, range: range, value: value)
            self.standard = standard
        }
    }

    static let parameters: [Parameter] = [
        .init(name: "density", eax: AL_EAXREVERB_DENSITY, standard: AL_REVERB_DENSITY, range: AL_EAXREVERB_MIN_DENSITY...AL_EAXREVERB_MAX_DENSITY, value: \.density),
        .init(name: "diffusion", eax: AL_EAXREVERB_DIFFUSION, standard: AL_REVERB_DIFFUSION, range: AL_EAXREVERB_MIN_DIFFUSION...AL_EAXREVERB_MAX_DIFFUSION, value: \.diffusion),
        .init(name: "gain", eax: AL_EAXREVERB_GAIN, standard: AL_REVERB_GAIN, range: AL_EAXREVERB_MIN_GAIN...AL_EAXREVERB_MAX_GAIN, value: \.gain),
        .init(name: "gainHF", eax: AL_EAXREVERB_GAINHF, standard: AL_REVERB_GAINHF, range: AL_EAXREVERB_MIN_GAINHF...AL_EAXREVERB_MAX_GAINHF, value: \.gainHF),
        .init(name: "gainLF", eax: AL_EAXREVERB_GAINLF, standard: 0, range: AL_EAXREVERB_MIN_GAINLF...AL_EAXREVERB_MAX_GAINLF, value: \.gainLF),
        .init(name: "decayTime", eax: AL_EAXREVERB_DECAY_TIME, standard: AL_REVERB_DECAY_TIME, range: AL_EAXREVERB_MIN_DECAY_TIME...AL_EAXREVERB_MAX_DECAY_TIME, value: \.decayTime),
        .init(name: "decayHFRatio", eax: AL_EAXREVERB_DECAY_HFRATIO, standard: AL_REVERB_DECAY_HFRATIO, range: AL_EAXREVERB_MIN_DECAY_HFRATIO...AL_EAXREVERB_MAX_DECAY_HFRATIO, value: \.decayHFRatio),
        .init(name: "decayLFRatio", eax: AL_EAXREVERB_DECAY_LFRATIO, standard: 0, range: AL_EAXREVERB_MIN_DECAY_LFRATIO...AL_EAXREVERB_MAX_DECAY_LFRATIO, value: \.decayLFRatio),
        .init(name: "reflectionsGain", eax: AL_EAXREVERB_REFLECTIONS_GAIN, standard: AL_REVERB_REFLECTIONS_GAIN, range: AL_EAXREVERB_MIN_REFLECTIONS_GAIN...AL_EAXREVERB_MAX_REFLECTIONS_GAIN, value: \.reflectionsGain),
        .init(name: "reflectionsDelay", eax: AL_EAXREVERB_REFLECTIONS_DELAY, standard: AL_REVERB_REFLECTIONS_DELAY, range: AL_EAXREVERB_MIN_REFLECTIONS_DELAY...AL_EAXREVERB_MAX_REFLECTIONS_DELAY, value: \.reflectionsDelay),
        .init(name: "lateReverbGain", eax: AL_EAXREVERB_LATE_REVERB_GAIN, standard: AL_REVERB_LATE_REVERB_GAIN, range: AL_EAXREVERB_MIN_LATE_REVERB_GAIN...AL_EAXREVERB_MAX_LATE_REVERB_GAIN, value: \.lateReverbGain),
        .init(name: "lateReverbDelay", eax: AL_EAXREVERB_LATE_REVERB_DELAY, standard: AL_REVERB_LATE_REVERB_DELAY, range: AL_EAXREVERB_MIN_LATE_REVERB_DELAY...AL_EAXREVERB_MAX_LATE_REVERB_DELAY, value: \.lateReverbDelay),
        .init(name: "echoTime", eax: AL_EAXREVERB_ECHO_TIME, standard: 0, range: AL_EAXREVERB_MIN_ECHO_TIME...AL_EAXREVERB_MAX_ECHO_TIME, value: \.echoTime),
        .init(name: "echoDepth", eax: AL_EAXREVERB_ECHO_DEPTH, standard: 0, range: AL_EAXREVERB_MIN_ECHO_DEPTH...AL_EAXREVERB_MAX_ECHO_DEPTH, value: \.echoDepth),
        .init(name: "modulationTime", eax: AL_EAXREVERB_MODULATION_TIME, standard: 0, range: AL_EAXREVERB_MIN_MODULATION_TIME...AL_EAXREVERB_MAX_MODULATION_TIME, value: \.modulationTime),
        .init(name: "modulationDepth", eax: AL_EAXREVERB_MODULATION_DEPTH, standard: 0, range: AL_EAXREVERB_MIN_MODULATION_DEPTH...AL_EAXREVERB_MAX_MODULATION_DEPTH, value: \.modulationDepth),
        .init(name: "airAbsorptionGainHF", eax: AL_EAXREVERB_AIR_ABSORPTION_GAINHF, standard: AL_REVERB_AIR_ABSORPTION_GAINHF, range: AL_EAXREVERB_MIN_AIR_ABSORPTION_GAINHF...AL_EAXREVERB_MAX_AIR_ABSORPTION_GAINHF, value: \.airAbsorptionGainHF),
        .init(name: "hfReference", eax: AL_EAXREVERB_HFREFERENCE, standard: 0, range: AL_EAXREVERB_MIN_HFREFERENCE...AL_EAXREVERB_MAX_HFREFERENCE, value: \.hfReference),
        .init(name: "lfReference", eax: AL_EAXREVERB_LFREFERENCE, standard: 0, range: AL_EAXREVERB_MIN_LFREFERENCE...AL_EAXREVERB_MAX_LFREFERENCE, value: \.lfReference),
        .init(name: "roomRolloffFactor", eax: AL_EAXREVERB_ROOM_ROLLOFF_FACTOR, standard: AL_REVERB_ROOM_ROLLOFF_FACTOR, range: AL_EAXREVERB_MIN_ROOM_ROLLOFF_FACTOR...AL_EAXREVERB_MAX_ROOM_ROLLOFF_FACTOR, value: \.roomRolloffFactor),
    ]

    /// What is out of range, naming the parameter and its range; nil when every value fits.
    package func problem() -> String? {
        for p in Self.parameters { if let problem = p.eax.problem(in: self, label: "reverb") { return problem } }
        for (name, pan) in [("reflectionsPan", reflectionsPan), ("lateReverbPan", lateReverbPan)] {
            // EFX wants a pan vector no longer than 1.
            if !pan.isFinite || (pan * pan).sum() > 1.0001 { return "reverb \(name) must be a vector no longer than 1, got \(pan)" }
        }
        return nil
    }

    /// Sets the reverb type and every parameter (already checked) on effect `name`: EAX
    /// reverb, or the standard reverb's subset when `eax` is false.
    package func write(to name: ALuint, eax: Bool) {
        alEffecti(name, AL_EFFECT_TYPE, eax ? AL_EFFECT_EAXREVERB : AL_EFFECT_REVERB)
        for p in Self.parameters {
            let param = eax ? p.eax.param : p.standard
            if param != 0 { alEffectf(name, param, self[keyPath: p.eax.value]) }
        }
        alEffecti(name, eax ? AL_EAXREVERB_DECAY_HFLIMIT : AL_REVERB_DECAY_HFLIMIT, decayHFLimit ? AL_TRUE : AL_FALSE)
        guard eax else { return }
        var pan = [reflectionsPan.x, reflectionsPan.y, reflectionsPan.z]
        alEffectfv(name, AL_EAXREVERB_REFLECTIONS_PAN, &pan)
        pan = [lateReverbPan.x, lateReverbPan.y, lateReverbPan.z]
        alEffectfv(name, AL_EAXREVERB_LATE_REVERB_PAN, &pan)
    }
}
