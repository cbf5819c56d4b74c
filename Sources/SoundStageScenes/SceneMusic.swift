import SoundStageCore
import SoundStageEngine

/// A scene's music as it renders: each track a ``Playlist`` on the scene's engine, started on
/// its frame, and the transitions and stingers asked for when the render reaches their time.
final class SceneMusic {
    enum Cue {
        /// A track's start (given before the other cues of its frame).
        case start(String)
        /// A transition and its index in the scene's list.
        case transition(TransitionDescription, Int)
        case stinger(StingerDescription, Int)
    }

    private let engine: AudioEngine
    private let tracks: [String: Playlist]
    /// Cues not yet given, by frame, in the order written within a frame.
    private var cues: [(frame: Int, cue: Cue)]
    private let sound: (SoundDescription) throws -> Sound
    /// Names the scene in errors.
    private let file: String

    /// Makes the tracks and schedules their starts; `sound` gives the sound of a description.
    init(_ music: MusicDescription, sampleRate: Int, engine: AudioEngine, file: String, sound: @escaping (SoundDescription) throws -> Sound) throws {
        self.engine = engine
        self.file = file
        self.sound = sound
        var tracks: [String: Playlist] = [:]
        for track in music.tracks {
            let playlist = try Playlist(engine: engine, items: try track.items.map(sound))
            playlist.repeatMode = track.repeatMode
            let player = playlist.player
            try player.setTempo(track.tempo)
            try player.setVolume(track.volume)
            if let bus = engine.bus(named: track.bus) { try player.setBus(bus) }
            tracks[track.name] = playlist
        }
        self.tracks = tracks
        let cues = music.tracks.compactMap { t in t.start.map { (Self.frame($0, sampleRate), Cue.start(t.name)) } }
            + music.transitions.enumerated().map { (Self.frame($1.at, sampleRate), Cue.transition($1, $0)) }
            + music.stingers.enumerated().map { (Self.frame($1.at, sampleRate), Cue.stinger($1, $0)) }
        self.cues = cues.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
    }

    /// The frame of the next cue, if one is left.
    var nextFrame: Int? { cues.first?.frame }

    /// Gives every cue due at or before `frame` (the render stops on each cue's frame, so
    /// each is given on it).
    ///
    /// - Throws: ``SceneError`` naming the cue's JSON path and what the engine refused (a
    ///   beat of a track that has finished, say).
    func give(through frame: Int) throws {
        while let next = cues.first, next.frame <= frame {
            cues.removeFirst()
            switch next.cue {
            case .start(let name):
                try tracks[name]?.play()
            case .transition(let t, let i):
                guard let from = tracks[t.from], let to = tracks[t.to] else { continue }
                try cue("$.music.transitions[\(i)]") {
                    try from.player.crossfade(to: to.player, duration: t.duration, curve: t.curve, on: Self.point(t.on))
                }
            case .stinger(let s, let i):
                guard let track = tracks[s.track] else { continue }
                try cue("$.music.stingers[\(i)]") {
                    let player = engine.makePlayer(try sound(s.sound))
                    try player.setVolume(s.volume)
                    try player.play(on: Self.point(s.on), of: track.player)
                }
            }
        }
    }

    private func cue(_ path: String, _ body: () throws -> Void) throws {
        do { try body() } catch let error as SoundStageError {
            throw SceneError(file: file, path: path, problem: error.reason)
        }
    }

    private static func point(_ unit: MusicalUnit?) -> TransitionPoint {
        switch unit {
        case .beat: return .nextBeat
        case .bar: return .nextBar
        case nil: return .now
        }
    }

    static func frame(_ seconds: Double, _ rate: Int) -> Int { Int((seconds * Double(rate)).rounded()) }
}
