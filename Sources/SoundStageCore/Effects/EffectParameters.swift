import COpenAL

/// A numeric parameter of an effect: its name in messages, its EFX enum, its EFX range, and
/// where the settings keep it.
struct FloatParameter<Settings>: Sendable {
    let name: String
    let param: ALenum
    let range: ClosedRange<Float>
    package let value: WritableKeyPath<Settings, Float> & Sendable

    /// What is wrong with this parameter's value in `settings` of effect `label`; nil when it
    /// is finite and in range. The one check of every effect's float parameters.
    package func problem(in settings: Settings, label: String) -> String? {
        let v = settings[keyPath: value]
        return v.isFinite && range.contains(v) ? nil : "\(label) \(name) must be in \(range), got \(v)"
    }
}

/// An integer parameter (a waveform, a phase in degrees, a tuning step).
struct IntParameter<Settings>: Sendable {
    let name: String
    let param: ALenum
    let range: ClosedRange<Int>
    package let value: WritableKeyPath<Settings, Int> & Sendable
}

/// The settings of one EFX effect type, described by a table of its parameters: one place
/// checks every value against its EFX range and one writes them all.
protocol EFXParameters: Sendable, Hashable {
    /// `AL_EFFECT_TYPE`'s value.
    static var effectType: ALint { get }
    /// The enum's name, for `alGetEnumValue` (is the effect there?).
    static var alName: String { get }
    /// The effect's name in messages.
    static var label: String { get }
    static var floats: [FloatParameter<Self>] { get }
    static var ints: [IntParameter<Self>] { get }
}

extension EFXParameters {
    static var ints: [IntParameter<Self>] { [] }

    /// What is out of range, naming the parameter and its range; nil when every value fits.
    package func problem() -> String? {
        for p in Self.floats { if let problem = p.problem(in: self, label: Self.label) { return problem } }
        for p in Self.ints where !p.range.contains(self[keyPath: p.value]) {
            return "\(Self.label) \(p.name) must be in \(p.range), got \(self[keyPath: p.value])"
        }
        return nil
    }

    /// Sets the effect type and every parameter (already checked), in the current context.
    package func write(to name: ALuint) {
        alEffecti(name, AL_EFFECT_TYPE, Self.effectType)
        for p in Self.floats { alEffectf(name, p.param, self[keyPath: p.value]) }
        for p in Self.ints { alEffecti(name, p.param, ALint(self[keyPath: p.value])) }
    }
}

/// The waveform of a chorus's or flanger's modulation.
public enum ModulationWaveform: Int, Sendable, Hashable, CaseIterable {
    /// A sine.
    case sinusoid = 0
    /// A triangle.
    case triangle = 1
}
