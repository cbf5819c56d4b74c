/// A decoder over samples already in memory (interleaved Float32): how a loaded sound joins
/// streamed ones where a decoder is expected, as in a playlist.
package final class SampleArrayDecoder: AudioDecoder {
    let samples: [Float]
    package let channels: ChannelLayout
    package let sampleRate: Int
    package let frameCount: Int
    package private(set) var position = 0

    package init(samples: [Float], channels: ChannelLayout, sampleRate: Int) {
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
        frameCount = samples.count / channels.channelCount
    }

    package var container: SoundFile.Container { .wav }
    package var encoding: String { "float32" }
    package var outputFormat: BufferFormat { BufferFormat(.float32, channels) }

    package func read(maxFrames: Int) throws -> [UInt8] {
        let n = max(0, min(maxFrames, frameCount - position))
        let c = channels.channelCount
        defer { position += n }
        return samples[(position * c)..<((position + n) * c)].withUnsafeBytes { Array($0) }
    }

    package func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "the frame must be in 0...\(frameCount)") }
        position = frame
    }
}
