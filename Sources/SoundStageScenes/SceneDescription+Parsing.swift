import Foundation
import SoundStageCore
import SoundStageEngine

/// Reading a scene from its JSON: the top level, the listener, sources, sounds and paths
/// (voices, buses, effects and music in their own files).
extension SceneDescription {
    /// Parses scene JSON. `file` names the source in errors.
    public static func parse(_ data: Data, file: String = "scene") throws -> SceneDescription {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            var detail = "\(error)"
            if case DecodingError.dataCorrupted(let context) = error {
                detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            }
            throw SceneError(file: file, path: "$", problem: "invalid JSON: \(detail)")
        }
        let r = JSONReader(file: file)
        let top = try r.object(root, "$", keys: ["sampleRate", "channels", "duration", "hrtf", "distanceModel", "dopplerFactor", "speedOfSound", "listener", "sources",
                                                          "voices", "buses", "ducking", "groups", "effects", "music", "allowOutside"])
        guard let durationValue = top["duration"] else { throw r.error("$", "\"duration\" is required") }
        let duration = try r.number(durationValue, "$.duration")
        guard duration > 0, duration <= 3_600 else { throw r.error("$.duration", "must be above 0 and at most 3600 seconds, got \(duration)") }
        guard let sourcesValue = top["sources"] else { throw r.error("$", "\"sources\" is required") }
        guard case .array(let sourceList) = sourcesValue else { throw r.error("$.sources", "expected an array of sources") }
        guard sourceList.count <= largestSourceCount else {
            throw r.error("$.sources", "holds \(sourceList.count) sources, more than a scene holds (\(largestSourceCount))")
        }
        let sources = try sourceList.enumerated().map { try parseSource($1, "$.sources[\($0)]", r) }
        var scene = SceneDescription(duration: duration, sources: sources)
        if let v = top["sampleRate"] {
            let rate = try r.integer(v, "$.sampleRate")
            guard Limits.outputSampleRates.contains(rate) else { throw r.error("$.sampleRate", "must be in \(Limits.outputSampleRates), got \(rate)") }
            scene.sampleRate = rate
        }
        if let v = top["channels"] { scene.channels = try r.choice(v, "$.channels", of: ChannelLayout.outputLayouts, named: \.rawValue) }
        if let v = top["hrtf"] { scene.hrtf = try r.bool(v, "$.hrtf") }
        if let v = top["allowOutside"] { scene.allowsFilesOutside = try r.bool(v, "$.allowOutside") }
        if let v = top["distanceModel"] { scene.distanceModel = try r.choice(v, "$.distanceModel", of: DistanceModel.self) }
        if let v = top["dopplerFactor"] { scene.dopplerFactor = try r.float(v, "$.dopplerFactor", min: 0) }
        if let v = top["speedOfSound"] {
            scene.speedOfSound = try r.float(v, "$.speedOfSound", min: 0)
            if scene.speedOfSound == 0 { throw r.error("$.speedOfSound", "must be above 0") }
        }
        if let v = top["listener"] { scene.listener = try parseListener(v, "$.listener", r) }
        try parseVoices(top, into: &scene, r)
        return scene
    }

    private static func parseListener(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> ListenerDescription {
        let o = try r.object(value, path, keys: ["position", "velocity", "forward", "up", "gain", "path"])
        var l = ListenerDescription()
        if let v = o["position"] { l.position = try r.vector(v, "\(path).position") }
        if let v = o["velocity"] { l.velocity = try r.vector(v, "\(path).velocity") }
        if let v = o["forward"] { l.forward = try r.vector(v, "\(path).forward") }
        if let v = o["up"] { l.up = try r.vector(v, "\(path).up") }
        if let problem = Orientation(forward: l.forward, up: l.up).problem { throw r.error(path, problem) }
        if let v = o["gain"] { l.gain = try r.float(v, "\(path).gain", min: 0) }
        if let v = o["path"] { l.path = try parsePath(v, "\(path).path", r) }
        return l
    }

    static func parseSource(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> SourceDescription {
        let o = try r.object(value, path, keys: ["sound", "position", "velocity", "direction", "coneInner", "coneOuter", "coneOuterGain", "gain", "pitch", "referenceDistance", "maxDistance", "rolloff", "relative", "loops", "start", "path",
                                                     "bus", "priority", "pinned", "whenVirtual", "occlusion", "obstruction", "send"])
        guard let soundValue = o["sound"] else { throw r.error(path, "\"sound\" is required") }
        var s = SourceDescription(sound: try parseSound(soundValue, "\(path).sound", r))
        if let v = o["position"] { s.position = try r.vector(v, "\(path).position") }
        if let v = o["velocity"] { s.velocity = try r.vector(v, "\(path).velocity") }
        if let v = o["direction"] { s.direction = try r.vector(v, "\(path).direction") }
        if let v = o["coneInner"] { s.coneInner = try r.float(v, "\(path).coneInner", min: 0, max: 360) }
        if let v = o["coneOuter"] { s.coneOuter = try r.float(v, "\(path).coneOuter", min: 0, max: 360) }
        if let v = o["coneOuterGain"] { s.coneOuterGain = try r.float(v, "\(path).coneOuterGain", min: 0, max: 1) }
        if let v = o["gain"] { s.gain = try r.float(v, "\(path).gain", min: 0) }
        if let v = o["pitch"] { s.pitch = try r.float(v, "\(path).pitch", min: 0) }
        if let v = o["referenceDistance"] { s.referenceDistance = try r.float(v, "\(path).referenceDistance", min: 0) }
        if let v = o["maxDistance"] { s.maxDistance = try r.float(v, "\(path).maxDistance", min: 0) }
        if let v = o["rolloff"] { s.rolloff = try r.float(v, "\(path).rolloff", min: 0) }
        if let v = o["relative"] { s.relative = try r.bool(v, "\(path).relative") }
        if let v = o["loops"] {
            s.loops = try r.integer(v, "\(path).loops")
            guard s.loops >= -1, s.loops <= 100_000 else { throw r.error("\(path).loops", "must be -1 (until the end) or 0...100000, got \(s.loops)") }
        }
        if let v = o["start"] {
            s.start = try r.number(v, "\(path).start")
            guard s.start >= 0, s.start <= AudioEngine.latestStartSeconds else {
                throw r.error("\(path).start", "must be in 0...\(AudioEngine.latestStartSeconds) seconds, got \(s.start)")
            }
        }
        if let v = o["path"] { s.path = try parsePath(v, "\(path).path", r) }
        try parseVoiceKeys(o, into: &s, path, r)
        try parseEffectKeys(o, into: &s, path, r)
        return s
    }

    static func parseSound(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> SoundDescription {
        if case .string(let file) = value {
            guard !file.isEmpty else { throw r.error(path, "the sound file name is empty") }
            return .file(file)
        }
        let o = try r.object(value, path, keys: ["tone", "frequency", "duration"])
        guard let toneValue = o["tone"] else { throw r.error(path, "expected a file name or {\"tone\": ..., \"frequency\": ..., \"duration\": ...}") }
        let shape = try r.choice(toneValue, "\(path).tone", of: Waveform.allCases, named: \.sceneName)
        guard let f = o["frequency"] else { throw r.error(path, "\"frequency\" is required for a tone") }
        guard let d = o["duration"] else { throw r.error(path, "\"duration\" is required for a tone") }
        let frequency = try r.float(f, "\(path).frequency", min: 0)
        guard Limits.toneFrequencies.contains(frequency) else { throw r.error("\(path).frequency", "must be above 0 and at most \(Int(Limits.toneFrequencies.upperBound)) Hz, got \(frequency)") }
        let duration = try r.number(d, "\(path).duration")
        guard Limits.toneSeconds.contains(duration) else { throw r.error("\(path).duration", "must be above 0 and at most \(Int(Limits.toneSeconds.upperBound)) seconds, got \(duration)") }
        return .tone(shape, frequency: frequency, duration: duration)
    }

    private static func parsePath(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> Path {
        guard case .array(let list) = value, !list.isEmpty else { throw r.error(path, "expected a non-empty array of {\"t\": seconds, \"position\": [x, y, z]}") }
        var frames: [Keyframe] = []
        for (i, item) in list.enumerated() {
            let p = "\(path)[\(i)]"
            let o = try r.object(item, p, keys: ["t", "position"])
            guard let t = o["t"] else { throw r.error(p, "\"t\" is required") }
            guard let pos = o["position"] else { throw r.error(p, "\"position\" is required") }
            let time = try r.number(t, "\(p).t")
            guard time >= 0 else { throw r.error("\(p).t", "must not be negative, got \(time)") }
            if let last = frames.last, time <= last.t {
                throw r.error("\(p).t", "keyframe times must increase (\(time) after \(last.t))")
            }
            frames.append(Keyframe(t: time, position: try r.vector(pos, "\(p).position")))
        }
        return Path(frames)
    }
}
