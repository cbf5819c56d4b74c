import COpenAL

/// Distortion (`AL_EFFECT_DISTORTION`): clipping, then a low-pass and a band of emphasis.
public struct Distortion: EFXParameters {
    /// How hard, 0...1.
    public var edge: Float
    /// Output gain, 0.01...1.
    public var gain: Float
    /// Hz, 80...24000.
    public var lowpassCutoff: Float
    /// Hz, 80...24000.
    public var eqCenter: Float
    /// Hz, 80...24000.
    public var eqBandwidth: Float

    /// A distortion; EFX's defaults for what is not given.
    public init(edge: Float = AL_DISTORTION_DEFAULT_EDGE, gain: Float = AL_DISTORTION_DEFAULT_GAIN, lowpassCutoff: Float = AL_DISTORTION_DEFAULT_LOWPASS_CUTOFF,
                eqCenter: Float = AL_DISTORTION_DEFAULT_EQCENTER, eqBandwidth: Float = AL_DISTORTION_DEFAULT_EQBANDWIDTH) {
        (self.edge, self.gain, self.lowpassCutoff, self.eqCenter, self.eqBandwidth) = (edge, gain, lowpassCutoff, eqCenter, eqBandwidth)
    }

    static let effectType = AL_EFFECT_DISTORTION
    static let alName = "AL_EFFECT_DISTORTION"
    static let label = "distortion"
    static let floats: [FloatParameter<Distortion>] = [
        .init(name: "edge", param: AL_DISTORTION_EDGE, range: AL_DISTORTION_MIN_EDGE...AL_DISTORTION_MAX_EDGE, value: \.edge),
        .init(name: "gain", param: AL_DISTORTION_GAIN, range: AL_DISTORTION_MIN_GAIN...AL_DISTORTION_MAX_GAIN, value: \.gain),
        .init(name: "lowpassCutoff", param: AL_DISTORTION_LOWPASS_CUTOFF,
              range: AL_DISTORTION_MIN_LOWPASS_CUTOFF...AL_DISTORTION_MAX_LOWPASS_CUTOFF, value: \.lowpassCutoff),
        .init(name: "eqCenter", param: AL_DISTORTION_EQCENTER, range: AL_DISTORTION_MIN_EQCENTER...AL_DISTORTION_MAX_EQCENTER, value: \.eqCenter),
        .init(name: "eqBandwidth", param: AL_DISTORTION_EQBANDWIDTH, range: AL_DISTORTION_MIN_EQBANDWIDTH...AL_DISTORTION_MAX_EQBANDWIDTH, value: \.eqBandwidth),
    ]
}

/// Four-band equalizer (`AL_EFFECT_EQUALIZER`): a low shelf, two peaks and a high shelf. Gains
/// are linear, 0.126...7.943 (-18...+18 dB).
public struct Equalizer: EFXParameters {
    /// Gain of the low shelf, 0.126...7.943 (-18...+18 dB).
    public var lowGain: Float
    /// Hz, 50...800.
    public var lowCutoff: Float
    /// Gain of the first mid band, 0.126...7.943 (-18...+18 dB).
    public var mid1Gain: Float
    /// Hz, 200...3000.
    public var mid1Center: Float
    /// Octaves, 0.01...1.
    public var mid1Width: Float
    /// Gain of the second mid band, 0.126...7.943 (-18...+18 dB).
    public var mid2Gain: Float
    /// Hz, 1000...8000.
    public var mid2Center: Float
    /// Octaves, 0.01...1.
    public var mid2Width: Float
    /// Gain of the high shelf, 0.126...7.943 (-18...+18 dB).
    public var highGain: Float
    /// Hz, 4000...16000.
    public var highCutoff: Float

    /// An equalizer; EFX's defaults (flat) for what is not given.
    public init(lowGain: Float = AL_EQUALIZER_DEFAULT_LOW_GAIN, lowCutoff: Float = AL_EQUALIZER_DEFAULT_LOW_CUTOFF,
                mid1Gain: Float = AL_EQUALIZER_DEFAULT_MID1_GAIN, mid1Center: Float = AL_EQUALIZER_DEFAULT_MID1_CENTER,
                mid1Width: Float = AL_EQUALIZER_DEFAULT_MID1_WIDTH, mid2Gain: Float = AL_EQUALIZER_DEFAULT_MID2_GAIN,
                mid2Center: Float = AL_EQUALIZER_DEFAULT_MID2_CENTER, mid2Width: Float = AL_EQUALIZER_DEFAULT_MID2_WIDTH,
                highGain: Float = AL_EQUALIZER_DEFAULT_HIGH_GAIN, highCutoff: Float = AL_EQUALIZER_DEFAULT_HIGH_CUTOFF) {
        (self.lowGain, self.lowCutoff, self.mid1Gain, self.mid1Center, self.mid1Width) = (lowGain, lowCutoff, mid1Gain, mid1Center, mid1Width)
        (self.mid2Gain, self.mid2Center, self.mid2Width, self.highGain, self.highCutoff) = (mid2Gain, mid2Center, mid2Width, highGain, highCutoff)
    }

    static let effectType = AL_EFFECT_EQUALIZER
    static let alName = "AL_EFFECT_EQUALIZER"
    static let label = "equalizer"
    static let floats: [FloatParameter<Equalizer>] = [
        .init(name: "lowGain", param: AL_EQUALIZER_LOW_GAIN, range: AL_EQUALIZER_MIN_LOW_GAIN...AL_EQUALIZER_MAX_LOW_GAIN, value: \.lowGain),
        .init(name: "lowCutoff", param: AL_EQUALIZER_LOW_CUTOFF, range: AL_EQUALIZER_MIN_LOW_CUTOFF...AL_EQUALIZER_MAX_LOW_CUTOFF, value: \.lowCutoff),
        .init(name: "mid1Gain", param: AL_EQUALIZER_MID1_GAIN, range: AL_EQUALIZER_MIN_MID1_GAIN...AL_EQUALIZER_MAX_MID1_GAIN, value: \.mid1Gain),
        .init(name: "mid1Center", param: AL_EQUALIZER_MID1_CENTER, range: AL_EQUALIZER_MIN_MID1_CENTER...AL_EQUALIZER_MAX_MID1_CENTER, value: \.mid1Center),
        .init(name: "mid1Width", param: AL_EQUALIZER_MID1_WIDTH, range: AL_EQUALIZER_MIN_MID1_WIDTH...AL_EQUALIZER_MAX_MID1_WIDTH, value: \.mid1Width),
        .init(name: "mid2Gain", param: AL_EQUALIZER_MID2_GAIN, range: AL_EQUALIZER_MIN_MID2_GAIN...AL_EQUALIZER_MAX_MID2_GAIN, value: \.mid2Gain),
        .init(name: "mid2Center", param: AL_EQUALIZER_MID2_CENTER, range: AL_EQUALIZER_MIN_MID2_CENTER...AL_EQUALIZER_MAX_MID2_CENTER, value: \.mid2Center),
        .init(name: "mid2Width", param: AL_EQUALIZER_MID2_WIDTH, range: AL_EQUALIZER_MIN_MID2_WIDTH...AL_EQUALIZER_MAX_MID2_WIDTH, value: \.mid2Width),
        .init(name: "highGain", param: AL_EQUALIZER_HIGH_GAIN, range: AL_EQUALIZER_MIN_HIGH_GAIN...AL_EQUALIZER_MAX_HIGH_GAIN, value: \.highGain),
        .init(name: "highCutoff", param: AL_EQUALIZER_HIGH_CUTOFF, range: AL_EQUALIZER_MIN_HIGH_CUTOFF...AL_EQUALIZER_MAX_HIGH_CUTOFF, value: \.highCutoff),
    ]
}

/// Compressor (`AL_EFFECT_COMPRESSOR`): OpenAL Soft's is on or off, nothing more.
public struct Compressor: EFXParameters {
    /// Whether it compresses (off: the sound passes as it is).
    public var isOn: Bool

    /// A compressor, on by default.
    public init(isOn: Bool = true) { self.isOn = isOn }

    var onValue: Int {
        get { isOn ? 1 : 0 }
        set { isOn = newValue != 0 }
    }
    static let effectType = AL_EFFECT_COMPRESSOR
    static let alName = "AL_EFFECT_COMPRESSOR"
    static let label = "compressor"
    static let floats: [FloatParameter<Compressor>] = []
    static let ints: [IntParameter<Compressor>] = [
        .init(name: "onoff", param: AL_COMPRESSOR_ONOFF, range: Int(AL_COMPRESSOR_MIN_ONOFF)...Int(AL_COMPRESSOR_MAX_ONOFF), value: \.onValue),
    ]
}
