import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Where a sound ends: silence from its last frame on, at any rate and pitch, loaded or
/// streamed, played once or looped (OpenAL Soft from 1.20 holds the last sample it played to
/// the end of its update unless silence follows it: ``MixerSmoothing``).
extension PlayerTests {
    @Test("a sound ends in silence at any rate and pitch, loaded or streamed, once or looped",
          arguments: [44_100, 48_000], [Float(0.5), 1, 1.7])
    func endsInSilence(soundRate: Int, pitch: Float) throws {
        for streamed in [false, true] {
            for loops in [0, 1] {
                let engine = try EngineRig.offline()
                defer { engine.shutdown() }
                // A constant 0.5 to the last frame: the worst case for a held last sample.
                let frames = 10_000
                let samples = [Float](repeating: 0.5, count: frames)
                let sound: Sound
                if streamed {
                    let wav = RenderedAudio(format: RenderFormat(sampleRate: soundRate, channels: .mono), samples: samples).wavData(.float32)
                    sound = try Sound(engine: engine, streamingData: wav, name: "dc.wav")
                } else {
                    sound = Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: soundRate, label: "dc"))
                }
                let player = engine.makePlayer(sound)
                player.rate = pitch
                player.numberOfLoops = loops
                try player.play()
                // The rate is what the mixer steps by (its fixed point rounds it; a few frames).
                let step = Double(soundRate) / Double(EngineRig.rate) * Double(pitch)
                let end = Int((Double(frames * (loops + 1)) / step).rounded())
                let out = try engine.render(frames: end + 4_800).channel(0)
                let label = "\(streamed ? "streamed" : "loaded"), \(soundRate) Hz, pitch \(pitch), \(loops + 1) play(s): end at \(end)"
                #expect(Measure.dB(Array(out[(end - 200)..<(end - 20)])) > -20, "heard before its end: \(label)")
                let last = out.lastIndex { abs($0) > 1e-6 } ?? -1
                #expect(abs(last - end) <= 20 && Measure.dB(Array(out[(end + 20)...])) == -160,
                        "silent after its end: the last sound at frame \(last); \(label)")
                #expect(!player.isPlaying, "finished: \(label)")
            }
        }
    }
}
