import Foundation

/// Peak and RMS levels of audio that comes a block at a time: of every channel over all of it,
/// and over consecutive windows of a set length (a level graph over time), without keeping
/// the samples. A render of any length measured as it is written (`soundstage render`, the
/// scene plot) holds only its windows' levels.
public struct LevelGraph: Sendable {
    /// The channels of each frame.
    public let channels: Int
    /// Frames in a window (at least 1).
    public let windowFrames: Int
    /// Frames taken in so far.
    public private(set) var frameCount = 0
    /// Peak and RMS of every channel over each whole window so far, in dBFS (-160 for
    /// silence); a window not yet whole is left out.
    public private(set) var windows: [[(peak: Double, rms: Double)]] = []

    private var peaks: [Float]
    private var sums: [Double]
    private var windowPeaks: [Float]
    private var windowSums: [Double]
    private var windowFill = 0

    /// An empty graph of audio laid out as `layout`, with windows of `windowFrames` frames;
    /// with `windowFrames` 0 (or less), only the levels over all of it are kept.
    public init(channels layout: ChannelLayout, windowFrames: Int) {
        self.channels = layout.channelCount
        self.windowFrames = windowFrames
        peaks = [Float](repeating: 0, count: self.channels)
        sums = [Double](repeating: 0, count: self.channels)
        windowPeaks = peaks
        windowSums = sums
    }

    /// Peak and RMS of every channel over everything taken in, in dBFS (-160 for silence).
    public var levels: [(peak: Double, rms: Double)] {
        let frames = Double(max(1, frameCount))
        return (0..<channels).map { (LevelMeter.dB(Double(peaks[$0])), LevelMeter.dB((sums[$0] / frames).squareRoot())) }
    }

    /// Takes in interleaved samples of whole frames of the graph's layout (a partial frame at
    /// the end is left out).
    public mutating func add(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { add($0) }
    }

    /// Takes in a block of rendered audio of this graph's layout.
    public mutating func add(_ audio: RenderedAudio) {
        add(audio.samples)
    }

    /// Takes in interleaved samples of whole frames.
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        let n = channels
        var i = 0
        while i + n <= samples.count {
            for c in 0..<n {
                let v = samples[i + c]
                let magnitude = abs(v), square = Double(v) * Double(v)
                peaks[c] = max(peaks[c], magnitude)
                sums[c] += square
                windowPeaks[c] = max(windowPeaks[c], magnitude)
                windowSums[c] += square
            }
            i += n
            frameCount += 1
            guard windowFrames > 0 else { continue }
            windowFill += 1
            if windowFill == windowFrames {
                let frames = Double(windowFrames)
                windows.append((0..<n).map { (LevelMeter.dB(Double(windowPeaks[$0])), LevelMeter.dB((windowSums[$0] / frames).squareRoot())) })
                for c in 0..<n { (windowPeaks[c], windowSums[c]) = (0, 0) }
                windowFill = 0
            }
        }
    }
}
