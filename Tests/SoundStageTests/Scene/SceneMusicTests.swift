import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Music in scenes: tracks as gapless playlists, transitions on bars and stingers on beats,
/// rendered offline and found to the frame.
@Suite("Scene music: tracks, transitions, stingers")
struct SceneMusicTests {
    static let rate = 48_000

    /// A folder with `a.wav` (1 s), `b.wav` (0.5 s at 44.1 kHz) and `hit.wav` (10 ms),
    /// each mono with a click on its first and last frame.
    static func files() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, frames, rate) in [("a.wav", 48_000, 48_000), ("b.wav", 22_050, 44_100), ("hit.wav", 480, 48_000)] {
            var samples = [Float](repeating: 0, count: frames)
            samples[0] = 0.8
            samples[frames - 1] = 0.8
            try RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .mono), samples: samples).wavData(.pcm16)
                .write(to: folder.file(name))
        }
        return folder
    }

    static func render(_ json: String, in folder: TemporaryFolder) throws -> [Float] {
        let url = folder.file("scene.json")
        try Data(json.utf8).write(to: url)
        return try SceneRenderer(scene: SceneDescription.load(contentsOf: url)).render().channel(0)
    }

    static func clicks(_ samples: [Float]) -> [Int] { samples.indices.filter { abs(samples[$0]) > 0.2 } }

    @Test("a track's items play gapless, converted; a transition set for the next bar starts on that bar's frame; a stinger lands on the beat")
    func render() throws {
        let folder = try Self.files()
        let left = try Self.render("""
        {"duration": 3, "sources": [],
         "music": {
           "tracks": [
             {"name": "calm", "items": ["a.wav", "b.wav"], "repeat": "all", "tempo": {"bpm": 120, "beatsPerBar": 3, "firstBeat": 0.01}, "start": 0},
             {"name": "battle", "items": ["hit.wav"], "repeat": "off"}
           ],
           "transitions": [{"at": 1.0, "from": "calm", "to": "battle", "duration": 0, "on": "bar"}],
           "stingers": [{"at": 0.3, "sound": "hit.wav", "track": "calm", "on": "beat"}]
         }}
        """, in: folder)
        let found = Self.clicks(left)
        let b = Int((22_050.0 * 48_000 / 44_100).rounded(.up))   // b.wav's frames at 48 kHz
        let bLast = 48_000 + Int((22_049.0 * 48_000 / 44_100).rounded())
        // calm, one 1.5 s bar long: a.wav from 0, b.wav from 48000 (right after a's last
        // frame), then a.wav again.
        #expect(b == 24_000)
        #expect(found.contains(0) && found.contains(47_999) && found.contains(48_000) && found.contains(bLast) && found.contains(48_000 + b),
                "calm's clicks: \(found.prefix(12))")
        // The stinger asked for at 0.3 s plays on the next beat: 0.51 s.
        let beat = Int((0.51 * Double(Self.rate)).rounded())
        #expect(found.contains(beat) && found.contains(beat + 479), "the stinger on the beat at \(beat): \(found.prefix(12))")
        // The transition asked for at 1.0 s waits for the next bar: 0.01 + 1.5 = 1.51 s.
        let bar = Int((1.51 * Double(Self.rate)).rounded())
        #expect(found.contains(bar) && found.contains(bar + 479), "battle starts on the bar at \(bar): \(found.filter { $0 > 45_000 }.prefix(12))")
        #expect(!found.contains { $0 > bar + 479 + 480 }, "calm stopped at the transition: \(found.filter { $0 > bar })")
    }

    @Test("music mistakes are named with their JSON path")
    func errors() throws {
        let folder = try Self.files()
        func problem(_ music: String) throws -> SceneError {
            let url = folder.file("bad.json")
            try Data("{\"duration\": 1, \"sources\": [], \"music\": \(music)}".utf8).write(to: url)
            return try #require(throws: SceneError.self) { try SceneDescription.load(contentsOf: url) }
        }
        let track = "{\"name\": \"a\", \"items\": [\"a.wav\"]}"
        #expect(try problem("{\"tracks\": [{\"name\": \"a\", \"items\": []}]}").path == "$.music.tracks[0].items")
        #expect(try problem("{\"tracks\": [{\"name\": \"a\", \"items\": [\"a.wav\"], \"repeat\": \"twice\"}]}").path == "$.music.tracks[0].repeat")
        #expect(try problem("{\"tracks\": [\(track), \(track)]}").path == "$.music.tracks[1].name")
        #expect(try problem("{\"tracks\": [\(track)], \"transitions\": [{\"at\": 0, \"from\": \"a\", \"to\": \"b\"}]}").path == "$.music.transitions[0].to")
        let noTempo = try problem("{\"tracks\": [\(track), {\"name\": \"b\", \"items\": [\"a.wav\"]}], \"transitions\": [{\"at\": 0, \"from\": \"a\", \"to\": \"b\", \"on\": \"bar\"}]}")
        #expect(noTempo.path == "$.music.transitions[0].on" && noTempo.problem.contains("no tempo"))
        #expect(try problem("{\"tracks\": [{\"name\": \"a\", \"items\": [\"a.wav\"], \"tempo\": {\"bpm\": 0}}]}").path == "$.music.tracks[0].tempo")
        #expect(try problem("{\"tracks\": [{\"name\": \"a\", \"items\": [\"missing.wav\"]}]}").problem.contains("not found"))
        #expect(try problem("{\"songs\": []}").path == "$.music.songs")
    }

    @Test("the example music scene renders: calm plays, then battle from the bar after 5 s")
    func example() throws {
        let url = Assets.scenes.appendingPathComponent("music-transition.json")
        let scene = try SceneDescription.load(contentsOf: url)
        let audio = try SceneRenderer(scene: scene).render()
        let left = audio.channel(0)
        let before = Array(left[(3 * Self.rate)..<(4 * Self.rate)]), after = Array(left[(9 * Self.rate)..<(10 * Self.rate)])
        #expect(toneDB(before, frequency: 220, sampleRate: Self.rate) > -20, "calm's 220 Hz before the transition")
        #expect(toneDB(after, frequency: 220, sampleRate: Self.rate) < -60, "calm gone after it")
        #expect(toneDB(after, frequency: 110, sampleRate: Self.rate) > -30, "battle's 110 Hz after it")
    }
}
