import Foundation
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// What a review of the music code found (in /work/review8), each kept as a test: repeats
/// counted as plays, crossfades back and failed, a step fade a tick early, the downmix's
/// fronts, events of short items and stops, music scenes that parsed but could not render.
@Suite("Playlist transitions: crossfades and back, stingers on beats, boundaries at other rates, seeks after repeats", .serialized)
struct PlaylistTransitionTests {
    static func mono(_ engine: AudioEngine, _ frames: Int, rate: Int = 48_000, label: String = "s.wav") throws -> Sound {
        var samples = [Float](repeating: 0, count: frames)
        samples[0] = 0.8; samples[frames - 1] = 0.8
        let wav = RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .mono), samples: samples).wavData(.float32)
        return try Sound(engine: engine, streamingData: wav, name: label)
    }

    /// A loaded 4 s sine to loop, the crossfade suite's.
    static func tone(_ engine: AudioEngine, _ frequency: Double) throws -> Sound { try CrossfadeTests.tone(engine, frequency) }

    /// A player looping a tone of `frequency` (the crossfade cases' tracks).
    static func loopingTone(_ engine: AudioEngine, _ frequency: Double) throws -> Player {
        let player = engine.makePlayer(try tone(engine, frequency))
        player.numberOfLoops = -1
        return player
    }

    static func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot() }

    static func sceneFiles() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let samples = (0..<48_000).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: samples).wavData(.pcm16).write(to: folder.file("a.wav"))
        return folder
    }

    static func renderScene(_ json: String, _ folder: TemporaryFolder) throws -> [Float] {
        let url = folder.file("scene.json")
        try Data(json.utf8).write(to: url)
        return try SceneRenderer(scene: SceneDescription.load(contentsOf: url)).render().channel(0)
    }

    @Test("a playlist's rear-only layout is refused with a typed error")
    func rearRefused() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        #expect(throws: SoundStageError.self) { try Playlist(engine: engine, items: [try Self.mono(engine, 480)], channels: .rear) }
    }

    @Test("music scenes that cannot play are refused when read, naming the JSON path")
    func sceneTimeline() throws {
        let folder = try Self.sceneFiles()
        func problem(_ music: String) throws -> SceneError {
            let url = folder.file("bad.json")
            try Data("{\"duration\": 2, \"sources\": [], \"music\": \(music)}".utf8).write(to: url)
            return try #require(throws: SceneError.self) { try SceneDescription.load(contentsOf: url) }
        }
        let notStarted = try problem("""
        {"tracks": [{"name": "a", "items": ["a.wav"], "tempo": {"bpm": 120}}, {"name": "b", "items": ["a.wav"]}],
         "transitions": [{"at": 0.5, "from": "a", "to": "b", "on": "bar"}]}
        """)
        #expect(notStarted.path == "$.music.transitions[0].from" && notStarted.problem.contains("not playing"))
        let toPlaying = try problem("""
        {"tracks": [{"name": "a", "items": ["a.wav"], "start": 0}, {"name": "b", "items": ["a.wav"], "start": 0}],
         "transitions": [{"at": 0.5, "from": "a", "to": "b"}]}
        """)
        #expect(toPlaying.path == "$.music.transitions[0].to" && toPlaying.problem.contains("playing already"))
        let stinger = try problem("""
        {"tracks": [{"name": "a", "items": ["a.wav"], "tempo": {"bpm": 120}, "start": 1}],
         "stingers": [{"at": 0.5, "sound": "a.wav", "track": "a"}]}
        """)
        #expect(stinger.path == "$.music.stingers[0].track")
    }

    @Test("a stinger on a beat of a track that ended is a scene error naming the stinger")
    func sceneStingerAfterEnd() throws {
        let folder = try Self.sceneFiles()
        let error = try #require(throws: SceneError.self) {
            try Self.renderScene("""
            {"duration": 3, "sources": [], "music": {"tracks": [
              {"name": "a", "items": ["a.wav"], "tempo": {"bpm": 120}, "start": 0}],
             "stingers": [{"at": 2, "sound": "a.wav", "track": "a"}]}}
            """, folder)
        }
        #expect(error.path == "$.music.stingers[0]" && error.problem.contains("not playing"))
    }

    @Test("5.1 -> stereo keeps the front channels at unity (ITU BS.775)")
    func downmixFront() {
        let m = ChannelMixer(from: .surround51, to: .stereo).matrix
        print("review: 5.1->stereo matrix:", m)
        #expect(m[0][0] == 1, "FL -> L weight \(m[0][0])")
        let q = ChannelMixer(from: .quad, to: .stereo).matrix
        print("review: quad->stereo matrix:", q)
        #expect(q[0][0] == 1)
    }

    @Test("an item shorter than a service tick still gets its events")
    func shortItemEvents() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: [try Self.mono(engine, 4_810), try Self.mono(engine, 200), try Self.mono(engine, 4_800)])
        let log = PlaylistLog()
        playlist.delegate = log
        try playlist.play()
        _ = try engine.render(frames: 24_000)
        print("review: events:", log.events)
        #expect(log.events.contains(.itemStarted(index: 1)))
    }

    @Test("crossfade A->B then B->A: A comes back audible")
    func crossfadeBack() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let a = try Self.loopingTone(engine, 1_000)
        let b = try Self.loopingTone(engine, 1_500)
        try a.play()
        _ = try engine.render(frames: 4_800)
        try a.crossfade(to: b, duration: 0.1)
        _ = try engine.render(frames: 9_600)
        print("review: after A->B: a.volume", a.volume, "a.isPlaying", a.isPlaying)
        try b.crossfade(to: a, duration: 0.1)
        let out = try engine.render(frames: 19_200).channel(0)
        print("review: after B->A: a.volume", a.volume, "rms of last 0.1 s", Self.rms(out[9_600...]))
        #expect(Self.rms(out[9_600...]) > 0.05)
    }

    @Test("crossfade of duration 0 at a later time: the outgoing track holds its level until the start")
    func crossfadeZero() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let a = try Self.loopingTone(engine, 1_000)
        let b = try Self.loopingTone(engine, 1_500)
        try a.play()
        _ = try engine.render(frames: 4_800)
        try a.crossfade(to: b, duration: 0, on: .atTime(0.5))   // 24000: 19200 frames on
        let out = try engine.render(frames: 24_000).channel(0)
        let before = 24_000 - 4_800
        let levels = stride(from: before - 960, to: before + 480, by: 240).map { Self.rms(out[$0..<($0 + 240)]) }
        print("review: rms per 5 ms around the cut (cut at index 4):", levels.map { String(format: "%.3f", $0) })
        #expect(levels[3] > 0.09, "the 5 ms before the cut: \(levels[3])")
    }

    @Test("crossfade to a player scheduled later: it starts at the crossfade, once")
    func crossfadeScheduled() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let a = try Self.loopingTone(engine, 1_000)
        let b = try Self.loopingTone(engine, 1_500)
        try a.play()
        try b.play(atFrame: 48_000)
        _ = try engine.render(frames: 4_800)
        try a.crossfade(to: b, duration: 0.1, on: .atTime(0.2))
        _ = try engine.render(frames: 4_800)
        print("review: at 0.2 s: b playing", b.isPlaying, "b.currentFrame", b.currentFrame)
        _ = try engine.render(frames: 9_600)
        print("review: at 0.3 s: b playing", b.isPlaying, "b.currentFrame", b.currentFrame)
        let f1 = b.currentFrame
        _ = try engine.render(frames: 48_000)
        print("review: at 1.3 s: b.currentFrame", b.currentFrame, "(expected", f1 + 48_000, ")")
        #expect(b.currentFrame == f1 + 48_000)
        #expect(f1 > 0)
    }

    @Test("stop then play: no itemStarted twice without an itemEnded between")
    func stopPlayEvents() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: [try Self.mono(engine, 48_000), try Self.mono(engine, 48_000)])
        let log = PlaylistLog()
        playlist.delegate = log
        try playlist.play()
        _ = try engine.render(frames: 4_800)
        playlist.stop()
        _ = try engine.render(frames: 480)
        try playlist.play()
        _ = try engine.render(frames: 4_800)
        try playlist.skipToNextItem()   // into item 1
        _ = try engine.render(frames: 4_800)
        try playlist.skipToNextItem()   // past the last: stops
        _ = try engine.render(frames: 4_800)
        print("review: events:", log.events)
        #expect(log.events == [.itemStarted(index: 0), .itemEnded(index: 0), .itemStarted(index: 0), .itemEnded(index: 0), .itemStarted(index: 1), .itemEnded(index: 1)])
    }

    @Test("a crossfade whose incoming player fails to start leaves its volume as it was")
    func crossfadeFailure() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let a = try Self.loopingTone(engine, 1_000)
        var bad = [Float](repeating: 0.1, count: 48_000); bad[0] = .nan
        let b = engine.makePlayer(try Sound(engine: engine, streamingData: EngineRig.wav(bad, channels: .mono), name: "bad.wav"))
        try b.setVolume(0.8)
        try a.play()
        _ = try engine.render(frames: 4_800)
        do { try a.crossfade(to: b, duration: 0.1) } catch { print("review: crossfade threw:", error) }
        print("review: b.volume after the failed crossfade:", b.volume, "a playing", a.isPlaying)
        #expect(b.volume == 0.8)
    }

    @Test("nextBoundary with rate 2 and a 44.1 kHz sound on a 48 kHz engine")
    func boundaryRate() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let samples = [Float](repeating: 0.1, count: 44_100 * 4)
        let p = engine.makePlayer(Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: 44_100, label: "t")))
        try p.setTempo(MusicalTempo(beatsPerMinute: 120))
        try p.setRate(2)
        try p.play()
        _ = try engine.render(frames: 14_400)   // 0.3 s engine = 0.6 s sound
        let b = try p.nextBoundary(.beat)
        print("review: currentFrame", p.currentFrame, "boundary", b, "expected (0.5, 24000)")
        #expect(abs(b.frame - 24_000) <= 1, "OpenAL steps pitch in 1/16384ths: a frame off at most")
        // streamed playlist at 44.1 kHz, rate 2
        let wav = RenderedAudio(format: RenderFormat(sampleRate: 44_100, channels: .mono), samples: samples).wavData(.float32)
        let pl = try Playlist(engine: engine, items: [try Sound(engine: engine, streamingData: wav, name: "x.wav")])
        try pl.player.setTempo(MusicalTempo(beatsPerMinute: 120))
        try pl.player.setRate(2)
        try pl.play()
        let t0 = engine.currentFrame
        _ = try engine.render(frames: 14_400)
        let c = try pl.player.nextBoundary(.beat)
        print("review: playlist currentFrame", pl.player.currentFrame, "boundary", c, "expected frame", t0 + 24_000)
        #expect(abs(c.frame - (t0 + 24_000)) <= 1)
    }

    @Test("a seek after repeat-one queued repeats of item 0: the playlist must not play again from the start")
    func seekCountsRepeatsAsLoops() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: [try Self.mono(engine, 4_800), try Self.mono(engine, 9_600)])
        let log = PlaylistLog()
        playlist.delegate = log
        playlist.repeatMode = .one
        try playlist.play()
        _ = try engine.render(frames: 12_000)
        playlist.repeatMode = .off
        try playlist.seek(toItem: 1)
        let out = try engine.render(frames: 96_000).channel(0)
        let lastSound = out.lastIndex { abs($0) > 0.2 } ?? -1
        print("review: last click at", lastSound, "(expected 9599); playing", playlist.isPlaying, "events", log.events)
        #expect(lastSound < 9_700)
        #expect(!playlist.isPlaying)
    }

    @Test("scene: a stinger at 0 s on the beat of a track starting at 0 s")
    func sceneStingerAtZero() throws {
        let folder = try Self.sceneFiles()
        do {
            let out = try Self.renderScene("""
            {"duration": 1, "sources": [], "music": {"tracks": [
              {"name": "a", "items": ["a.wav"], "tempo": {"bpm": 120}, "start": 0}],
             "stingers": [{"at": 0, "sound": "a.wav", "track": "a", "on": "beat"}]}}
            """, folder)
            print("review: rendered", out.count)
        } catch { print("review: render threw:", error); Issue.record("render threw \(error)") }
    }

    @Test("scene: calm -> battle -> calm brings calm back")
    func scenePingPong() throws {
        let folder = try Self.sceneFiles()
        let out = try Self.renderScene("""
        {"duration": 3, "sources": [], "music": {"tracks": [
          {"name": "calm", "items": ["a.wav"], "repeat": "all", "start": 0},
          {"name": "battle", "items": ["a.wav"], "repeat": "all"}],
         "transitions": [{"at": 0.5, "from": "calm", "to": "battle", "duration": 0.2},
                         {"at": 1.5, "from": "battle", "to": "calm", "duration": 0.2}]}}
        """, folder)
        let tail = Self.rms(out[(2 * 48_000)..<(3 * 48_000)])
        print("review: rms in the last second:", tail, "in the first 0.4 s:", Self.rms(out[0..<19_200]))
        #expect(tail > 0.05)
    }
}
