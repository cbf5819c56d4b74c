import Foundation

/// A decoder that gives another decoder's sound as Float32 at another sample rate and channel
/// layout: what lets sounds of different formats follow each other in one OpenAL queue.
///
/// Channels are mixed first (``ChannelMixer``), then the rate converted (``ResamplingKernel``).
/// Every output frame is a pure function of the input, reckoned from exact integer positions,
/// so reading from the start, reading after a seek, and reading a loaded copy give the same
/// samples. Output frame 0 sits on input frame 0; the sound lasts every output frame whose
/// position is inside the input (`ceil(frames * outRate / inRate)`).
package final class ConvertingDecoder: AudioDecoder {
    let source: any AudioDecoder
    let mixer: ChannelMixer
    let kernel: ResamplingKernel?
    let label: String
    package let sampleRate: Int
    /// The output frames: those of the source's stated length, or of what it delivered when
    /// its data ended early (found as it is read).
    package private(set) var frameCount: Int
    package private(set) var position = 0
    /// The source's input frames: its stated length, or where its data ended.
    private var sourceFrames: Int
    /// Mixed input frames (in the output layout), the first being input frame ``windowStart``;
    /// frames before 0 and past the end are zeros.
    private var window: [Float] = []
    private var windowStart = 0
    /// The next input frame to read from the source.
    private var sourceNext = 0

    /// Wraps `source` (at frame 0), converting to `sampleRate` and `channels`; `label` names
    /// it in errors. `kernel` is the one from the source's rate to `sampleRate`, made once by
    /// the caller (its table takes a while to build); it is made here when not given.
    package init(_ source: any AudioDecoder, sampleRate: Int, channels: ChannelLayout, label: String, kernel: ResamplingKernel? = nil) {
        self.source = source
        self.label = label
        self.sampleRate = sampleRate
        mixer = ChannelMixer(from: source.channels, to: channels)
        self.kernel = source.sampleRate == sampleRate ? nil : kernel ?? ResamplingKernel(inRate: source.sampleRate, outRate: sampleRate)
        frameCount = self.kernel?.outputFrames(for: source.frameCount) ?? source.frameCount
        sourceFrames = source.frameCount
        if let kernel = self.kernel { windowStart = 1 - kernel.halfWidth }
    }

    /// The source's damage, in output frames.
    package var damage: [DecodeDamage.Span] {
        guard kernel != nil else { return source.damage }
        let ratio = Double(sampleRate) / Double(source.sampleRate)
        return source.damage.map { span in
            var span = span
            span.frame = Int((Double(span.frame) * ratio).rounded())
            span.framesLost = span.framesLost.map { Int((Double($0) * ratio).rounded()) }
            return span
        }
    }

    package var container: SoundFile.Container { source.container }
    package var encoding: String { source.encoding }
    package var channels: ChannelLayout { mixer.to }
    package var outputFormat: BufferFormat { BufferFormat(.float32, mixer.to) }

    package func read(maxFrames: Int) throws -> [UInt8] {
        var n = max(0, min(maxFrames, frameCount - position))
        guard n > 0 else { return [] }
        try fill(through: inputEnd(forOutputs: n))
        // The source's data may have ended early: then so does this.
        n = min(n, frameCount - position)
        guard n > 0 else { return [] }
        let samples = try readFloats(n)
        return samples.withUnsafeBytes { Array($0) }
    }

    /// The input frame after the last that the next `n` output frames read.
    private func inputEnd(forOutputs n: Int) -> Int {
        guard let kernel else { return position + n }
        return kernel.position(ofOutput: position + n - 1).index + kernel.halfWidth + 1
    }

    package func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "the frame must be in 0...\(frameCount)") }
        position = frame
        let first = kernel.map { $0.position(ofOutput: frame).index - $0.halfWidth + 1 } ?? frame
        window = []
        windowStart = first
        sourceNext = max(0, min(first, sourceFrames))
        try source.seek(toFrame: sourceNext)
    }

    /// The next `n` output frames, interleaved.
    private func readFloats(_ n: Int) throws -> [Float] {
        let outChannels = mixer.to.channelCount
        guard let kernel else {
            try fill(through: inputEnd(forOutputs: n))
            let from = (position - windowStart) * outChannels
            let out = Array(window[from..<(from + n * outChannels)])
            position += n
            drop(before: position)
            return out
        }
        try fill(through: inputEnd(forOutputs: n))
        var out = [Float](repeating: 0, count: n * outChannels)
        window.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for j in 0..<n {
                    kernel.render(position + j, from: input, first: windowStart, channels: outChannels, into: output, at: j * outChannels)
                }
            }
        }
        position += n
        drop(before: kernel.position(ofOutput: position).index - kernel.halfWidth + 1)
        return out
    }

    /// Makes the window reach input frame `end` (exclusive), reading the source and padding
    /// with zeros outside it.
    private func fill(through end: Int) throws {
        let channels = mixer.to.channelCount
        var have = windowStart + window.count / channels
        if have < 0 {
            let zeros = min(end, 0) - have
            window += [Float](repeating: 0, count: zeros * channels)
            have += zeros
        }
        while have < end {
            if sourceNext >= sourceFrames {
                window += [Float](repeating: 0, count: (end - have) * channels)
                return
            }
            let bytes = try source.read(maxFrames: max(4_096, end - have))
            guard !bytes.isEmpty else {
                // The source's data ends early: this sound ends where it does (what decoded
                // is kept; the source notes the damage).
                sourceFrames = sourceNext
                frameCount = kernel?.outputFrames(for: sourceFrames) ?? sourceFrames
                continue
            }
            let floats = source.outputFormat.floatSamples(bytes)
            let frames = floats.count / source.channels.channelCount
            floats.withUnsafeBufferPointer { mixer.mix($0, frames: frames, into: &window) }
            sourceNext += frames
            have += frames
        }
    }

    /// Lets go of window frames before input frame `first`.
    private func drop(before first: Int) {
        let channels = mixer.to.channelCount
        let count = first - windowStart
        guard count > 8_192 else { return }
        window.removeFirst(count * channels)
        windowStart = first
    }
}
