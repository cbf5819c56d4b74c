import Foundation
import SoundStage

/// Sine test signals: samples, and buffers of them.
package enum Tone {
    /// One second of a sine that loops seamlessly (a whole number of periods per second).
    package static func samples(frequency: Float, sampleRate: Int, seconds: Double = 1, amplitude: Float = 0.5) -> [Float] {
        let count = Int(Double(sampleRate) * seconds)
        return (0..<count).map { amplitude * sin(2 * Float.pi * frequency * Float($0) / Float(sampleRate)) }
    }

    package static func buffer(_ context: AudioContext, frequency: Float, sampleRate: Int) throws -> AudioBuffer {
        try AudioBuffer(context: context, samples: samples(frequency: frequency, sampleRate: sampleRate),
                        sampleRate: sampleRate, label: "sine \(frequency) Hz")
    }
}
