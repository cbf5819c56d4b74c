import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("Occlusion and obstruction: the direct path muffled as a wall would, for voices and players")
struct OcclusionTests {
    /// A looping mix of 200 Hz and 10 kHz at 48 kHz.
    static func mix(_ engine: AudioEngine) throws -> Sound {
        let rate = EngineRig.rate
        let samples = zip(Tone.samples(frequency: 200, sampleRate: rate, amplitude: 0.3), Tone.samples(frequency: 10_000, sampleRate: rate, amplitude: 0.3)).map(+)
        return Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: rate, label: "mix"))
    }

    /// The 200 Hz and 10 kHz levels of the left channel over 0.1 s.
    static func bands(_ engine: AudioEngine) throws -> (low: Double, high: Double) {
        _ = try engine.render(frames: 960)
        let left = try engine.render(frames: 4_800).channel(0)
        return (toneDB(left, frequency: 200, sampleRate: EngineRig.rate), toneDB(left, frequency: 10_000, sampleRate: EngineRig.rate))
    }

    @Test("occlusion 0 to 1 moves the high band down step by step, further than the low band, for a voice and a player; a move keeps it")
    func monotonic() throws {
        for kind in ["voice", "player"] {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            let sound = try Self.mix(engine)
            var set: (Float) throws -> Void
            if kind == "voice" {
                let voice = try engine.play(sound, loops: -1)
                set = { try voice.setOcclusion($0) }
            } else {
                let player = engine.makePlayer(sound)
                player.numberOfLoops = -1
                try player.play()
                set = { try player.setOcclusion($0) }
            }
            var levels: [(low: Double, high: Double)] = []
            for occlusion: Float in [0, 0.25, 0.5, 0.75, 1] {
                try set(occlusion)
                levels.append(try Self.bands(engine))
            }
            let highs = levels.map(\.high), lows = levels.map(\.low)
            #expect(highs == highs.sorted(by: >) && highs[0] - highs[4] > 20, "\(kind): 10 kHz \(highs)")
            #expect(lows[0] - lows[4] < highs[0] - highs[4] && lows[0] - lows[4] > 6, "\(kind): 200 Hz \(lows)")
            // Moved to another device, the wall stays.
            try engine.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
            let moved = try Self.bands(engine)
            #expect(abs(moved.high - highs[4]) < 1.5, "\(kind) after a move: 10 kHz \(moved.high) dB, before \(highs[4])")
        }
    }

    @Test("an occluded voice ranks as heard through the wall: a nearer occluded voice gives its source to a farther clear one")
    func ranking() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 1))
        let sound = try Self.mix(engine)
        let near = try engine.play(sound, at: [0, 0, -1], loops: -1), far = try engine.play(sound, at: [0, 0, -3], loops: -1)
        _ = try engine.render(frames: 480)
        #expect(near.isReal && !far.isReal)
        near.occlusion = 1   // gain x 0.25: 0.25 against far's 0.33
        _ = try engine.render(frames: 480)
        #expect(!near.isReal && far.isReal, "near \(near.status), far \(far.status)")
        expectError(.invalidArgument) { try near.setOcclusion(1.5) }
    }
}
