import Foundation

/// Peak and RMS levels in dBFS: the one meter behind render levels, the scene plot's level
/// graph, master output metering and a player's metering.
package enum LevelMeter {
    /// The floor every level is clamped to: silence reads -160 dBFS.
    package static let floor = -160.0

    /// A linear amplitude in dBFS, -160 for silence.
    @inline(__always)
    package static func dB(_ amplitude: Double) -> Double { amplitude > 0 ? max(floor, 20 * log10(amplitude)) : floor }

    /// Peak and RMS level of each channel of interleaved `samples` scaled by `gain`, in one
    /// pass over whole frames.
    package static func levels(_ samples: UnsafeBufferPointer<Float>, channels n: Int, gain: Float = 1) -> [(peak: Double, rms: Double)] {
        var peaks = [Float](repeating: 0, count: n)
        var sums = [Double](repeating: 0, count: n)
        var i = 0
        while i + n <= samples.count {
            for c in 0..<n {
                let v = samples[i + c] * gain
                peaks[c] = max(peaks[c], abs(v))
                sums[c] += Double(v) * Double(v)
            }
            i += n
        }
        let frames = Double(max(1, samples.count / max(1, n)))
        return (0..<n).map { (dB(Double(peaks[$0])), dB((sums[$0] / frames).squareRoot())) }
    }

    /// The same for an array.
    package static func levels(_ samples: [Float], channels: Int, gain: Float = 1) -> [(peak: Double, rms: Double)] {
        samples.withUnsafeBufferPointer { levels($0, channels: channels, gain: gain) }
    }
}

extension RenderedAudio {
    /// Peak and RMS level of every channel in dBFS (-160 for silence), in one pass.
    public func levels() -> [(peak: Double, rms: Double)] {
        LevelMeter.levels(samples, channels: format.channels.channelCount)
    }

    /// Peak and RMS level of every channel over consecutive windows of `frames` frames (a
    /// partial window at the end is left out): a level graph over time.
    public func levels(windowFrames frames: Int) -> [[(peak: Double, rms: Double)]] {
        var graph = LevelGraph(channels: format.channels, windowFrames: max(1, frames))
        graph.add(samples)
        return graph.windows
    }

    /// The peak level of channel `channel` in dBFS (-160 for silence).
    public func peakDB(channel: Int) -> Double { levels()[channel].peak }

    /// The RMS level of channel `channel` in dBFS (-160 for silence).
    public func rmsDB(channel: Int) -> Double { levels()[channel].rms }
}
