import Foundation
import SoundStageCore
import SoundStageEngine

/// Renders a ``SceneDescription`` offline, faster than real time and deterministically: the
/// same scene gives the same samples.
///
/// The scene plays through an offline ``AudioEngine``, the way a game's sounds do: every
/// source is a ``Voice`` on its bus, so a scene with more sources than OpenAL has (a group of
/// 5,000 crickets) renders with the most audible real and the rest virtual, keeping time.
/// Sources start on the exact frame of their `start` time; a source with `loops: N` plays its
/// sound N+1 times back to back, sample-exactly; moving objects follow their paths, updated
/// every 10 ms (the engine's tick) with the velocity of the path segment they are on, so
/// Doppler follows the motion. Effects on buses, reverb zones (blended by where the listener
/// walks) and each source's occlusion and send level are heard as in the engine. Music tracks
/// play as gapless playlists, with crossfades and stingers on their beats and bars.
public struct SceneRenderer: Sendable {
    /// The scene to render.
    public let scene: SceneDescription
    /// Frames between position updates of moving objects (10 ms), the engine's tick.
    public var blockFrames: Int

    /// Creates a renderer for `scene`.
    public init(scene: SceneDescription) {
        self.scene = scene
        self.blockFrames = max(1, scene.sampleRate / 100)
    }

    /// Renders the whole scene. `progress` is called after each block with the fraction done.
    public func render(progress: ((Double) -> Void)? = nil) throws -> RenderedAudio {
        try renderReporting(progress: progress).audio
    }

    /// Renders the whole scene and says what its voices did: how many were real and virtual
    /// at each tick, and how much of its time each source was real.
    public func renderReporting(progress: ((Double) -> Void)? = nil) throws -> SceneRender {
        var samples: [Float] = []
        samples.reserveCapacity(Int((scene.duration * Double(scene.sampleRate)).rounded()) * scene.channels.channelCount)
        var render = try renderStreaming(progress: progress) { samples += $0.samples }
        render.audio.samples = samples
        return render
    }

    /// Renders the whole scene, handing its samples to `output` as they are made, in pieces
    /// of about a second (each a ``RenderedAudio`` of the scene's format, in order), and
    /// keeping none: the memory a render takes is that of its sounds and a second of output,
    /// whatever its duration. Write the pieces with an `AudioFileOutput` and measure them with
    /// a ``LevelGraph``, as `soundstage render` does. The render returned says what the voices
    /// did; its ``SceneRender/audio`` holds the format and no samples.
    ///
    /// - Throws: what `output` throws (the render stops there), and as ``render(progress:)``.
    public func renderStreaming(progress: ((Double) -> Void)? = nil, output: (RenderedAudio) throws -> Void) throws -> SceneRender {
        let format = RenderFormat(sampleRate: scene.sampleRate, channels: scene.channels, sampleType: .float32)
        let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(hrtf: scene.hrtf ? .on : .off),
                                     service: .manual(tick: Double(blockFrames) / Double(scene.sampleRate)))
        defer { engine.shutdown() }
        let context = engine.context
        try context.set(.distanceModel, to: scene.distanceModel)
        try context.set(.dopplerFactor, to: scene.dopplerFactor)
        try context.set(.speedOfSound, to: scene.speedOfSound)
        let listener = context.listener
        try listener.set(.gain, to: scene.listener.gain)
        try listener.set(.orientation, to: Orientation(forward: scene.listener.forward, up: scene.listener.up))
        try listener.set(.position, to: scene.listener.path?.position(at: 0) ?? scene.listener.position)
        try listener.set(.velocity, to: scene.listener.velocity)
        try engine.configureVoices(poolConfiguration(context))
        for bus in scene.buses {
            let made = try engine.makeBus(named: bus.name, parent: engine.bus(named: bus.parent))
            try made.setVolume(bus.volume)
            made.isMuted = bus.muted
        }
        for rule in scene.ducking {
            guard let trigger = engine.bus(named: rule.trigger), let target = engine.bus(named: rule.target) else { continue }
            try engine.addDucking(DuckingRule(trigger: trigger, target: target, depthDB: rule.depthDB,
                                              attackSeconds: rule.attack, releaseSeconds: rule.release))
        }
        for effect in scene.effects.buses { try engine.bus(named: effect.bus)?.setEffect(effect.settings, level: effect.level) }
        if let fade = scene.effects.zoneFadeSeconds { engine.reverbZoneFadeSeconds = fade }
        for zone in scene.effects.zones { try engine.addReverbZone(zone) }

        var sounds: [SoundDescription: Sound] = [:]
        var warnings: [SceneError] = []
        for (description, place) in scene.soundPlaces {
            let sound = Sound(buffer: try makeBuffer(description, context: context, place: place))
            sounds[description] = sound
            if let damage = sound.damage {
                warnings.append(SceneError(file: scene.errorFile, path: place, problem: "\(sound.label) did not decode whole: \(damage)"))
            }
        }
        let music = try SceneMusic(scene.music, sampleRate: scene.sampleRate, engine: engine, file: scene.baseURL?.path ?? "scene") { sounds[$0]! }
        let startFrames = scene.sources.map { Int(($0.start * Double(scene.sampleRate)).rounded()) }
        let order = scene.sources.indices.sorted { startFrames[$0] < startFrames[$1] }
        var next = 0
        var voices = [Voice?](repeating: nil, count: scene.sources.count)
        // The voices started, and which source each is, for one status read a tick.
        var started: [Voice] = [], startedSource: [Int] = []
        var realTicks = [Int](repeating: 0, count: scene.sources.count)
        var counts: [VoiceCounts] = []
        let moving = scene.sources.indices.filter { scene.sources[$0].path != nil }

        let total = Int((scene.duration * Double(scene.sampleRate)).rounded())
        let piece = scene.sampleRate * scene.channels.channelCount
        var samples: [Float] = []
        samples.reserveCapacity(piece + blockFrames * scene.channels.channelCount)
        var frame = 0
        while frame < total {
            while next < order.count, startFrames[order[next]] <= frame {
                let i = order[next]
                if let voice = try start(scene.sources[i], sounds[scene.sources[i].sound]!, engine) {
                    voices[i] = voice
                    started.append(voice)
                    startedSource.append(i)
                }
                next += 1
            }
            try music.give(through: frame)
            let time = Double(frame) / Double(scene.sampleRate)
            if let path = scene.listener.path {
                try listener.set(.position, to: path.position(at: time))
                try listener.set(.velocity, to: path.velocity(at: time))
            }
            for i in moving {
                guard let path = scene.sources[i].path, let voice = voices[i], voice.isValid else { continue }
                try voice.setPosition(path.position(at: time))
                try voice.setVelocity(path.velocity(at: time))
            }
            var end = min(total, frame + blockFrames - frame % blockFrames)
            if next < order.count { end = min(end, max(frame + 1, startFrames[order[next]])) }
            if let cue = music.nextFrame { end = min(end, max(frame + 1, cue)) }
            samples += try engine.render(frames: end - frame).samples
            if samples.count >= piece || end == total {
                try output(RenderedAudio(format: format, samples: samples))
                samples.removeAll(keepingCapacity: true)
            }
            frame = end
            if frame % blockFrames == 0 || frame == total {
                counts.append(engine.voiceCounts)
                for (k, status) in engine.statuses(of: started).enumerated() where status == .real {
                    realTicks[startedSource[k]] += 1
                }
            }
            progress?(Double(frame) / Double(max(total, 1)))
        }
        let ticks = max(1, counts.count)
        return SceneRender(audio: RenderedAudio(format: format, samples: []), voiceCounts: counts,
                           realFractions: realTicks.map { Double($0) / Double(ticks) }, warnings: warnings)
    }

    /// The scene's pool: as it asks, within what the context grants. A scene that does not
    /// say keeps no sources for players (it has none): every source is real when the context
    /// has one for each, as an OpenAL scene would play it; past that, 7/8 of the context's
    /// sources are real voices and 1/8 fade the others out.
    private func poolConfiguration(_ context: AudioContext) -> VoiceConfiguration {
        var configuration = scene.voices.configuration
        let granted = context.sourceLimit
        if let real = configuration.realVoices {
            configuration.realVoices = min(real, granted)
        } else if scene.sources.count <= granted {
            configuration.realVoices = granted
        } else {
            configuration.reservedSources = 0
        }
        return configuration
    }

    /// Starts one source as a voice on its bus.
    private func start(_ d: SourceDescription, _ sound: Sound, _ engine: AudioEngine) throws -> Voice? {
        let cone = d.coneOuter < 360 || d.coneInner < 360
            ? VoiceCone(direction: d.direction, innerAngle: d.coneInner, outerAngle: d.coneOuter, outerGain: d.coneOuterGain) : nil
        let options = VoiceOptions(isPinned: d.pinned, whenVirtual: d.whenVirtual, referenceDistance: d.referenceDistance,
                                   maxDistance: d.maxDistance, rolloffFactor: d.rolloff, cone: cone, isRelative: d.relative)
        // A gain above 1 boosts before distance attenuation, as an OpenAL source's does.
        let voice = try engine.play(sound, at: d.path?.position(at: d.start) ?? d.position, volume: Voice.volumeRange.clamping(d.gain),
                                    pitch: Voice.pitchRange.clamping(d.pitch), priority: d.priority, loops: d.loops,
                                    bus: engine.bus(named: d.bus), options: options)
        // The pool's rules said no, as they would in a game: counted as refused.
        guard voice.refusal == nil else { return nil }
        if d.velocity != .zero { try voice.setVelocity(d.velocity) }
        if d.occlusion > 0 || d.obstruction > 0 { try voice.setOcclusion(d.occlusion, obstruction: d.obstruction) }
        if d.sendLevel < 1 { try voice.setSendLevel(d.sendLevel) }
        return voice
    }

    /// The buffer of a sound the scene names first at `place`; a file that cannot be loaded
    /// is a ``SceneError`` there.
    private func makeBuffer(_ sound: SoundDescription, context: AudioContext, place: String) throws -> AudioBuffer {
        switch sound {
        case .file(let path):
            let url = scene.resolve(path)
            let buffer: AudioBuffer
            do {
                buffer = try AudioBuffer(context: context, contentsOf: url)
            } catch let error as SoundStageError {
                throw SceneError(file: scene.errorFile, path: place, problem: "\(url.path): \(error.reason)")
            }
            guard buffer.frameCount > 0 else {
                throw SceneError(file: scene.errorFile, path: place, problem: "\(url.path): the file holds no audio (0 frames)")
            }
            return buffer
        case .tone(let shape, let frequency, let duration):
            let samples = shape.samples(frequency: frequency, seconds: duration, sampleRate: scene.sampleRate)
            return try AudioBuffer(context: context, samples: samples, sampleRate: scene.sampleRate,
                                   label: "\(shape.sceneName) \(frequency) Hz")
        }
    }
}

/// A scene's render and what its voices did.
public struct SceneRender: Sendable {
    /// The samples.
    public var audio: RenderedAudio
    /// The engine's voice counts after each 10 ms tick.
    public var voiceCounts: [VoiceCounts]
    /// For each source of the scene, the fraction of ticks it was real (0 for one that never
    /// started, or was refused).
    public var realFractions: [Double]
    /// What did not stop the render but should be known: each sound file that did not decode
    /// whole (``DecodeDamage``), at the JSON path that names it. `soundstage render` prints them.
    public var warnings: [SceneError] = []

    /// The most voices real at once.
    public var peakReal: Int { voiceCounts.map(\.real).max() ?? 0 }
    /// The most voices virtual at once.
    public var peakVirtual: Int { voiceCounts.map(\.virtual).max() ?? 0 }
}

extension SoundDescription: Hashable {
    /// Hashes the file name or the tone's parameters.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .file(let path): hasher.combine(0); hasher.combine(path)
        case .tone(let shape, let f, let d): hasher.combine(1); hasher.combine(shape); hasher.combine(f); hasher.combine(d)
        }
    }
}
