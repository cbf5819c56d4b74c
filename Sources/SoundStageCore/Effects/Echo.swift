import COpenAL

/// Echo settings (`AL_EFFECT_ECHO`), each checked against its EFX range before OpenAL sees it.
public struct Echo: EFXParameters {
    /// Seconds to the first echo, 0...0.207.
    public var delay: Float
    /// Seconds between the first echo and the second (the other side), 0...0.404.
    public var lrDelay: Float
    /// High-frequency damping of each repeat, 0...0.99.
    public var damping: Float
    /// How much of each repeat comes back, 0...1.
    public var feedback: Float
    /// Left-right spread of the repeats, -1...1.
    public var spread: Float

    /// An echo; EFX's defaults for what is not given.
    public init(delay: Float = AL_ECHO_DEFAULT_DELAY, lrDelay: Float = AL_ECHO_DEFAULT_LRDELAY, damping: Float = AL_ECHO_DEFAULT_DAMPING,
                feedback: Float = AL_ECHO_DEFAULT_FEEDBACK, spread: Float = AL_ECHO_DEFAULT_SPREAD) {
        self.delay = delay
        self.lrDelay = lrDelay
        self.damping = damping
        self.feedback = feedback
        self.spread = spread
    }

    static let effectType = AL_EFFECT_ECHO
    static let alName = "AL_EFFECT_ECHO"
    static let label = "echo"
    static let floats: [FloatParameter<Echo>] = [
        .init(name: "delay", param: AL_ECHO_DELAY, range: AL_ECHO_MIN_DELAY...AL_ECHO_MAX_DELAY, value: \.delay),
        .init(name: "lrDelay", param: AL_ECHO_LRDELAY, range: AL_ECHO_MIN_LRDELAY...AL_ECHO_MAX_LRDELAY, value: \.lrDelay),
        .init(name: "damping", param: AL_ECHO_DAMPING, range: AL_ECHO_MIN_DAMPING...AL_ECHO_MAX_DAMPING, value: \.damping),
        .init(name: "feedback", param: AL_ECHO_FEEDBACK, range: AL_ECHO_MIN_FEEDBACK...AL_ECHO_MAX_FEEDBACK, value: \.feedback),
        .init(name: "spread", param: AL_ECHO_SPREAD, range: AL_ECHO_MIN_SPREAD...AL_ECHO_MAX_SPREAD, value: \.spread),
    ]
}
