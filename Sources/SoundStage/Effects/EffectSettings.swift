/// What an ``AudioEffect`` does: the effect type and its parameters.
public enum EffectSettings: Sendable, Hashable {
    /// Reverb: EAX reverb when OpenAL has it, standard reverb otherwise (see ``Reverb``).
    case reverb(Reverb)
    /// Echo.
    case echo(Echo)

    /// What is out of range; nil when every value fits.
    var problem: String? {
        switch self {
        case .reverb(let reverb): return reverb.problem()
        case .echo(let echo): return echo.problem()
        }
    }
}
