import Foundation
import SoundStageCore
import SoundStageEngine

/// A scene's music: `"music"` in JSON (see docs/scene-format.md): tracks (each a gapless
/// ``Playlist``), crossfades between them, and stingers on their beats, so a designer can
/// render a transition and hear it.
public struct MusicDescription: Sendable, Equatable {
    /// The tracks, by unique name.
    public var tracks: [TrackDescription] = []
    /// Crossfades from one track to another, in the order given.
    public var transitions: [TransitionDescription] = []
    /// Sounds played on a beat or bar of a track.
    public var stingers: [StingerDescription] = []

    /// No music.
    public init() {}
}

/// A track: its items played back to back, gapless.
public struct TrackDescription: Sendable, Equatable {
    /// Its name, for transitions and stingers.
    public var name: String
    /// The sounds, in order (at least one).
    public var items: [SoundDescription]
    /// What plays after an item ends. Default `.off`.
    public var repeatMode = Playlist.RepeatMode.off
    /// Its tempo, for transitions and stingers on its beats and bars.
    public var tempo: MusicalTempo?
    /// Its volume, 0...1. Default 1.
    public var volume: Float = 1
    /// The bus it plays through. Default "music".
    public var bus = "music"
    /// When it starts, in seconds; nil: only when a transition brings it in.
    public var start: Double?

    /// A track of `items` named `name`.
    public init(name: String, items: [SoundDescription]) {
        self.name = name
        self.items = items
    }
}

/// A crossfade from one track to another (``Player/crossfade(to:duration:curve:on:)``).
public struct TransitionDescription: Sendable, Equatable {
    /// When it is asked for, in seconds.
    public var at: Double
    /// The track playing.
    public var from: String
    /// The track coming in.
    public var to: String
    /// The crossfade's length in seconds. Default 2.
    public var duration: Double = 2
    /// Its curve. Default equal power.
    public var curve = FadeCurve.equalPower
    /// Whether it waits for the next beat or bar of `from`; nil: it begins at ``at``.
    public var on: MusicalUnit?

    /// A transition from `from` to `to` at `at` seconds.
    public init(at: Double, from: String, to: String) {
        self.at = at
        self.from = from
        self.to = to
    }
}

/// A sound played on a beat or bar of a track (``Player/play(on:of:)``).
public struct StingerDescription: Sendable, Equatable {
    /// When it is asked for, in seconds.
    public var at: Double
    /// What it plays.
    public var sound: SoundDescription
    /// The track whose beat or bar it waits for.
    public var track: String
    /// Beat or bar. Default beat.
    public var on = MusicalUnit.beat
    /// Its volume, 0...1. Default 1.
    public var volume: Float = 1

    /// `sound` on the next beat of `track` after `at` seconds.
    public init(at: Double, sound: SoundDescription, track: String) {
        self.at = at
        self.sound = sound
        self.track = track
    }
}

extension SceneDescription {
    /// Every sound of the scene's music: the tracks' items and the stingers.
    var musicSounds: [SoundDescription] { musicSoundPlaces.map(\.0) }

    /// The same, each with its JSON path.
    var musicSoundPlaces: [(SoundDescription, String)] {
        music.tracks.enumerated().flatMap { t, track in
            track.items.enumerated().map { i, item in (item, "$.music.tracks[\(t)].items[\(i)]") }
        } + music.stingers.enumerated().map { ($1.sound, "$.music.stingers[\($0)].sound") }
    }

    /// Reads `"music"`; `known` are the scene's buses.
    static func parseMusic(_ value: JSONValue, known: Set<String>, into scene: inout SceneDescription, _ r: JSONReader) throws {
        let o = try r.object(value, "$.music", keys: ["tracks", "transitions", "stingers"])
        var music = MusicDescription()
        for (i, item) in try r.array(o["tracks"], "$.music.tracks").enumerated() {
            let track = try parseTrack(item, "$.music.tracks[\(i)]", known: known, r)
            guard !music.tracks.contains(where: { $0.name == track.name }) else {
                throw r.error("$.music.tracks[\(i)].name", "track names must be unique, \"\(track.name)\" is taken")
            }
            music.tracks.append(track)
        }
        let names = Set(music.tracks.map(\.name))
        func track(_ o: [String: JSONValue], _ key: String, _ path: String) throws -> String {
            let name = try r.string(try r.required(o, key, path), "\(path).\(key)")
            guard names.contains(name) else { throw r.error("\(path).\(key)", "no track \"\(name)\" (\(names.sorted().joined(separator: ", ")))") }
            return name
        }
        for (i, item) in try r.array(o["transitions"], "$.music.transitions").enumerated() {
            let p = "$.music.transitions[\(i)]"
            let t = try r.object(item, p, keys: ["at", "from", "to", "duration", "curve", "on"])
            var transition = TransitionDescription(at: try time(try r.required(t, "at", p), "\(p).at", r), from: try track(t, "from", p), to: try track(t, "to", p))
            guard transition.from != transition.to else { throw r.error("\(p).to", "a track cannot crossfade to itself") }
            if let v = t["duration"] {
                transition.duration = try r.number(v, "\(p).duration")
                guard (0...60).contains(transition.duration) else { throw r.error("\(p).duration", "must be in 0...60 seconds, got \(transition.duration)") }
            }
            if let v = t["curve"] {
                let name = try r.string(v, "\(p).curve")
                switch name {
                case "equalPower": transition.curve = .equalPower
                case "linear": transition.curve = .linear
                default: throw r.error("\(p).curve", "must be \"equalPower\" or \"linear\", got \"\(name)\"")
                }
            }
            if let v = t["on"] { transition.on = try unit(v, "\(p).on", r) }
            if transition.on != nil, music.tracks.first(where: { $0.name == transition.from })?.tempo == nil {
                throw r.error("\(p).on", "track \"\(transition.from)\" has no tempo, so it has no beats or bars")
            }
            music.transitions.append(transition)
        }
        for (i, item) in try r.array(o["stingers"], "$.music.stingers").enumerated() {
            let p = "$.music.stingers[\(i)]"
            let s = try r.object(item, p, keys: ["at", "sound", "track", "on", "volume"])
            var stinger = StingerDescription(at: try time(try r.required(s, "at", p), "\(p).at", r),
                                             sound: try parseSound(try r.required(s, "sound", p), "\(p).sound", r), track: try track(s, "track", p))
            if let v = s["on"] { stinger.on = try unit(v, "\(p).on", r) }
            if let v = s["volume"] { stinger.volume = try r.float(v, "\(p).volume", min: 0, max: 1) }
            guard music.tracks.first(where: { $0.name == stinger.track })?.tempo != nil else {
                throw r.error("\(p).track", "track \"\(stinger.track)\" has no tempo, so it has no beats or bars")
            }
            music.stingers.append(stinger)
        }
        try checkTimeline(music, r)
        scene.music = music
    }

    /// Follows which tracks play, in time order (starts before the cues of the same time):
    /// a beat or bar needs its track playing, and a transition's incoming track must not be
    /// playing already. (A track that ends on its own is only known when it renders.)
    private static func checkTimeline(_ music: MusicDescription, _ r: JSONReader) throws {
        enum Step { case start(String), transition(Int), stinger(Int) }
        var steps: [(at: Double, order: Int, step: Step)] = music.tracks.compactMap { t in t.start.map { ($0, 0, .start(t.name)) } }
        steps += music.transitions.indices.map { (music.transitions[$0].at, 1, .transition($0)) }
        steps += music.stingers.indices.map { (music.stingers[$0].at, 1, .stinger($0)) }
        var playing: Set<String> = []
        for (_, _, step) in steps.enumerated().sorted(by: { ($0.element.at, $0.element.order, $0.offset) < ($1.element.at, $1.element.order, $1.offset) }).map(\.element) {
            switch step {
            case .start(let name):
                playing.insert(name)
            case .transition(let i):
                let t = music.transitions[i], p = "$.music.transitions[\(i)]"
                if t.on != nil, !playing.contains(t.from) {
                    throw r.error("\(p).from", "track \"\(t.from)\" is not playing at \(t.at) s, so it has no next \(t.on!.rawValue)")
                }
                if playing.contains(t.to) { throw r.error("\(p).to", "track \"\(t.to)\" is playing already at \(t.at) s") }
                playing.remove(t.from)
                playing.insert(t.to)
            case .stinger(let i):
                let s = music.stingers[i]
                if !playing.contains(s.track) {
                    throw r.error("$.music.stingers[\(i)].track", "track \"\(s.track)\" is not playing at \(s.at) s, so it has no next \(s.on.rawValue)")
                }
            }
        }
    }

    private static func parseTrack(_ value: JSONValue, _ path: String, known: Set<String>, _ r: JSONReader) throws -> TrackDescription {
        let o = try r.object(value, path, keys: ["name", "items", "repeat", "tempo", "volume", "bus", "start"])
        let name = try r.string(try r.required(o, "name", path), "\(path).name")
        guard !name.isEmpty else { throw r.error("\(path).name", "the name is empty") }
        let list = try r.array(o["items"], "\(path).items")
        guard !list.isEmpty else { throw r.error("\(path).items", "a track needs at least one item") }
        var track = TrackDescription(name: name, items: try list.enumerated().map { try parseSound($1, "\(path).items[\($0)]", r) })
        if let v = o["repeat"] { track.repeatMode = try r.choice(v, "\(path).repeat", of: Playlist.RepeatMode.self) }
        if let v = o["tempo"] {
            let t = try r.object(v, "\(path).tempo", keys: ["bpm", "beatsPerBar", "firstBeat"])
            guard let bpm = t["bpm"] else { throw r.error("\(path).tempo", "\"bpm\" is required") }
            var tempo = MusicalTempo(beatsPerMinute: try r.number(bpm, "\(path).tempo.bpm"))
            if let x = t["beatsPerBar"] { tempo.beatsPerBar = try r.integer(x, "\(path).tempo.beatsPerBar") }
            if let x = t["firstBeat"] { tempo.firstBeat = try r.number(x, "\(path).tempo.firstBeat") }
            if let problem = tempo.problem { throw r.error("\(path).tempo", problem) }
            track.tempo = tempo
        }
        if let v = o["volume"] { track.volume = try r.float(v, "\(path).volume", min: 0, max: 1) }
        if let v = o["bus"] {
            track.bus = try r.string(v, "\(path).bus")
            guard known.contains(track.bus) else { throw r.error("\(path).bus", "no bus \"\(track.bus)\" (\(known.sorted().joined(separator: ", ")))") }
        }
        if let v = o["start"] { track.start = try time(v, "\(path).start", r) }
        return track
    }

    private static func time(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> Double {
        let seconds = try r.number(value, path)
        guard seconds >= 0, seconds <= 3_600 else { throw r.error(path, "must be in 0...3600 seconds, got \(seconds)") }
        return seconds
    }

    private static func unit(_ value: JSONValue, _ path: String, _ r: JSONReader) throws -> MusicalUnit {
        let name = try r.string(value, path)
        guard let unit = MusicalUnit(rawValue: name) else { throw r.error(path, "must be \"beat\" or \"bar\", got \"\(name)\"") }
        return unit
    }
}
