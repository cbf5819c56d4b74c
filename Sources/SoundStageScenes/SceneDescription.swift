import Foundation
import SoundStageCore
import SoundStageEngine

/// A scene to render offline: a listener, sound sources placed and moving in 3D, and the
/// render settings. Read from JSON with ``SceneDescription/load(contentsOf:)``; the format is
/// documented in `docs/scene-format.md`.
public struct SceneDescription: Sendable, Equatable {
    /// Output sample rate in Hz. Default 48000.
    public var sampleRate: Int = 48_000
    /// Output channel layout. Default stereo.
    public var channels: ChannelLayout = .stereo
    /// Length of the render in seconds (required, above 0).
    public var duration: Double
    /// Whether to render through HRTF (stereo only). Default false.
    public var hrtf: Bool = false
    /// The distance model. Default ``DistanceModel/inverseClamped``.
    public var distanceModel: DistanceModel = .inverseClamped
    /// The Doppler factor. Default 1.
    public var dopplerFactor: Float = 1
    /// The speed of sound in units per second. Default 343.3.
    public var speedOfSound: Float = 343.3
    /// The listener.
    public var listener = ListenerDescription()
    /// The sources (at least one), group members included: at most ``largestSourceCount``.
    public var sources: [SourceDescription]
    /// The most sources a scene holds, its groups' copies counted: 1,000,000 (checked before
    /// any copy is made; a scene of 130 KB asking for 10^8 copies was refused no earlier than
    /// memory ran out).
    public static let largestSourceCount = 1_000_000
    /// The voice pool's size and seed.
    public var voices = VoicePoolDescription()
    /// Buses of the scene's own, parents first.
    public var buses: [BusDescription] = []
    /// Ducking rules.
    public var ducking: [DuckingDescription] = []
    /// Groups of scattered copies (their copies are in ``sources``).
    public var groups: [GroupDescription] = []
    /// Effects on buses and reverb zones.
    public var effects = EffectsDescription()
    /// Music: tracks, crossfades between them, stingers.
    public var music = MusicDescription()
    /// The folder relative sound paths are resolved against (the scene file's folder).
    public var baseURL: URL?
    /// The scene file, when it was read from one: what errors found while rendering name.
    public var fileURL: URL?
    /// Whether the scene says its sound files may be outside its folder (`"allowOutside": true`):
    /// see ``filesOutsideFolder``.
    public var allowsFilesOutside = false

    /// Creates a scene.
    public init(duration: Double, sources: [SourceDescription]) {
        self.duration = duration
        self.sources = sources
    }
}

/// A position at a time, for paths.
public struct Keyframe: Sendable, Equatable {
    /// Seconds from the start of the render.
    public var t: Double
    /// Where the object is at `t`.
    public var position: SIMD3<Float>

    /// Creates a keyframe.
    public init(t: Double, position: SIMD3<Float>) {
        self.t = t
        self.position = position
    }
}

/// A path of keyframes, positions interpolated linearly between them and held before the
/// first and after the last.
public struct Path: Sendable, Equatable {
    /// The keyframes, in time order.
    public var keyframes: [Keyframe]

    /// Creates a path; keyframes must be in increasing time order.
    public init(_ keyframes: [Keyframe]) { self.keyframes = keyframes }

    /// The position at time `t`.
    public func position(at t: Double) -> SIMD3<Float> {
        guard let first = keyframes.first else { return .zero }
        if t <= first.t { return first.position }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where t < b.t {
            let u = Float((t - a.t) / (b.t - a.t))
            return a.position + (b.position - a.position) * u
        }
        return keyframes.last!.position
    }

    /// The velocity at time `t` (units per second): the slope of the segment `t` is in, zero
    /// before the first and after the last keyframe.
    public func velocity(at t: Double) -> SIMD3<Float> {
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where t >= a.t && t < b.t {
            return (b.position - a.position) / Float(b.t - a.t)
        }
        return .zero
    }
}

/// The listener of a scene.
public struct ListenerDescription: Sendable, Equatable {
    /// Position. Default origin.
    public var position: SIMD3<Float> = .zero
    /// Velocity, for Doppler. Default zero (derived from ``path`` when there is one).
    public var velocity: SIMD3<Float> = .zero
    /// Facing. Default (0, 0, -1).
    public var forward: SIMD3<Float> = [0, 0, -1]
    /// Up. Default (0, 1, 0).
    public var up: SIMD3<Float> = [0, 1, 0]
    /// Master gain. Default 1.
    public var gain: Float = 1
    /// Keyframes that move the listener.
    public var path: Path?

    /// Creates a listener description with the defaults.
    public init() {}
}

/// What a source plays.
public enum SoundDescription: Sendable, Equatable {
    /// A sound file, relative to the scene file.
    case file(String)
    /// A generated tone.
    case tone(Waveform, frequency: Float, duration: Double)
}

/// One sound source of a scene.
public struct SourceDescription: Sendable, Equatable {
    /// What it plays (required).
    public var sound: SoundDescription
    /// Position. Default origin.
    public var position: SIMD3<Float> = .zero
    /// Velocity, for Doppler. Default zero (derived from ``path`` when there is one).
    public var velocity: SIMD3<Float> = .zero
    /// Cone direction. Default zero (omnidirectional).
    public var direction: SIMD3<Float> = .zero
    /// Inner cone angle in degrees. Default 360.
    public var coneInner: Float = 360
    /// Outer cone angle in degrees. Default 360.
    public var coneOuter: Float = 360
    /// Gain outside the outer cone. Default 0.
    public var coneOuterGain: Float = 0
    /// Gain. Default 1.
    public var gain: Float = 1
    /// Pitch. Default 1.
    public var pitch: Float = 1
    /// Reference distance. Default 1.
    public var referenceDistance: Float = 1
    /// Max distance. Default unbounded.
    public var maxDistance: Float = .greatestFiniteMagnitude
    /// Rolloff factor. Default 1.
    public var rolloff: Float = 1
    /// Whether the position is relative to the listener. Default false.
    public var relative: Bool = false
    /// Extra repeats: 0 plays once, N plays N+1 times, -1 loops until the end.
    public var loops: Int = 0
    /// When the source starts, in seconds. Default 0.
    public var start: Double = 0
    /// Keyframes that move the source.
    public var path: Path?
    /// The bus it plays through. Default "effects".
    public var bus = "effects"
    /// Its priority, 0...255, higher wins a real source. Default 128.
    public var priority = 128
    /// Never made virtual. Default false.
    public var pinned = false
    /// What it does while virtual. Default keepTime.
    public var whenVirtual = WhenVirtual.keepTime
    /// How much of a wall stands between it and the listener, 0...1. Default 0.
    public var occlusion: Float = 0
    /// How much is in the way, 0...1. Default 0.
    public var obstruction: Float = 0
    /// How much of it goes to effects (its bus's effect, reverb zones), 0...1. Default 1.
    public var sendLevel: Float = 1
    /// The group it was scattered from (an index in ``SceneDescription/groups``), if any.
    public var group: Int?

    /// Creates a source description.
    public init(sound: SoundDescription) { self.sound = sound }
}

/// A scene that cannot be read: the file, the JSON path of the problem, and what is wrong.
public struct SceneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scene file (or "scene" for one made in code).
    public var file: String
    /// Where in the JSON, e.g. `$.sources[1].position`.
    public var path: String
    /// What is wrong.
    public var problem: String

    /// Creates an error.
    public init(file: String, path: String, problem: String) {
        self.file = file
        self.path = path
        self.problem = problem
    }

    /// `file: path: problem`, one line.
    public var description: String { "\(file): \(path): \(problem)" }
}

extension SceneDescription {
    /// Reads a scene from a JSON file, its sound files from anywhere (see
    /// ``load(contentsOf:refusingFilesOutside:)``).
    ///
    /// - Throws: ``SceneError`` naming the file, the JSON path and the problem, for bad
    ///   JSON, unknown keys, wrong types, out-of-range values and missing sound files.
    public static func load(contentsOf url: URL) throws -> SceneDescription {
        try load(contentsOf: url, refusingFilesOutside: false)
    }

    /// Reads a scene from a JSON file; with `refusingFilesOutside`, a scene that names a sound
    /// file outside its folder (``filesOutsideFolder``) without saying `"allowOutside": true`
    /// is refused: a scene from elsewhere then reads no file of yours but its own.
    ///
    /// - Throws: ``SceneError`` as ``load(contentsOf:)`` does, and at the first place that
    ///   names a file outside the folder.
    public static func load(contentsOf url: URL, refusingFilesOutside: Bool) throws -> SceneDescription {
        let data: Data
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SceneError(file: url.path, path: "$", problem: "cannot read the scene: no such file")
        }
        guard !isDirectory.boolValue else { throw SceneError(file: url.path, path: "$", problem: "cannot read the scene: it is a directory") }
        // Read as a sound file is: a regular file only (a FIFO held the loader for ever).
        do { data = try SoundFile.contents(of: url, operation: "SceneDescription.load(contentsOf:)") } catch let error as SoundStageError {
            throw SceneError(file: url.path, path: "$", problem: "cannot read the scene: \(error.reason)")
        }
        var scene = try parse(data, file: url.path)
        scene.baseURL = url.deletingLastPathComponent()
        scene.fileURL = url
        // Every sound file named, checked once, the error at the first place that names it.
        for case (.file(let path), let place) in scene.soundPlaces {
            let resolved = scene.resolve(path)
            if !FileManager.default.fileExists(atPath: resolved.path) {
                throw SceneError(file: url.path, path: place, problem: "sound file not found: \(resolved.path)")
            }
        }
        if refusingFilesOutside, !scene.allowsFilesOutside, let first = scene.filesOutsideFolder.first { throw first }
        return scene
    }

    /// Each sound the scene plays, once, with the JSON path of the first place that names it
    /// (where an error about it points).
    var soundPlaces: [(sound: SoundDescription, place: String)] {
        let named = sources.enumerated().map { i, source in
            (source.sound, source.group.map { "$.groups[\($0)].source.sound" } ?? "$.sources[\(i)].sound")
        } + musicSoundPlaces
        var seen: Set<SoundDescription> = []
        return named.filter { seen.insert($0.0).inserted }
    }

    /// The file a scene error names: the scene file, or "scene" for one made in code.
    var errorFile: String { fileURL?.path ?? "scene" }

    /// The URL of a sound file named in the scene.
    public func resolve(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return (baseURL ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(path)
    }
}
