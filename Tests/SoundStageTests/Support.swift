import Foundation
import SoundStage

/// A loopback device and context ready to render.
struct Scene {
    let device: AudioDevice
    let context: AudioContext

    init(format: RenderFormat = RenderFormat(), attributes: ContextAttributes = ContextAttributes(hrtf: .off)) throws {
        device = try AudioDevice.openLoopback(format: format)
        context = try AudioContext(device: device, attributes: attributes)
    }

    var sampleRate: Int { device.loopbackFormat!.sampleRate }

    /// A looping mono sine source at `position`.
    func toneSource(frequency: Float = 1000, at position: SIMD3<Float>, gain: Float = 1) throws -> AudioSource {
        let source = try AudioSource(context: context)
        try source.setBuffer(try Tone.buffer(context, frequency: frequency, sampleRate: sampleRate))
        try source.set(.isLooping, to: true)
        try source.set(.position, to: position)
        try source.set(.gain, to: gain)
        return source
    }

    /// Renders `frames`, throwing away `settle` frames first so gain ramps have finished.
    func render(frames: Int, settle: Int = 4096) throws -> RenderedAudio {
        if settle > 0 { _ = try device.render(frames: settle) }
        return try device.render(frames: frames)
    }
}

enum Tone {
    /// One second of a sine that loops seamlessly (a whole number of periods per second).
    static func samples(frequency: Float, sampleRate: Int, seconds: Double = 1, amplitude: Float = 0.5) -> [Float] {
        let count = Int(Double(sampleRate) * seconds)
        return (0..<count).map { amplitude * sin(2 * Float.pi * frequency * Float($0) / Float(sampleRate)) }
    }

    static func buffer(_ context: AudioContext, frequency: Float, sampleRate: Int) throws -> AudioBuffer {
        try AudioBuffer(context: context, samples: samples(frequency: frequency, sampleRate: sampleRate),
                        sampleRate: sampleRate, label: "sine \(frequency) Hz")
    }
}

enum Measure {
    /// RMS level in dBFS of a block of samples (-160 for silence).
    static func dB(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return -160 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        let rms = (sum / Double(samples.count)).squareRoot()
        return rms > 0 ? max(-160, 20 * log10(rms)) : -160
    }

    /// RMS level of channel `channel` of a render.
    static func dB(_ audio: RenderedAudio, channel: Int) -> Double { dB(audio.channel(channel)) }

    /// Level of all channels together (sum of channel energies), in dB.
    static func totalDB(_ audio: RenderedAudio) -> Double {
        let n = audio.format.channels.channelCount
        let energy = (0..<n).reduce(0.0) { acc, c in acc + pow(10, dB(audio, channel: c) / 10) }
        return 10 * log10(energy)
    }

    /// Index of the first sample whose magnitude exceeds `threshold`, nil if none.
    static func onset(_ samples: [Float], threshold: Float = 1e-4) -> Int? {
        samples.firstIndex { abs($0) > threshold }
    }

    /// The frequency of the strongest FFT bin (Hann window, parabolic interpolation).
    static func peakFrequency(_ samples: [Float], sampleRate: Int) -> Double {
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
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
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
