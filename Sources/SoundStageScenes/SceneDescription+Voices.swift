import Foundation
import SoundStageCore
import SoundStageEngine

/// How a scene's voice pool is sized: `"voices"` in JSON (see docs/scene-format.md).
public struct VoicePoolDescription: Sendable, Equatable {
    /// Real voices at most; nil: the engine's default (what the context grants, less a reserve).
    public var realVoices: Int?
    /// Voices at most, real and virtual. Default 16384.
    public var maxVoices = 16_384
    /// The seed of variation. Default 0.
    public var seed: UInt64 = 0
    /// Voices quieter than this gain are never real. Default 0.0001 (-80 dB).
    public var audibilityFloor: Float = 0.0001

    /// The defaults.
    public init() {}

    /// The engine configuration this describes.
    var configuration: VoiceConfiguration {
        VoiceConfiguration(realVoices: realVoices, maxVoices: maxVoices, audibilityFloor: audibilityFloor, seed: seed)
    }
}

/// A bus of the scene's own: `"buses"` in JSON, under a standard bus or one declared before.
public struct BusDescription: Sendable, Equatable {
    /// Its name, unique, not one of the standard buses.
    public var name: String
    /// The bus above it. Default "master".
    public var parent = "master"
    /// Its volume, 0...1. Default 1.
    public var volume: Float = 1
    /// Whether it starts muted. Default false.
    public var muted = false

    /// A bus named `name` under the master.
    public init(name: String) { self.name = name }
}

/// A ducking rule: `"ducking"` in JSON (see ``DuckingRule``).
public struct DuckingDescription: Sendable, Equatable {
    /// The bus whose playing lowers the target.
    public var trigger: String
    /// The bus lowered.
    public var target: String
    /// How far, in dB. Default 12.
    public var depthDB: Float = 12
    /// Seconds to the full depth. Default 0.1.
    public var attack: Double = 0.1
    /// Seconds back. Default 0.5.
    public var release: Double = 0.5

    /// A rule: `target` drops while `trigger` plays.
    public init(trigger: String, target: String) {
        self.trigger = trigger
        self.target = target
    }
}

/// Many copies of one source scattered over a box (5,000 crickets over a field): `"groups"`
/// in JSON. The copies join ``SceneDescription/sources``, each placed at random in the box
/// from the group's seed, so a scene repeats.
public struct GroupDescription: Sendable, Equatable {
    /// Its name in the plot. Default "group N".
    public var name: String
    /// How many copies, 1...100000.
    public var count: Int
    /// The box's lowest corner.
    public var min: SIMD3<Float>
    /// The box's highest corner.
    public var max: SIMD3<Float>
    /// The seed of the placement. Default 0.
    public var seed: UInt64 = 0
    /// What every copy is, but for its position (a source without position or path).
    public var source: SourceDescription

    /// A group of `count` copies of `source` in the box from `min` to `max`.
    public init(name: String, count: Int, min: SIMD3<Float>, max: SIMD3<Float>, source: SourceDescription) {
        self.name = name
        self.count = count
        self.min = min
        self.max = max
        self.source = source
    }

    /// The copies, placed.
    func members(group index: Int) -> [SourceDescription] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            var member = source
            member.group = index
            member.position = SIMD3(generator.value(in: min.x...max.x), generator.value(in: min.y...max.y), generator.value(in: min.z...max.z))
            return member
        }
    }
}

extension SceneDescription {
    /// The standard buses every engine has.
    static let standardBuses = ["master", "music", "effects", "ui", "dialog"]

    /// Reads the voice keys of the top object: `voices`, `buses`, `ducking`, `groups`, and
    /// checks every bus a source or rule names; then `effects`, which names buses too.
    static func parseVoices(_ top: [String: JSONValue], into scene: inout SceneDescription, _ r: JSONReader) throws {
        if let v = top["voices"] {
            let o = try r.object(v, "$.voices", keys: ["real", "max", "seed", "floor"])
            if let x = o["real"] {
                let n = try r.integer(x, "$.voices.real")
                guard (0...Limits.sourceCounts.upperBound).contains(n) else { throw r.error("$.voices.real", "must be in 0...\(Limits.sourceCounts.upperBound), got \(n)") }
                scene.voices.realVoices = n
            }
            if let x = o["max"] {
                let n = try r.integer(x, "$.voices.max")
                guard VoiceConfiguration.maxVoicesRange.contains(n) else { throw r.error("$.voices.max", "must be in \(VoiceConfiguration.maxVoicesRange), got \(n)") }
                scene.voices.maxVoices = n
            }
            if let x = o["seed"] {
                let n = try r.integer(x, "$.voices.seed")
                guard n >= 0 else { throw r.error("$.voices.seed", "must not be negative, got \(n)") }
                scene.voices.seed = UInt64(n)
            }
            if let x = o["floor"] { scene.voices.audibilityFloor = try r.float(x, "$.voices.floor", min: 0, max: 1) }
        }
        var known = Set(standardBuses)
        if let v = top["buses"] {
            guard case .array(let list) = v else { throw r.error("$.buses", "expected an array of buses") }
            for (i, item) in list.enumerated() {
                let p = "$.buses[\(i)]"
                let o = try r.object(item, p, keys: ["name", "parent", "volume", "muted"])
                guard let n = o["name"] else { throw r.error(p, "\"name\" is required") }
                var bus = BusDescription(name: try r.string(n, "\(p).name"))
                guard !bus.name.isEmpty, !known.contains(bus.name) else { throw r.error("\(p).name", "bus names must be new and not empty, got \"\(bus.name)\"") }
                if let x = o["parent"] { bus.parent = try r.string(x, "\(p).parent") }
                guard known.contains(bus.parent) else { throw r.error("\(p).parent", "no bus \"\(bus.parent)\" before it (\(known.sorted().joined(separator: ", ")))") }
                if let x = o["volume"] { bus.volume = try r.float(x, "\(p).volume", min: 0, max: 1) }
                if let x = o["muted"] { bus.muted = try r.bool(x, "\(p).muted") }
                known.insert(bus.name)
                scene.buses.append(bus)
            }
        }
        if let v = top["ducking"] {
            guard case .array(let list) = v else { throw r.error("$.ducking", "expected an array of rules") }
            for (i, item) in list.enumerated() {
                let p = "$.ducking[\(i)]"
                let o = try r.object(item, p, keys: ["trigger", "target", "depthDB", "attack", "release"])
                guard let t = o["trigger"], let g = o["target"] else { throw r.error(p, "\"trigger\" and \"target\" are required") }
                var rule = DuckingDescription(trigger: try r.string(t, "\(p).trigger"), target: try r.string(g, "\(p).target"))
                for (key, name) in [("trigger", rule.trigger), ("target", rule.target)] where !known.contains(name) {
                    throw r.error("\(p).\(key)", "no bus \"\(name)\"")
                }
                guard rule.trigger != rule.target else { throw r.error(p, "the trigger and the target must differ") }
                if let x = o["depthDB"] { rule.depthDB = try r.float(x, "\(p).depthDB", min: 0, max: 160) }
                if let x = o["attack"] { rule.attack = Double(try r.float(x, "\(p).attack", min: 0, max: 60)) }
                if let x = o["release"] { rule.release = Double(try r.float(x, "\(p).release", min: 0, max: 60)) }
                scene.ducking.append(rule)
            }
        }
        if let v = top["groups"] {
            guard case .array(let list) = v else { throw r.error("$.groups", "expected an array of groups") }
            var copies = 0
            for (i, item) in list.enumerated() {
                let p = "$.groups[\(i)]"
                let o = try r.object(item, p, keys: ["name", "count", "min", "max", "seed", "source"])
                guard let c = o["count"], let lo = o["min"], let hi = o["max"], let s = o["source"] else {
                    throw r.error(p, "\"count\", \"min\", \"max\" and \"source\" are required")
                }
                let count = try r.integer(c, "\(p).count")
                guard (1...100_000).contains(count) else { throw r.error("\(p).count", "must be in 1...100000, got \(count)") }
                // Counted before any group's copies are made.
                copies += count
                guard scene.sources.count + copies <= SceneDescription.largestSourceCount else {
                    throw r.error("\(p).count", "would make the scene's sources \(scene.sources.count + copies), more than a scene holds (\(SceneDescription.largestSourceCount), its groups' copies counted)")
                }
                let source = try parseSource(s, "\(p).source", r)
                guard source.path == nil else { throw r.error("\(p).source.path", "group members stand still: no path") }
                var group = GroupDescription(name: "group \(i + 1)", count: count, min: try r.vector(lo, "\(p).min"), max: try r.vector(hi, "\(p).max"), source: source)
                guard all(group.min .<= group.max) else { throw r.error(p, "\"min\" must not exceed \"max\" on any axis") }
                if let x = o["name"] { group.name = try r.string(x, "\(p).name") }
                if let x = o["seed"] {
                    let n = try r.integer(x, "\(p).seed")
                    guard n >= 0 else { throw r.error("\(p).seed", "must not be negative, got \(n)") }
                    group.seed = UInt64(n)
                }
                scene.groups.append(group)
            }
            for (index, group) in scene.groups.enumerated() { scene.sources += group.members(group: index) }
        }
        for (i, source) in scene.sources.enumerated() where !known.contains(source.bus) {
            let p = source.group.map { "$.groups[\($0)].source.bus" } ?? "$.sources[\(i)].bus"
            throw r.error(p, "no bus \"\(source.bus)\" (\(known.sorted().joined(separator: ", ")))")
        }
        if let v = top["effects"] { try parseEffects(v, known: known, into: &scene, r) }
        if let v = top["music"] { try parseMusic(v, known: known, into: &scene, r) }
    }

    /// Reads a source's voice keys: `bus`, `priority`, `pinned`, `whenVirtual`.
    static func parseVoiceKeys(_ o: [String: JSONValue], into s: inout SourceDescription, _ path: String, _ r: JSONReader) throws {
        if let v = o["bus"] { s.bus = try r.string(v, "\(path).bus") }
        if let v = o["priority"] {
            s.priority = try r.integer(v, "\(path).priority")
            guard Voice.priorityRange.contains(s.priority) else { throw r.error("\(path).priority", "must be in \(Voice.priorityRange), got \(s.priority)") }
        }
        if let v = o["pinned"] { s.pinned = try r.bool(v, "\(path).pinned") }
        if let v = o["whenVirtual"] { s.whenVirtual = try r.choice(v, "\(path).whenVirtual", of: WhenVirtual.self) }
    }
}
