import COpenAL

/// Echo settings (`AL_EFFECT_ECHO`), each checked against its EFX range before OpenAL sees it.
public struct Echo: Sendable, Hashable {
    /// Seconds to the first echo, 0...0.207.
    public var delay: Float = AL_ECHO_DEFAULT_DELAY
    /// Seconds between the first echo and the second (the other side), 0...0.404.
    public var lrDelay: Float = AL_ECHO_DEFAULT_LRDELAY
    /// High-frequency damping of each repeat, 0...0.99.
    public var damping: Float = AL_ECHO_DEFAULT_DAMPING
    /// How much of each repeat comes back, 0...1.
    public var feedback: Float = AL_ECHO_DEFAULT_FEEDBACK
    /// Left-right spread of the repeats, -1...1.
    public var spread: Float = AL_ECHO_DEFAULT_SPREAD

    /// An echo; EFX's defaults for what is not given.
    public init(delay: Float = AL_ECHO_DEFAULT_DELAY, lrDelay: Float = AL_ECHO_DEFAULT_LRDELAY, damping: Float = AL_ECHO_DEFAULT_DAMPING,
                feedback: Float = AL_ECHO_DEFAULT_FEEDBACK, spread: Float = AL_ECHO_DEFAULT_SPREAD) {
        self.delay = delay
        self.lrDelay = lrDelay
        self.damping = damping
        self.feedback = feedback
        self.spread = spread
    }

    static let parameters: [(name: String, param: ALenum, range: ClosedRange<Float>, value: KeyPath<Echo, Float> & Sendable)] = [
        ("delay", AL_ECHO_DELAY, AL_ECHO_MIN_DELAY...AL_ECHO_MAX_DELAY, \.delay),
        ("lrDelay", AL_ECHO_LRDELAY, AL_ECHO_MIN_LRDELAY...AL_ECHO_MAX_LRDELAY, \.lrDelay),
        ("damping", AL_ECHO_DAMPING, AL_ECHO_MIN_DAMPING...AL_ECHO_MAX_DAMPING, \.damping),
        ("feedback", AL_ECHO_FEEDBACK, AL_ECHO_MIN_FEEDBACK...AL_ECHO_MAX_FEEDBACK, \.feedback),
        ("spread", AL_ECHO_SPREAD, AL_ECHO_MIN_SPREAD...AL_ECHO_MAX_SPREAD, \.spread),
    ]

    /// What is out of range; nil when every value fits.
    func problem() -> String? {
        for p in Self.parameters {
            let v = self[keyPath: p.value]
            if !v.isFinite || !p.range.contains(v) { return "echo \(p.name) must be in \(p.range), got \(v)" }
        }
        return nil
    }
}
