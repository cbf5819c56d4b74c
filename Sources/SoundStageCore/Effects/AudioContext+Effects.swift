import COpenAL

extension EffectSettings {
    /// One of each effect type, with EFX's defaults: what ``AudioContext/availableEffects``
    /// asks about, and a list for tools.
    public static let everyType: [EffectSettings] = [
        .reverb(Reverb()), .echo(Echo()), .chorus(Chorus()), .flanger(Flanger()), .distortion(Distortion()),
        .equalizer(Equalizer()), .compressor(Compressor()), .ringModulator(RingModulator()), .autowah(Autowah()),
        .pitchShifter(PitchShifter()), .frequencyShifter(FrequencyShifter()), .dedicatedDialog(Dedicated()),
        .dedicatedLowFrequency(Dedicated()),
    ]
}

extension AudioContext {
    /// The effect types this OpenAL has, by ``EffectSettings/label`` (empty without EFX);
    /// reverb reads `EAX reverb` when OpenAL has that.
    public var availableEffects: [String] {
        guard hasEFX else { return [] }
        return (try? OpenAL.withContext(handle) { _ in
            EffectSettings.everyType.compactMap { settings -> String? in
                guard alGetEnumValue(settings.alName) != 0 else { return nil }
                if case .reverb = settings, alGetEnumValue("AL_EFFECT_EAXREVERB") != 0 { return "EAX reverb" }
                return settings.label
            }
        }) ?? []
    }
}
