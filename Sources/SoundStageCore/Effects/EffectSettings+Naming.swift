// Effects by name, for scene files and tools: a type name ("reverb", "echo"...) gives the
// type's defaults, and a parameter is set by its name from the same tables that check it.
extension EffectSettings {
    /// Every effect type by its name in scene files, with its defaults.
    package static let byTypeName: [(name: String, defaults: EffectSettings)] = [
        ("reverb", .reverb(Reverb())), ("echo", .echo(Echo())), ("chorus", .chorus(Chorus())), ("flanger", .flanger(Flanger())),
        ("distortion", .distortion(Distortion())), ("equalizer", .equalizer(Equalizer())), ("compressor", .compressor(Compressor())),
        ("ringModulator", .ringModulator(RingModulator())), ("autowah", .autowah(Autowah())), ("pitchShifter", .pitchShifter(PitchShifter())),
        ("frequencyShifter", .frequencyShifter(FrequencyShifter())), ("dedicatedDialog", .dedicatedDialog(Dedicated())),
        ("dedicatedLowFrequency", .dedicatedLowFrequency(Dedicated())),
    ]

    /// The names of the type's numeric parameters, as scene files name them.
    package var parameterNames: [String] {
        switch self {
        case .reverb: return Reverb.parameters.map(\.eax.name)
        case .dedicatedDialog, .dedicatedLowFrequency: return ["gain"]
        case .echo(let e): return Self.names(e)
        case .chorus(let e): return Self.names(e)
        case .flanger(let e): return Self.names(e)
        case .distortion(let e): return Self.names(e)
        case .equalizer(let e): return Self.names(e)
        case .compressor(let e): return Self.names(e)
        case .ringModulator(let e): return Self.names(e)
        case .autowah(let e): return Self.names(e)
        case .pitchShifter(let e): return Self.names(e)
        case .frequencyShifter(let e): return Self.names(e)
        }
    }

    /// Sets parameter `name` to `value`; false when the type has no such parameter, or it
    /// is a whole number and `value` is not. Ranges are checked when the effect is made.
    package mutating func set(_ name: String, to value: Double) -> Bool {
        switch self {
        case .reverb(var r):
            guard let p = Reverb.parameters.first(where: { $0.eax.name == name }) else { return false }
            r[keyPath: p.eax.value] = Float(value)
            self = .reverb(r)
        case .dedicatedDialog(var d), .dedicatedLowFrequency(var d):
            guard name == "gain" else { return false }
            d.gain = Float(value)
            if case .dedicatedDialog = self { self = .dedicatedDialog(d) } else { self = .dedicatedLowFrequency(d) }
        case .echo(var e): guard Self.set(&e, name, value) else { return false }; self = .echo(e)
        case .chorus(var e): guard Self.set(&e, name, value) else { return false }; self = .chorus(e)
        case .flanger(var e): guard Self.set(&e, name, value) else { return false }; self = .flanger(e)
        case .distortion(var e): guard Self.set(&e, name, value) else { return false }; self = .distortion(e)
        case .equalizer(var e): guard Self.set(&e, name, value) else { return false }; self = .equalizer(e)
        case .compressor(var e): guard Self.set(&e, name, value) else { return false }; self = .compressor(e)
        case .ringModulator(var e): guard Self.set(&e, name, value) else { return false }; self = .ringModulator(e)
        case .autowah(var e): guard Self.set(&e, name, value) else { return false }; self = .autowah(e)
        case .pitchShifter(var e): guard Self.set(&e, name, value) else { return false }; self = .pitchShifter(e)
        case .frequencyShifter(var e): guard Self.set(&e, name, value) else { return false }; self = .frequencyShifter(e)
        }
        return true
    }

    private static func names<P: EFXParameters>(_: P) -> [String] { P.floats.map(\.name) + P.ints.map(\.name) }

    private static func set<P: EFXParameters>(_ settings: inout P, _ name: String, _ value: Double) -> Bool {
        if let p = P.floats.first(where: { $0.name == name }) {
            settings[keyPath: p.value] = Float(value)
            return true
        }
        // A whole number in its range: an enumeration's raw value out of range would not be kept.
        guard let p = P.ints.first(where: { $0.name == name }), let n = Int(exactly: value), p.range.contains(n) else { return false }
        settings[keyPath: p.value] = n
        return true
    }
}

extension ReverbPreset {
    /// The preset named `name`: its case name (`castleHall`) or its EFX name (`CASTLE_HALL`),
    /// in any case.
    public static func named(_ name: String) -> ReverbPreset? {
        let key = name.lowercased()
        return allCases.first { "\($0)".lowercased() == key || $0.rawValue.lowercased() == key }
    }
}
