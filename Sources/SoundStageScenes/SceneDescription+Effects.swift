import Foundation
import SoundStageCore
import SoundStageEngine

/// A scene's effects: `"effects"` in JSON (see docs/scene-format.md): effects on buses and
/// reverb zones.
public struct EffectsDescription: Sendable, Equatable {
    /// Effects on buses, at most one per bus.
    public var buses: [BusEffectDescription] = []
    /// Reverb zones, by unique name.
    public var zones: [ReverbZone] = []
    /// Seconds for a zone's reverb to fade from -60 dB to full at the fastest; nil: the
    /// engine's default (``AudioEngine/reverbZoneFadeSeconds``).
    public var zoneFadeSeconds: Float?

    /// No effects.
    public init() {}
}

/// An effect on a bus of the scene (see ``Bus/setEffect(_:level:)``).
public struct BusEffectDescription: Sendable, Equatable {
    /// The bus, standard or the scene's own.
    public var bus: String
    /// The effect.
    public var settings: EffectSettings
    /// Its return, 0...1. Default 1.
    public var level: Float = 1

    /// `settings` on `bus`.
    public init(bus: String, settings: EffectSettings) {
        self.bus = bus
        self.settings = settings
    }
}

extension SceneDescription {
    /// Reads `"effects"`; `known` are the scene's buses.
    static func parseEffects(_ value: JSONValue, known: Set<String>, into scene: inout SceneDescription, _ r: JSONReader) throws {
        let o = try r.object(value, "$.effects", keys: ["buses", "zones", "zoneFade"])
        if let v = o["buses"] {
            guard case .array(let list) = v else { throw r.error("$.effects.buses", "expected an array of {\"bus\": name, \"effect\": type, ...}") }
            for (i, item) in list.enumerated() {
                let p = "$.effects.buses[\(i)]"
                guard case .object(let fields) = item else { throw r.error(p, "expected an object") }
                guard let b = fields["bus"], let e = fields["effect"] else { throw r.error(p, "\"bus\" and \"effect\" are required") }
                let bus = try r.string(b, "\(p).bus")
                guard known.contains(bus) else { throw r.error("\(p).bus", "no bus \"\(bus)\" (\(known.sorted().joined(separator: ", ")))") }
                guard !scene.effects.buses.contains(where: { $0.bus == bus }) else { throw r.error("\(p).bus", "bus \"\(bus)\" has an effect already") }
                let defaults = try r.choice(e, "\(p).effect", of: EffectSettings.byTypeName, named: \.name).defaults
                var extra: Set<String> = ["bus", "effect", "level"]
                if case .reverb = defaults { extra.insert("preset") }
                let settings = try parseEffect(item, p, defaults: defaults, extra: extra, r)
                var effect = BusEffectDescription(bus: bus, settings: settings)
                if let x = fields["level"] { effect.level = try r.float(x, "\(p).level", min: 0, max: 1) }
                scene.effects.buses.append(effect)
            }
        }
        if let v = o["zones"] {
            guard case .array(let list) = v else { throw r.error("$.effects.zones", "expected an array of zones") }
            for (i, item) in list.enumerated() {
                let zone = try parseZone(item, "$.effects.zones[\(i)]", r)
                guard !scene.effects.zones.contains(where: { $0.name == zone.name }) else {
                    throw r.error("$.effects.zones[\(i)].name", "zone names must be unique, \"\(zone.name)\" is taken")
                }
                scene.effects.zones.append(zone)
            }
        }
        if let v = o["zoneFade"] { scene.effects.zoneFadeSeconds = try r.float(v, "$.effects.zoneFade", min: 0, max: 60) }
    }

    /// An effect's settings from `value`: the type's defaults, a reverb preset when `"preset"`
    /// names one, then every parameter named, each checked against its EFX range.
    private static func parseEffect(_ value: JSONValue, _ path: String, defaults: EffectSettings, extra: Set<String>, _ r: JSONReader) throws -> EffectSettings {
        let names = defaults.parameterNames
        let o = try r.object(value, path, keys: extra.union(names))
        var settings = defaults
        if let v = o["preset"] { settings = .reverb(Reverb(preset: try parsePreset(v, "\(path).preset", r))) }
        for name in names.sorted() {
            guard let v = o[name] else { continue }
            guard settings.set(name, to: try r.number(v, "\(path).\(name)")) else {
                throw r.error("\(path).\(name)", "must be a whole number in the parameter's range (an enumeration's EFX value)")
            }
        }
        if let problem = settings.problem { throw r.error(path, problem) }
        return settings
    }

    private static func parseZone(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> ReverbZone {
        let o = try r.object(value, path, keys: ["name", "sphere", "box", "reverb"])
        guard let n = o["name"], let rv = o["reverb"] else { throw r.error(path, "\"name\" and \"reverb\" are required") }
        let name = try r.string(n, "\(path).name")
        guard !name.isEmpty else { throw r.error("\(path).name", "must not be empty") }
        let shape: ReverbZone.Shape
        switch (o["sphere"], o["box"]) {
        case (let sphere?, nil):
            let s = try r.object(sphere, "\(path).sphere", keys: ["center", "inner", "outer"])
            guard let c = s["center"], let inner = s["inner"], let outer = s["outer"] else { throw r.error("\(path).sphere", "\"center\", \"inner\" and \"outer\" are required") }
            shape = .sphere(center: try r.vector(c, "\(path).sphere.center"), innerRadius: try r.float(inner, "\(path).sphere.inner", min: 0),
                            outerRadius: try r.float(outer, "\(path).sphere.outer", min: 0))
        case (nil, let box?):
            let b = try r.object(box, "\(path).box", keys: ["center", "inner", "outer"])
            guard let c = b["center"], let inner = b["inner"], let outer = b["outer"] else { throw r.error("\(path).box", "\"center\", \"inner\" and \"outer\" (half extents) are required") }
            shape = .box(center: try r.vector(c, "\(path).box.center"), innerHalfExtents: try r.vector(inner, "\(path).box.inner"),
                         outerHalfExtents: try r.vector(outer, "\(path).box.outer"))
        default:
            throw r.error(path, "a zone is a \"sphere\" or a \"box\" (one of them)")
        }
        var reverb = Reverb()
        if case .string = rv {
            reverb = Reverb(preset: try parsePreset(rv, "\(path).reverb", r))
        } else if case .reverb(let parsed) = try parseEffect(rv, "\(path).reverb", defaults: .reverb(Reverb()), extra: ["preset"], r) {
            reverb = parsed
        }
        let zone = ReverbZone(name: name, shape: shape, reverb: reverb)
        if let problem = zone.problem() { throw r.error(path, problem) }
        return zone
    }

    /// A reverb preset by name.
    private static func parsePreset(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> ReverbPreset {
        let name = try r.string(value, path)
        guard let preset = ReverbPreset.named(name) else {
            throw r.error(path, "no reverb preset \"\(name)\" (`soundstage effects` lists the 113, e.g. \"cave\", \"CASTLE_HALL\")")
        }
        return preset
    }

    /// Reads a source's effect keys: `occlusion`, `obstruction`, `send`.
    static func parseEffectKeys(_ o: [String: JSONValue], into s: inout SourceDescription, _ path: String, _ r: JSONReader) throws {
        if let v = o["occlusion"] { s.occlusion = try r.float(v, "\(path).occlusion", min: 0, max: 1) }
        if let v = o["obstruction"] { s.obstruction = try r.float(v, "\(path).obstruction", min: 0, max: 1) }
        if let v = o["send"] { s.sendLevel = try r.float(v, "\(path).send", min: 0, max: 1) }
    }
}
