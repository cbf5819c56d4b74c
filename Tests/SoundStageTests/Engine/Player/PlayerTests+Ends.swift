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

extension PlayerTests {
    @Test("a loaded sound in each PCM and G.711 encoding ends in silence (the silence after it is in its own encoding)",
          arguments: [SampleEncoding.uint8, .int16, .muLaw, .aLaw])
    func endsInSilenceEncoded(encoding: SampleEncoding) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let format = BufferFormat(encoding, .mono)
        // A constant, well away from silence, to the last frame.
        let frames = 10_000
        let byte: [UInt8]
        switch encoding {
        case .int16: byte = withUnsafeBytes(of: Int16(16_384)) { Array($0) }
        case .uint8: byte = [0xC0]
        case .muLaw: byte = [0x90]
        default: byte = [0xA5]
        }
        let bytes = (0..<frames).flatMap { _ in byte }
        let sound = Sound(buffer: try AudioBuffer(context: engine.context, bytes: bytes, format: format, sampleRate: EngineRig.rate, label: "\(encoding)"))
        try engine.makePlayer(sound).play()
        let out = try engine.render(frames: frames + 4_800).channel(0)
        #expect(Measure.dB(Array(out[(frames - 200)..<(frames - 20)])) > -40, "heard before its end: \(encoding)")
        // A-law has no code for 0: its silence is the smallest step, 8/32768 (-72 dBFS), which
        // OpenAL Soft 1.23.1 holds to the end of its update (measured) and then fades.
        let floor: Float = encoding == .aLaw ? 8.0 / 32_768 : 1e-6
        let last = out.lastIndex { abs($0) > floor } ?? -1
        let after = Array(out[(frames + 20)...])
        #expect(abs(last - frames) <= 20 && (encoding == .aLaw || Measure.dB(after) == -160),
                "\(encoding): the last sound at frame \(last), its end at \(frames); after it \(Measure.dB(after)) dB")
    }
}
