import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Players of offline engines (EngineRig): playback, events and decode errors here; looping,
/// levels and properties in PlayerTests+*.swift.
@Suite("Player: playback, events, looping, levels, properties (offline renders)")
struct PlayerTests {
    @Test("events also arrive on an AsyncStream, on the thread that runs update()")
    func stream() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 2_400, at: [10]))
        let events = player.events()
        let log = EventLog()
        player.delegate = log
        try player.play()
        _ = try engine.render(frames: 4_800)
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.description == "finished(successfully: true)")
        #expect(log.threads.count == 1, "delivered once, serially, by the render call: \(log.threads)")
    }

    @Test("seeking lands on the exact frame, before, during and paused playback; currentTime follows the render", arguments: [false, true])
    func seek(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 48_000, at: [24_000], streamed: streamed)
        let player = engine.makePlayer(sound)
        player.currentTime = 0.25
        try player.play()
        let first = onsets(try engine.render(frames: 24_000).channel(0))
        #expect(first == [12_000], "onset \(first)")
        player.stop()
        player.currentTime = 0
        try player.play()
        _ = try engine.render(frames: 4_800)
        #expect(abs(player.currentTime - 0.1) <= 0.001, "currentTime \(player.currentTime)")
        try player.seek(to: 0.4)
        let second = onsets(try engine.render(frames: 9_600).channel(0))
        #expect(second == [4_800], "onset \(second)")
        // Paused, then moved, then resumed: currentTime reads the new place at once.
        player.pause()
        try player.seek(to: 0.3)
        #expect(player.currentTime == 0.3)
        try player.play()
        let third = onsets(try engine.render(frames: 14_400).channel(0))
        #expect(third == [9_600], "onset \(third)")
        expectError(.invalidArgument, mentioning: ["0...1.0"]) { try player.seek(to: 2) }
    }

    @Test("currentTime is the exact frame offline, and stop() then play() goes on without repeating a frame", arguments: [false, true])
    func exactPlayhead(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 48_000, at: [1_777, 3_000], streamed: streamed))
        try player.play()
        var rendered = 0
        for frames in [480, 960, 1_337] {
            _ = try engine.render(frames: frames)
            rendered += frames
            #expect(player.currentTime == Double(rendered) / 48_000)
        }
        player.stop()
        #expect(player.currentTime == Double(rendered) / 48_000)
        try player.play()
        let out = onsets(try engine.render(frames: 4_800).channel(0))
        #expect(out == [3_000 - rendered], "onsets \(out) after resuming at \(rendered)")
    }

    @Test("play() just after the end, before a tick noticed it: finished is reported, then it plays again")
    func retriggerAtTheEnd() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 1_000, at: [10]))
        let log = EventLog()
        player.delegate = log
        try player.play()
        _ = try engine.render(frames: 1_000)   // the last tick was at 960: the end is not serviced yet
        try player.play()
        let out = onsets(try engine.render(frames: 2_000).channel(0))
        #expect(out == [10], "the second play: \(out)")
        #expect(log.events == ["finished(true)", "finished(true)"], "\(log.events)")
    }

    @Test("pause() just after the end reports finished instead of pausing a sound that is over")
    func pauseAtTheEnd() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 1_000, at: [10]))
        let log = EventLog()
        player.delegate = log
        try player.play()
        _ = try engine.render(frames: 1_000)
        player.pause()
        _ = try engine.render(frames: 480)
        #expect(log.events == ["finished(true)"])
        #expect(!player.isPlaying && player.currentTime == 0)
    }

    @Test("a start scheduled between two frames lands on the nearest one, and a cancelled one never plays")
    func scheduledBetweenFrames() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 2_400, at: [0])
        _ = try engine.render(frames: 1_000)
        let player = engine.makePlayer(sound), cancelled = engine.makePlayer(sound)
        try player.play(atTime: (1_000 + 1_234.3) / 48_000)   // rounds down to frame 2,234
        try cancelled.play(atTime: (1_000 + 3_000.6) / 48_000)
        cancelled.stop()
        let out = onsets(try engine.render(frames: 9_600).channel(0))
        #expect(out == [1_234], "onsets \(out)")
    }

    @Test("a file damaged part-way: what decoded plays, then decodeError and finished(false), once each")
    func decodeError() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        var samples = Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate, seconds: 1)
        samples[30_000] = .nan   // a float WAV with a NaN: the decoder refuses the chunk holding it
        let data = EngineRig.wav(samples, channels: .mono)
        // Loaded whole, the damage is found at once and named.
        expectError(.decodingFailed, mentioning: ["damaged.wav", "NaN"]) { _ = try Sound(engine: engine, data: data, name: "damaged.wav") }
        // Streamed, it is found when playback gets there.
        let sound = try Sound(engine: engine, streamingData: data, name: "damaged.wav")
        let player = engine.makePlayer(sound)
        let log = StreamLog()
        player.delegate = log
        let events = player.events()
        try player.play()
        let out = try engine.render(frames: 48_000).channel(0)
        // The chunks before the damaged one (frames 0..<28,800) were played, as the whole
        // sound loaded plays them, and nothing after.
        var clean = samples
        clean[30_000] = 0
        let reference = engine.makePlayer(try Sound(engine: engine, data: EngineRig.wav(clean, channels: .mono), name: "clean.wav"))
        try reference.play()
        let expected = try engine.render(frames: 48_000).channel(0)
        #expect(Array(out[0..<28_800]) == Array(expected[0..<28_800]))
        #expect(Measure.dB(Array(out[0..<28_800])) > -20)
        #expect(Measure.dB(Array(out[28_800...])) == -160)
        #expect(log.events == ["decodeError", "finished(false)"], "\(log.events)")
        #expect(log.errors.first?.contains("damaged.wav") == true, "\(log.errors)")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.description.hasPrefix("decodeError") == true)
        #expect(await iterator.next()?.description == "finished(successfully: false)")
    }

    @Test("a stream damaged soon after the start reports decodeError then finished(false); a seek into the damage throws")
    func earlyDamage() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        var samples = Tone.samples(frequency: 1_000, sampleRate: 48_000, seconds: 1)
        samples[10_000] = .nan
        let data = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: samples).wavData(.float32)
        let player = engine.makePlayer(try Sound(engine: engine, streamingData: data, name: "early.wav"))
        let log = StreamLog()
        player.delegate = log
        try player.play()   // the first two chunks decode; the third holds the NaN
        let out = try engine.render(frames: 24_000).channel(0)
        #expect(log.events == ["decodeError", "finished(false)"], "\(log.events)")
        #expect(Measure.dB(Array(out[..<9_600])) > -20 && Measure.dB(Array(out[9_600...])) == -160)
        let seeking = engine.makePlayer(try Sound(engine: engine, streamingData: data, name: "early.wav"))
        try seeking.play()
        _ = try engine.render(frames: 480)
        expectError(.decodingFailed, mentioning: ["early.wav", "NaN"]) { try seeking.seek(to: 0.2) }
        #expect(!seeking.isPlaying)
    }
}

/// Collects decode errors and finished events from the delegate.
private final class StreamLog: PlayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var messages: [String] = []
    var events: [String] { lock.withLock { items } }
    var errors: [String] { lock.withLock { messages } }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) { lock.withLock { items.append("finished(\(successfully))") } }
    func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) {
        lock.withLock { items.append("decodeError"); messages.append(error.description) }
    }
}
