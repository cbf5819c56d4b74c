import Foundation
import SoundStage

/// A mono buffer of silence with a unit impulse at each of `clicks`.
package func clickBuffer(_ context: AudioContext, frames: Int, clicks: [Int], sampleRate: Int = 48_000) throws -> AudioBuffer {
    var samples = [Float](repeating: 0, count: frames)
    for c in clicks { samples[c] = 1 }
    return try AudioBuffer(context: context, samples: samples, sampleRate: sampleRate, label: "clicks")
}
