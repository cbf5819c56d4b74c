import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Pan, rate and position, heard in the render.
extension PlayerTests {
    @Test("pan: -1 is left, 1 is right, 0 is centred")
    func pan() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.sine(engine, amplitude: 0.5)
        for (pan, check) in [(Float(-1), { (l: Double, r: Double) in l - r >= 20 }), (1, { l, r in r - l >= 20 }), (0, { l, r in abs(l - r) <= 0.1 })] {
            let player = engine.makePlayer(sound)
            player.pan = pan
            try player.play()
            let out = try engine.render(frames: 4_800)
            let l = Measure.dB(out, channel: 0), r = Measure.dB(out, channel: 1)
            #expect(check(l, r), "pan \(pan): left \(l) dB, right \(r) dB")
            player.stop()
        }
        #expect(throws: SoundStageError.self) { try engine.makePlayer(sound).setPan(2) }
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
