/// What to ask of a new context. Every field is optional: nil leaves OpenAL Soft's default.
public struct ContextAttributes: Sendable, Hashable {
    /// Output sample rate in Hz (`ALC_FREQUENCY`). On a loopback device it is the render
    /// format's rate and may be left nil.
    public var frequency: Int?
    /// Mixer updates per second (`ALC_REFRESH`). OpenAL Soft 1.19.1 ignores it on a real
    /// device (its period comes from its configuration: measured, `refresh: 20` left the
    /// PulseAudio stream 58 ms of buffer, not 150); what holds is ``AudioContext/refresh``.
    /// How far ahead the device mixes is ``latency``'s to ask.
    public var refresh: Int?
    /// How many mono sources the context may have at once (`ALC_MONO_SOURCES`).
    public var monoSources: Int?
    /// How many stereo sources (`ALC_STEREO_SOURCES`).
    public var stereoSources: Int?
    /// HRTF on, off, or OpenAL Soft's default.
    public var hrtf: HRTFRequest
    /// A specific HRTF data set, one of ``AudioDevice/availableHRTFs``.
    public var hrtfName: String?
    /// Whether to run the output limiter (`ALC_OUTPUT_LIMITER_SOFT`), nil for the default.
    public var outputLimiter: Bool?
    /// Auxiliary effect sends per source (`ALC_MAX_AUXILIARY_SENDS`, 0...16; nil: OpenAL
    /// Soft's default, 2, for a context made directly, 4 for an engine's). What was granted
    /// is ``AudioContext/auxiliarySends``.
    public var auxiliarySends: Int?
    /// How far ahead of the sound server the device mixes (see ``LatencyMode``); nil: OpenAL
    /// Soft's own periods, as ``LatencyMode/balanced``. Ignored on a loopback device.
    public var latency: LatencyMode?

    /// Creates a set of attributes.
    public init(
        frequency: Int? = nil, refresh: Int? = nil, monoSources: Int? = nil, stereoSources: Int? = nil,
        hrtf: HRTFRequest = .default, hrtfName: String? = nil, outputLimiter: Bool? = nil, auxiliarySends: Int? = nil,
        latency: LatencyMode? = nil
    ) {
        self.latency = latency
        self.frequency = frequency
        self.refresh = refresh
        self.monoSources = monoSources
        self.stereoSources = stereoSources
        self.hrtf = hrtf
        self.hrtfName = hrtfName
        self.outputLimiter = outputLimiter
        self.auxiliarySends = auxiliarySends
    }
}
