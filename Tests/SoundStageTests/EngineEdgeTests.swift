import Foundation
import Testing
import SoundStage

/// The edges of the player's life: ends not yet serviced, very short loops, changed settings,
/// interruptions, a released engine, and delegates that call back in.
@Suite("Engine: edges")
struct EngineEdgeTests {
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

    @Test("a 50-frame sound looped 20 times plays 21 times back to back, loaded or streamed", arguments: [false, true])
    func shortLoops(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 50, at: [0], streamed: streamed))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = 20
        try player.play()
        let out = onsets(try engine.render(frames: 4_800).channel(0), gap: 8)
        #expect(out == (0...20).map { $0 * 50 }, "onsets \(out)")
        #expect(log.events == ["finished(true)"])
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

    @Test("numberOfLoops changed while playing, or after prepareToPlay, acts as documented")
    func changedLoops() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [100])
        // Changed while playing: the running play keeps its count, even through a seek.
        let player = engine.makePlayer(sound)
        player.numberOfLoops = 2
        try player.play()
        player.numberOfLoops = -1
        _ = try engine.render(frames: 2_400)
        try player.seek(to: 0.05)
        let out = onsets(try engine.render(frames: 24_000).channel(0))
        #expect(out == [4_900 - 2_400, 9_700 - 2_400], "\(out)")
        #expect(!player.isPlaying)
        // Changed after prepareToPlay: the next start uses the new count.
        let prepared = engine.makePlayer(sound)
        try prepared.prepareToPlay()
        prepared.numberOfLoops = 3
        try prepared.play()
        #expect(onsets(try engine.render(frames: 24_000).channel(0)).count == 4)
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

    @Test("during an interruption play() throws, a scheduled start waits, and a player the game paused stays paused")
    func interruptionRules() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        let playing = engine.makePlayer(try EngineRig.sound(engine, Tone.samples(frequency: 500, sampleRate: 48_000), streamed: false))
        playing.numberOfLoops = -1
        try playing.play()
        let scheduled = engine.makePlayer(sound)
        try scheduled.play(atTime: engine.currentTime + 0.05)
        engine.beginInterruption()
        expectError(.invalidState, mentioning: ["interrupted"]) { try engine.makePlayer(sound).play() }
        #expect(Measure.dB(try engine.render(frames: 9_600), channel: 0) == -160, "silence while interrupted, the scheduled start included")
        playing.pause()   // the game pauses it during the interruption
        engine.endInterruption(resume: true)
        #expect(!playing.isPlaying && scheduled.isPlaying)
        #expect(onsets(try engine.render(frames: 4_800).channel(0)) == [0], "the held start plays when the interruption ends")
    }

    @Test("engine.play([p]) after p.play(atTime:) cancels the scheduled start")
    func playCancelsSchedule() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 2_400, at: [0]))
        try player.play(atTime: 0.05)
        try engine.play([player])
        player.pause()
        #expect(onsets(try engine.render(frames: 9_600).channel(0)).isEmpty)
    }

    @Test("a released engine stops its players and goes away, even with a sound looping forever")
    func releasedEngine() throws {
        weak var weakEngine: AudioEngine?
        var player: Player?
        do {
            let engine = try EngineRig.offline()
            weakEngine = engine
            player = engine.makePlayer(try EngineRig.clicks(engine, frames: 480, at: [0]))
            player?.numberOfLoops = -1
            try player?.play()
            _ = try engine.render(frames: 4_800)
        }
        #expect(weakEngine == nil)
        #expect(player?.isPlaying == false && player?.engine == nil)
        expectError(.invalidState, mentioning: ["engine was released"]) { try player?.play() }
    }

    @Test("a delegate that calls back into the engine neither deadlocks nor reorders events")
    func reentrantDelegate() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 500, at: [0])
        let first = engine.makePlayer(sound), second = engine.makePlayer(sound)
        let log = ReentrantLog(engine: engine)
        first.delegate = log
        second.delegate = log
        try engine.play([first, second])
        _ = try engine.render(frames: 2_400)
        #expect(log.events == ["finished", "finished"] && log.innerUpdates == 2)
    }
}

/// Calls engine.update() from inside its callback.
final class ReentrantLog: PlayerDelegate, @unchecked Sendable {
    let engine: AudioEngine
    private let lock = NSLock()
    private var items: [String] = []
    private var inner = 0
    init(engine: AudioEngine) { self.engine = engine }
    var events: [String] { lock.withLock { items } }
    var innerUpdates: Int { lock.withLock { inner } }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) {
        lock.withLock { items.append("finished"); inner += 1 }
        engine.update()
    }
}

@Suite("Engine: player properties heard in the render")
struct PlayerPropertyTests {
    @Test("rate 2 plays a 1 kHz tone at 2 kHz; rate 0.5 at 500 Hz")
    func rate() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.sound(engine, Tone.samples(frequency: 1_000, sampleRate: 48_000), streamed: false)
        for (rate, expected) in [(Float(2), 2_000.0), (0.5, 500.0)] {
            let player = engine.makePlayer(sound)
            player.rate = rate
            player.numberOfLoops = -1
            try player.play()
            _ = try engine.render(frames: 2_400)
            let heard = Measure.peakFrequency(try engine.render(frames: 16_384).channel(0), sampleRate: 48_000)
            #expect(abs(heard - expected) / expected < 0.005, "rate \(rate): \(heard) Hz")
            player.stop()
        }
    }

    @Test("a stereo sound panned right is louder on the right; centred it is balanced")
    func stereoPan() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let mono = Tone.samples(frequency: 700, sampleRate: 48_000)
        let stereo = mono.flatMap { [$0, $0] }
        let wav = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo), samples: stereo).wavData(.float32)
        let sound = try Sound(engine: engine, data: wav, name: "stereo.wav")
        for (pan, check) in [(Float(1), { (l: Double, r: Double) in r - l >= 6 }), (0, { l, r in abs(l - r) <= 0.5 })] {
            let player = engine.makePlayer(sound)
            player.pan = pan
            player.numberOfLoops = -1
            try player.play()
            _ = try engine.render(frames: 2_400)
            let out = try engine.render(frames: 4_800)
            let l = Measure.dB(out, channel: 0), r = Measure.dB(out, channel: 1)
            #expect(check(l, r), "pan \(pan): left \(l) dB, right \(r) dB")
            player.stop()
        }
    }

    @Test("a positioned player at +x is heard on the right; tweenPosition carries it to the left")
    func positionAndTween() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sound(engine, Tone.samples(frequency: 700, sampleRate: 48_000), streamed: false))
        player.numberOfLoops = -1
        player.position = [2, 0, 0]
        try player.play()
        _ = try engine.render(frames: 2_400)
        let right = try engine.render(frames: 4_800)
        #expect(Measure.dB(right, channel: 1) - Measure.dB(right, channel: 0) >= 20)
        try player.tweenPosition(to: [-2, 0, 0], duration: 0.5)
        _ = try engine.render(frames: 26_400)   // the tween ends at 24,000 frames from its start
        let left = try engine.render(frames: 4_800)
        #expect(Measure.dB(left, channel: 0) - Measure.dB(left, channel: 1) >= 20)
        #expect(player.position == [-2, 0, 0])
    }
}
