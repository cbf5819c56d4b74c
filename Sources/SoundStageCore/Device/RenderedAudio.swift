/// Audio rendered by a loopback device, as interleaved Float32 samples.
public struct RenderedAudio: Sendable {
    /// The format it was rendered in (Int16 renders are converted to Float32 in -1...1).
    public var format: RenderFormat
    /// Interleaved samples, `frameCount * format.channels.channelCount` of them.
    public var samples: [Float]

    /// The number of frames.
    public var frameCount: Int { samples.count / format.channels.channelCount }

    /// Creates rendered audio from interleaved samples.
    public init(format: RenderFormat, samples: [Float]) {
        self.format = format
        self.samples = samples
    }

    /// One channel's samples, de-interleaved.
    public func channel(_ index: Int) -> [Float] {
        let count = format.channels.channelCount
        precondition(index >= 0 && index < count, "channel \(index) out of 0..<\(count)")
        return stride(from: index, to: samples.count, by: count).map { samples[$0] }
    }

    /// Appends another render of the same format.
    public mutating func append(_ other: RenderedAudio) {
        precondition(other.format == format, "appending a render of another format")
        samples.append(contentsOf: other.samples)
    }
}
