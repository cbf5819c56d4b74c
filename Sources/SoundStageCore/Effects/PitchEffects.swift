import COpenAL

/// Pitch shifter (`AL_EFFECT_PITCH_SHIFTER`): the sound moved by whole semitones and cents.
public struct PitchShifter: EFXParameters {
    /// Semitones, -12...12.
    public var coarseTune: Int
    /// Cents, -50...50.
    public var fineTune: Int

    /// A pitch shifter; EFX's defaults (an octave up) for what is not given.
    public init(coarseTune: Int = Int(AL_PITCH_SHIFTER_DEFAULT_COARSE_TUNE), fineTune: Int = Int(AL_PITCH_SHIFTER_DEFAULT_FINE_TUNE)) {
        (self.coarseTune, self.fineTune) = (coarseTune, fineTune)
    }

    static let effectType = AL_EFFECT_PITCH_SHIFTER
    static let alName = "AL_EFFECT_PITCH_SHIFTER"
    static let label = "pitch shifter"
    static let floats: [FloatParameter<PitchShifter>] = []
    static let ints: [IntParameter<PitchShifter>] = [
        .init(name: "coarseTune", param: AL_PITCH_SHIFTER_COARSE_TUNE,
              range: Int(AL_PITCH_SHIFTER_MIN_COARSE_TUNE)...Int(AL_PITCH_SHIFTER_MAX_COARSE_TUNE), value: \.coarseTune),
        .init(name: "fineTune", param: AL_PITCH_SHIFTER_FINE_TUNE,
              range: Int(AL_PITCH_SHIFTER_MIN_FINE_TUNE)...Int(AL_PITCH_SHIFTER_MAX_FINE_TUNE), value: \.fineTune),
    ]
}

/// Frequency shifter (`AL_EFFECT_FREQUENCY_SHIFTER`): every frequency moved by the same Hz.
public struct FrequencyShifter: EFXParameters {
    /// Which way a channel is shifted.
    public enum Direction: Int, Sendable, Hashable, CaseIterable {
        /// Shifted down by ``FrequencyShifter/frequency``.
        case down = 0
        /// Shifted up by ``FrequencyShifter/frequency``.
        case up = 1
        /// Not shifted.
        case off = 2
    }

    /// Hz, 0...24000.
    public var frequency: Float
    /// Which way the left channel is shifted.
    public var leftDirection: Direction
    /// Which way the right channel is shifted.
    public var rightDirection: Direction

    /// A frequency shifter; EFX's defaults for what is not given.
    public init(frequency: Float = AL_FREQUENCY_SHIFTER_DEFAULT_FREQUENCY, leftDirection: Direction = .down, rightDirection: Direction = .down) {
        (self.frequency, self.leftDirection, self.rightDirection) = (frequency, leftDirection, rightDirection)
    }

    var leftValue: Int {
        get { leftDirection.rawValue }
        set { leftDirection = Direction(rawValue: newValue) ?? leftDirection }
    }
    var rightValue: Int {
        get { rightDirection.rawValue }
        set { rightDirection = Direction(rawValue: newValue) ?? rightDirection }
    }
    static let effectType = AL_EFFECT_FREQUENCY_SHIFTER
    static let alName = "AL_EFFECT_FREQUENCY_SHIFTER"
    static let label = "frequency shifter"
    static let floats: [FloatParameter<FrequencyShifter>] = [
        .init(name: "frequency", param: AL_FREQUENCY_SHIFTER_FREQUENCY,
              range: AL_FREQUENCY_SHIFTER_MIN_FREQUENCY...AL_FREQUENCY_SHIFTER_MAX_FREQUENCY, value: \.frequency),
    ]
    static let ints: [IntParameter<FrequencyShifter>] = [
        .init(name: "leftDirection", param: AL_FREQUENCY_SHIFTER_LEFT_DIRECTION,
              range: Int(AL_FREQUENCY_SHIFTER_MIN_LEFT_DIRECTION)...Int(AL_FREQUENCY_SHIFTER_MAX_LEFT_DIRECTION), value: \.leftValue),
        .init(name: "rightDirection", param: AL_FREQUENCY_SHIFTER_RIGHT_DIRECTION,
              range: Int(AL_FREQUENCY_SHIFTER_MIN_RIGHT_DIRECTION)...Int(AL_FREQUENCY_SHIFTER_MAX_RIGHT_DIRECTION), value: \.rightValue),
    ]
}

/// A dedicated output (`AL_EFFECT_DEDICATED_DIALOGUE`, `..._LOW_FREQUENCY_EFFECT`): what is
/// sent goes straight to the centre or the LFE channel, at `gain`.
public struct Dedicated: Sendable, Hashable {
    /// 0...1 (the header sets no upper bound; SoundStage keeps it to unity).
    public var gain: Float

    /// A dedicated output at `gain`.
    public init(gain: Float = 1) { self.gain = gain }

    package func problem(_ label: String) -> String? {
        gain.isFinite && (0...1).contains(gain) ? nil : "\(label) gain must be in 0...1, got \(gain)"
    }
}
