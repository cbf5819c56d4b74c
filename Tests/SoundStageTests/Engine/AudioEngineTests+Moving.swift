import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// An engine moving to another device (``AudioEngine/switchOutput(to:)``), between loopback
/// devices so the renders can be compared sample by sample with an engine that did not move.
@Suite("AudioEngine: moving to another device carries every player, property and playhead")
struct AudioEngineMovingTests {

    @Test("a positioned tone moved mid-render: properties read back equal, the render continues the unmoved one's samples")
    func movedMidRender() throws {
        let moved = try EngineRig.offline(), still = try EngineRig.offline()
        defer { moved.shutdown(); still.shutdown() }
        let player = try MovedScene.scene(moved)
        _ = try MovedScene.scene(still)
        // Off a tick boundary, so the move lands inside a block.
        var a = try moved.render(frames: 12_345)
        var b = try still.render(frames: 12_345)
        let before = try MovedScene.properties(moved, player)
        let playhead = player.currentFrame
        let oldDevice = moved.device, oldSource = player.audioSource
        let change = try moved.switchOutput(to: .offline(MovedScene.format))
        #expect(moved.device !== oldDevice && player.audioSource !== oldSource)
        #expect(change.reason == .override && change.gapSeconds == nil)
        #expect(try MovedScene.properties(moved, player) == before)
        #expect(player.currentFrame == playhead)
        a.append(try moved.render(frames: 24_000))
        b.append(try still.render(frames: 24_000))
        for channel in 0..<2 {
            let after = Array(a.channel(channel)[12_345...]), reference = Array(b.channel(channel)[12_345...])
            // OpenAL Soft fades a new voice in over its first mix (no click); from the end of
            // that fade on, the same samples as the engine that never moved, to float rounding.
            let fade = (0..<after.count).last { abs(after[$0] - reference[$0]) > 1e-5 }.map { $0 + 1 } ?? 0
            #expect(fade <= 480, "channel \(channel): the move's fade-in (to the end of the mix block, one tick at most) lasts \(fade) frames")
            let snr = Measure.snrDB(Array(after[fade...]), against: Array(reference[fade...]), count: after.count - fade)
            #expect(snr > 90, "channel \(channel): \(snr) dB")
        }
        let left = Measure.dB(Array(a.channel(0)[12_345...])), right = Measure.dB(Array(a.channel(1)[12_345...]))
        #expect(right - left > 3, "the source on the right stays on the right: L \(left) R \(right) dB")
        let frequency = Measure.peakFrequency(Array(a.channel(1)[12_345...]), sampleRate: EngineRig.rate)
        #expect(abs(frequency - 440) < 2, "\(frequency) Hz")
    }

    @Test("plays left, streams and scheduled starts carry over: the onsets land where they would have")
    func playsAndSchedules() throws {
        for streamed in [false, true] {
            let moved = try EngineRig.offline(), still = try EngineRig.offline()
            defer { moved.shutdown(); still.shutdown() }
            func start(_ engine: AudioEngine) throws -> (Player, Player, Player) {
                let clicks = try EngineRig.clicks(engine, frames: 4_800, at: [100], streamed: streamed)
                let thrice = engine.makePlayer(clicks)
                thrice.numberOfLoops = 2
                thrice.pan = -1
                try thrice.play()
                let later = engine.makePlayer(clicks)
                later.pan = 1
                try later.play(atFrame: 9_000)
                let paused = engine.makePlayer(clicks)
                try paused.play()
                return (thrice, later, paused)
            }
            let (_, _, pausedMoved) = try start(moved)
            let (_, _, pausedStill) = try start(still)
            var a = try moved.render(frames: 2_000), b = try still.render(frames: 2_000)
            pausedMoved.pause()
            pausedStill.pause()
            a.append(try moved.render(frames: 5_123))
            b.append(try still.render(frames: 5_123))
            try moved.switchOutput(to: .offline(MovedScene.format))
            #expect(pausedMoved.currentFrame == pausedStill.currentFrame)
            a.append(try moved.render(frames: 10_000))
            b.append(try still.render(frames: 10_000))
            try pausedMoved.play()
            try pausedStill.play()
            a.append(try moved.render(frames: 4_800))
            b.append(try still.render(frames: 4_800))
            for channel in 0..<2 {
                let got = onsets(a.channel(channel), threshold: 0.3), want = onsets(b.channel(channel), threshold: 0.3)
                #expect(got == want, "streamed \(streamed), channel \(channel): \(got), want \(want)")
                #expect(got.count >= 2, "streamed \(streamed), channel \(channel): \(got)")
            }
        }
    }

    @Test("a fade and a pan sweep in flight carry on after the move as if nothing happened")
    func tweensInFlight() throws {
        let moved = try EngineRig.offline(), still = try EngineRig.offline()
        defer { moved.shutdown(); still.shutdown() }
        func start(_ engine: AudioEngine) throws {
            let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
            try player.play()
            try player.fade(to: 0.1, duration: 0.5)
            try player.tweenPan(to: -1, duration: 0.5)
        }
        try start(moved)
        try start(still)
        var a = try moved.render(frames: 9_600), b = try still.render(frames: 9_600)
        try moved.switchOutput(to: .offline(MovedScene.format))
        a.append(try moved.render(frames: 24_000))
        b.append(try still.render(frames: 24_000))
        // After the move's fade-in (one tick), the same samples, the gain and pan still moving.
        for channel in 0..<2 {
            let after = Array(a.channel(channel)[(9_600 + 480)...]), reference = Array(b.channel(channel)[(9_600 + 480)...])
            let snr = Measure.snrDB(after, against: reference, count: reference.count)
            #expect(snr > 60, "channel \(channel): \(snr) dB")
        }
        let early = Measure.dB(Array(a.channel(1)[10_080..<12_000])), late = Measure.dB(Array(a.channel(1)[30_000..<33_600]))
        #expect(early - late > 10, "the right channel fades as the sound pans left: \(early) -> \(late) dB")
    }

    @Test("a prepared player plays after a move; a sound that just ended does not start again")
    func preparedAndEnded() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let prepared = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 1))
        try prepared.prepareToPlay()
        try engine.switchOutput(to: .offline(MovedScene.format))
        try prepared.play()
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) > -20, "the prepared player is heard")
        prepared.stop()
        // A 1,000-frame sound ends inside the render's last partial tick, unreported.
        let short = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 1_000.0 / 48_000))
        let log = EventLog()
        short.delegate = log
        try short.play()
        _ = try engine.render(frames: 1_200)
        try engine.switchOutput(to: .offline(MovedScene.format))
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) == -160, "the ended sound stays ended")
        #expect(log.events == ["finished(true)"])
        #expect(short.audioSource?.context === engine.context, "its source moved too, so the old device can close")
    }

    @Test("the old device goes once nothing plays there; the clock keeps its time across a change of rate")
    func oldDeviceAndClock() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let clicks = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        let now = engine.makePlayer(clicks), later = engine.makePlayer(clicks)
        try now.play()
        try later.play(atTime: 2)
        _ = try engine.render(frames: 48_000)
        weak let oldDevice = engine.device
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)))
        #expect(abs(engine.currentTime - 1) < 1e-4, "\(engine.currentTime) s")
        #expect(oldDevice == nil, "the old device was closed: the sounds' buffers moved with the engine")
        let out = try engine.render(frames: 88_200)
        #expect(onsets(out.channel(0), threshold: 0.3) == [44_100], "the start scheduled for 2 s lands 1 s after the move")
    }

    @Test("sounds loaded for the engine and not playing move with it: the old device and its context go at once, and the sounds play on the new one")
    func idleSoundsMove() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = RenderedAudio(format: RenderFormat(sampleRate: EngineRig.rate, channels: .mono),
                                 samples: Tone.samples(frequency: 440, sampleRate: EngineRig.rate, seconds: 0.5, amplitude: 0.5))
        let loaded = try Sound(engine: engine, data: tone.wavData(.float32), name: "tone.wav")
        let wave = try Sound(engine: engine, waveform: .sine, frequency: 660, duration: 0.5)
        _ = try engine.render(frames: 4_800)
        weak let oldDevice = engine.device
        weak let oldContext = engine.context
        try engine.switchOutput(to: .offline(MovedScene.format))
        // Before, a sound that was not playing kept its buffer, and so the old device and its
        // context (about 10 MB of OpenAL Soft's), until it next played.
        #expect(oldDevice == nil && oldContext == nil, "the old device or context is still open")
        #expect(loaded.buffer?.context === engine.context && wave.buffer?.context === engine.context)
        try engine.play(loaded)
        try engine.play(wave)
        let out = try engine.render(frames: 12_000).channel(0)
        let rms = (out.map { Double($0 * $0) }.reduce(0, +) / Double(out.count)).squareRoot()
        #expect(rms > 0.2, "rms \(rms) after the move")
    }

    @Test("bad moves are typed errors and leave the engine playing where it was")
    func badMoves() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        player.numberOfLoops = -1
        try player.play()
        _ = try engine.render(frames: 1_000)
        let device = engine.device
        expectError(.invalidArgument, mentioning: ["offline"]) { try engine.switchOutput(to: .named("no such device")) }
        expectError(.invalidArgument, mentioning: ["offline"]) { try engine.switchOutput(to: .defaultDevice) }
        expectError(.unsupportedFormat) {
            try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 1, channels: .stereo, sampleType: .float32)))
        }
        #expect(engine.device === device && player.isPlaying)
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) > -20)
    }
}

extension AudioEngineMovingTests {
    @Test("a sound of another engine's device is refused (wrongContext, not uploaded again each time); one its engine moved away from follows")
    func soundsOfOtherEngines() throws {
        let a = try EngineRig.offline(), b = try EngineRig.offline()
        defer { a.shutdown(); b.shutdown() }
        let tone = try EngineRig.sine(a, amplitude: 0.2, seconds: 0.2)
        expectError(.wrongContext, mentioning: ["another device"]) { try b.play(tone) }
        expectError(.wrongContext) { try b.makePlayer(tone).play() }
        #expect(b.voiceCounts.playing == 0)
        // Engine a moves: its sound follows it to the new device, for voices and players alike.
        let before = tone.buffer!.context.device
        try a.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
        let voice = try a.play(tone)
        try a.makePlayer(tone).play()
        #expect(voice.isReal && tone.buffer!.context.device !== before && tone.buffer!.context.device === a.device)
        #expect(Measure.dB(try a.render(frames: 4_800), channel: 0) > -30)
    }
}
