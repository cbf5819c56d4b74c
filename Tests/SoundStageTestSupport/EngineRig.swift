import Foundation
import SoundStage

/// Offline engines (48 kHz stereo float, serviced by their own renders) and the sounds the
/// engine and player suites play in them.
package enum EngineRig {
    /// The engines' sample rate.
    package static let rate = 48_000

    /// An engine that renders offline and services its players every `tick` seconds of render.
    package static func offline(tick: Double = 0.01) throws -> AudioEngine {
        try AudioEngine(output: .offline(RenderFormat(sampleRate: Self.rate, channels: .stereo, sampleType: .float32)),
                        attributes: ContextAttributes(hrtf: .off), service: .manual(tick: tick))
    }

    /// A mono sound of `frames` frames of silence with a unit impulse at each of `positions`.
    package static func clicks(_ engine: AudioEngine, frames: Int, at positions: [Int], streamed: Bool = false) throws -> Sound {
        var samples = [Float](repeating: 0, count: frames)
        for c in positions { samples[c] = 1 }
        return try sound(engine, samples, streamed: streamed)
    }

    /// A mono sound of `samples` at 48 kHz: loaded into a buffer, or streamed from a float WAV in memory.
    package static func sound(_ engine: AudioEngine, _ samples: [Float], streamed: Bool) throws -> Sound {
        if streamed {
            let wav = RenderedAudio(format: RenderFormat(sampleRate: Self.rate, channels: .mono), samples: samples).wavData(.float32)
            return try Sound(engine: engine, streamingData: wav, name: "stream.wav")
        }
        return Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: Self.rate, label: "clicks"))
    }

    /// A loaded mono 1 kHz sine of `amplitude`, `seconds` long.
    package static func sine(_ engine: AudioEngine, amplitude: Float, seconds: Double = 1) throws -> Sound {
        let samples = (0..<Int(seconds * Double(Self.rate))).map { amplitude * sin(2 * .pi * 1_000 * Float($0) / Float(Self.rate)) }
        return Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: Self.rate, label: "sine"))
    }

    /// `seconds` of `url` played by a player in a fresh offline engine, loaded or streamed:
    /// what the decoder tests compare sample for sample.
    package static func renderFile(_ url: URL, streamed: Bool, seconds: Double) throws -> [Float] {
        let engine = try offline()
        defer { engine.shutdown() }
        let sound = streamed ? try Sound(engine: engine, streamingContentsOf: url) : try Sound(engine: engine, contentsOf: url)
        try engine.makePlayer(sound).play()
        return try engine.render(frames: Int(seconds * Double(rate))).samples
    }

    /// Interleaved `samples` as a float WAV file in memory, at 48 kHz.
    package static func wav(_ samples: [Float], channels: ChannelLayout) -> Data {
        RenderedAudio(format: RenderFormat(sampleRate: Self.rate, channels: channels), samples: samples).wavData(.float32)
    }
}
