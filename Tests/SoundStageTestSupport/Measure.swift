import Foundation
import SoundStage

/// Levels, onsets and frequencies measured in rendered or decoded samples.
package enum Measure {
    /// Signal-to-noise ratio in dB of `measured` against `reference` over their first `count`
    /// samples: the reference's energy over the energy of the difference.
    package static func snrDB(_ measured: [Float], against reference: [Float], count: Int) -> Double {
        var signal = 0.0, noise = 0.0
        for i in 0..<count {
            signal += Double(reference[i]) * Double(reference[i])
            let d = Double(measured[i]) - Double(reference[i]); noise += d * d
        }
        return 10 * log10(signal / max(noise, 1e-30))
    }

    /// RMS level in dBFS of a block of samples (-160 for silence).
    package static func dB(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return -160 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        let rms = (sum / Double(samples.count)).squareRoot()
        return rms > 0 ? max(-160, 20 * log10(rms)) : -160
    }

    /// Channel `channel` of a render after the fade OpenAL Soft gives a source stopped or
    /// paused just before it (64 frames from 1.20, none on 1.19: ``MixerSmoothing``): what
    /// must be silent once the mixer has let the source go.
    package static func afterStopFade(_ audio: RenderedAudio, channel: Int, _ context: AudioContext) -> [Float] {
        Array(audio.channel(channel).dropFirst(context.mixerSmoothing.stopFadeFrames))
    }

    /// RMS level of channel `channel` of a render.
    package static func dB(_ audio: RenderedAudio, channel: Int) -> Double { dB(audio.channel(channel)) }

    /// Level of all channels together (sum of channel energies), in dB.
    package static func totalDB(_ audio: RenderedAudio) -> Double {
        let n = audio.format.channels.channelCount
        let energy = (0..<n).reduce(0.0) { acc, c in acc + pow(10, dB(audio, channel: c) / 10) }
        return 10 * log10(energy)
    }

    /// Index of the first sample whose magnitude exceeds `threshold`, nil if none.
    package static func onset(_ samples: [Float], threshold: Float = 1e-4) -> Int? {
        samples.firstIndex { abs($0) > threshold }
    }

    /// The frequency of the strongest FFT bin (Hann window, parabolic interpolation).
    package static func peakFrequency(_ samples: [Float], sampleRate: Int) -> Double {
        var n = 1
        while n * 2 <= samples.count { n *= 2 }
        var re = (0..<n).map { i in Double(samples[i]) * (0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))) }
        var im = [Double](repeating: 0, count: n)
        fft(&re, &im)
        let mags = (0..<n / 2).map { (re[$0] * re[$0] + im[$0] * im[$0]).squareRoot() }
        let k = (1..<n / 2 - 1).max { mags[$0] < mags[$1] }!
        let (a, b, c) = (log(mags[k - 1]), log(mags[k]), log(mags[k + 1]))
        let delta = 0.5 * (a - c) / (a - 2 * b + c)
        return (Double(k) + delta) * Double(sampleRate) / Double(n)
    }

    /// In-place iterative radix-2 FFT.
    package static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var len = 2
        while len <= n {
            let angle = -2 * Double.pi / Double(len)
            let (wr, wi) = (cos(angle), sin(angle))
            var start = 0
            while start < n {
                var (cr, ci) = (1.0, 0.0)
                for k in 0..<len / 2 {
                    let (a, b) = (start + k, start + k + len / 2)
                    let tr = re[b] * cr - im[b] * ci
                    let ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    (cr, ci) = (cr * wr - ci * wi, cr * wi + ci * wr)
                }
                start += len
            }
            len <<= 1
        }
    }
}

/// The level in dB of the `frequency` component of `samples` (a Goertzel filter over whole
/// cycles): one tone measured under another.
package func toneDB(_ samples: [Float], frequency: Double, sampleRate: Int) -> Double {
    let w = 2 * Double.pi * frequency / Double(sampleRate)
    var s1 = 0.0, s2 = 0.0
    for x in samples {
        let s0 = Double(x) + 2 * cos(w) * s1 - s2
        s2 = s1
        s1 = s0
    }
    let power = s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2
    let amplitude = 2 * power.squareRoot() / Double(samples.count)
    return amplitude > 0 ? 20 * log10(amplitude) : -160
}
