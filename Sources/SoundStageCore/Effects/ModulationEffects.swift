import COpenAL

/// Chorus (`AL_EFFECT_CHORUS`): copies of the sound, delayed by a modulated few ms.
public struct Chorus: EFXParameters {
    /// The shape of the delay's modulation.
    public var waveform: ModulationWaveform
    /// Degrees between the left and right modulation, -180...180.
    public var phase: Int
    /// Modulation cycles per second, 0...10.
    public var rate: Float
    /// 0...1.
    public var depth: Float
    /// -1...1.
    public var feedback: Float
    /// Seconds, 0...0.016.
    public var delay: Float

    /// A chorus; EFX's defaults for what is not given.
    public init(waveform: ModulationWaveform = .triangle, phase: Int = Int(AL_CHORUS_DEFAULT_PHASE), rate: Float = AL_CHORUS_DEFAULT_RATE,
                depth: Float = AL_CHORUS_DEFAULT_DEPTH, feedback: Float = AL_CHORUS_DEFAULT_FEEDBACK, delay: Float = AL_CHORUS_DEFAULT_DELAY) {
        (self.waveform, self.phase, self.rate, self.depth, self.feedback, self.delay) = (waveform, phase, rate, depth, feedback, delay)
    }

    var waveformValue: Int {
        get { waveform.rawValue }
        set { waveform = ModulationWaveform(rawValue: newValue) ?? waveform }
    }
    static let effectType = AL_EFFECT_CHORUS
    static let alName = "AL_EFFECT_CHORUS"
    static let label = "chorus"
    static let floats: [FloatParameter<Chorus>] = [
        .init(name: "rate", param: AL_CHORUS_RATE, range: AL_CHORUS_MIN_RATE...AL_CHORUS_MAX_RATE, value: \.rate),
        .init(name: "depth", param: AL_CHORUS_DEPTH, range: AL_CHORUS_MIN_DEPTH...AL_CHORUS_MAX_DEPTH, value: \.depth),
        .init(name: "feedback", param: AL_CHORUS_FEEDBACK, range: AL_CHORUS_MIN_FEEDBACK...AL_CHORUS_MAX_FEEDBACK, value: \.feedback),
        .init(name: "delay", param: AL_CHORUS_DELAY, range: AL_CHORUS_MIN_DELAY...AL_CHORUS_MAX_DELAY, value: \.delay),
    ]
    static let ints: [IntParameter<Chorus>] = [
        .init(name: "waveform", param: AL_CHORUS_WAVEFORM, range: Int(AL_CHORUS_MIN_WAVEFORM)...Int(AL_CHORUS_MAX_WAVEFORM), value: \.waveformValue),
        .init(name: "phase", param: AL_CHORUS_PHASE, range: Int(AL_CHORUS_MIN_PHASE)...Int(AL_CHORUS_MAX_PHASE), value: \.phase),
    ]
}

/// Flanger (`AL_EFFECT_FLANGER`): a copy delayed by a sweeping millisecond or two.
public struct Flanger: EFXParameters {
    /// The shape of the delay's modulation.
    public var waveform: ModulationWaveform
    /// Degrees between the left and right modulation, -180...180.
    public var phase: Int
    /// Modulation cycles per second, 0...10.
    public var rate: Float
    /// 0...1.
    public var depth: Float
    /// -1...1.
    public var feedback: Float
    /// Seconds, 0...0.004.
    public var delay: Float

    /// A flanger; EFX's defaults for what is not given.
    public init(waveform: ModulationWaveform = .triangle, phase: Int = Int(AL_FLANGER_DEFAULT_PHASE), rate: Float = AL_FLANGER_DEFAULT_RATE,
                depth: Float = AL_FLANGER_DEFAULT_DEPTH, feedback: Float = AL_FLANGER_DEFAULT_FEEDBACK, delay: Float = AL_FLANGER_DEFAULT_DELAY) {
        (self.waveform, self.phase, self.rate, self.depth, self.feedback, self.delay) = (waveform, phase, rate, depth, feedback, delay)
    }

    var waveformValue: Int {
        get { waveform.rawValue }
        set { waveform = ModulationWaveform(rawValue: newValue) ?? waveform }
    }
    static let effectType = AL_EFFECT_FLANGER
    static let alName = "AL_EFFECT_FLANGER"
    static let label = "flanger"
    static let floats: [FloatParameter<Flanger>] = [
        .init(name: "rate", param: AL_FLANGER_RATE, range: AL_FLANGER_MIN_RATE...AL_FLANGER_MAX_RATE, value: \.rate),
        .init(name: "depth", param: AL_FLANGER_DEPTH, range: AL_FLANGER_MIN_DEPTH...AL_FLANGER_MAX_DEPTH, value: \.depth),
        .init(name: "feedback", param: AL_FLANGER_FEEDBACK, range: AL_FLANGER_MIN_FEEDBACK...AL_FLANGER_MAX_FEEDBACK, value: \.feedback),
        .init(name: "delay", param: AL_FLANGER_DELAY, range: AL_FLANGER_MIN_DELAY...AL_FLANGER_MAX_DELAY, value: \.delay),
    ]
    static let ints: [IntParameter<Flanger>] = [
        .init(name: "waveform", param: AL_FLANGER_WAVEFORM, range: Int(AL_FLANGER_MIN_WAVEFORM)...Int(AL_FLANGER_MAX_WAVEFORM), value: \.waveformValue),
        .init(name: "phase", param: AL_FLANGER_PHASE, range: Int(AL_FLANGER_MIN_PHASE)...Int(AL_FLANGER_MAX_PHASE), value: \.phase),
    ]
}

/// Ring modulator (`AL_EFFECT_RING_MODULATOR`): the sound times a carrier, giving the sum and
/// difference of their frequencies.
public struct RingModulator: EFXParameters {
    /// The carrier's waveform.
    public enum Carrier: Int, Sendable, Hashable, CaseIterable {
        /// A sine.
        case sinusoid = 0
        /// A sawtooth.
        case sawtooth = 1
        /// A square.
        case square = 2
    }

    /// The carrier's frequency in Hz, 0...8000.
    public var frequency: Float
    /// Hz below which the input is cut first, 0...24000.
    public var highpassCutoff: Float
    /// The carrier's waveform.
    public var waveform: Carrier

    /// A ring modulator; EFX's defaults for what is not given.
    public init(frequency: Float = AL_RING_MODULATOR_DEFAULT_FREQUENCY, highpassCutoff: Float = AL_RING_MODULATOR_DEFAULT_HIGHPASS_CUTOFF,
                waveform: Carrier = .sinusoid) {
        (self.frequency, self.highpassCutoff, self.waveform) = (frequency, highpassCutoff, waveform)
    }

    var waveformValue: Int {
        get { waveform.rawValue }
        set { waveform = Carrier(rawValue: newValue) ?? waveform }
    }
    static let effectType = AL_EFFECT_RING_MODULATOR
    static let alName = "AL_EFFECT_RING_MODULATOR"
    static let label = "ring modulator"
    static let floats: [FloatParameter<RingModulator>] = [
        .init(name: "frequency", param: AL_RING_MODULATOR_FREQUENCY, range: AL_RING_MODULATOR_MIN_FREQUENCY...AL_RING_MODULATOR_MAX_FREQUENCY, value: \.frequency),
        .init(name: "highpassCutoff", param: AL_RING_MODULATOR_HIGHPASS_CUTOFF,
              range: AL_RING_MODULATOR_MIN_HIGHPASS_CUTOFF...AL_RING_MODULATOR_MAX_HIGHPASS_CUTOFF, value: \.highpassCutoff),
    ]
    static let ints: [IntParameter<RingModulator>] = [
        .init(name: "waveform", param: AL_RING_MODULATOR_WAVEFORM, range: Int(AL_RING_MODULATOR_MIN_WAVEFORM)...Int(AL_RING_MODULATOR_MAX_WAVEFORM), value: \.waveformValue),
    ]
}

/// Auto-wah (`AL_EFFECT_AUTOWAH`): a resonant filter that follows the sound's level.
public struct Autowah: EFXParameters {
    /// Seconds, 0.0001...1.
    public var attackTime: Float
    /// Seconds, 0.0001...1.
    public var releaseTime: Float
    /// 2...1000.
    public var resonance: Float
    /// 0.00003...31621.
    public var peakGain: Float

    /// An auto-wah; EFX's defaults for what is not given.
    public init(attackTime: Float = AL_AUTOWAH_DEFAULT_ATTACK_TIME, releaseTime: Float = AL_AUTOWAH_DEFAULT_RELEASE_TIME,
                resonance: Float = AL_AUTOWAH_DEFAULT_RESONANCE, peakGain: Float = AL_AUTOWAH_DEFAULT_PEAK_GAIN) {
        (self.attackTime, self.releaseTime, self.resonance, self.peakGain) = (attackTime, releaseTime, resonance, peakGain)
    }

    static let effectType = AL_EFFECT_AUTOWAH
    static let alName = "AL_EFFECT_AUTOWAH"
    static let label = "autowah"
    static let floats: [FloatParameter<Autowah>] = [
        .init(name: "attackTime", param: AL_AUTOWAH_ATTACK_TIME, range: AL_AUTOWAH_MIN_ATTACK_TIME...AL_AUTOWAH_MAX_ATTACK_TIME, value: \.attackTime),
        .init(name: "releaseTime", param: AL_AUTOWAH_RELEASE_TIME, range: AL_AUTOWAH_MIN_RELEASE_TIME...AL_AUTOWAH_MAX_RELEASE_TIME, value: \.releaseTime),
        .init(name: "resonance", param: AL_AUTOWAH_RESONANCE, range: AL_AUTOWAH_MIN_RESONANCE...AL_AUTOWAH_MAX_RESONANCE, value: \.resonance),
        .init(name: "peakGain", param: AL_AUTOWAH_PEAK_GAIN, range: AL_AUTOWAH_MIN_PEAK_GAIN...AL_AUTOWAH_MAX_PEAK_GAIN, value: \.peakGain),
    ]
}
