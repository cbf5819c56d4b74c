import SoundStageCore
import SoundStageSession

/// A block of captured audio from a ``CaptureStream``.
public struct CaptureBlock: Sendable {
    /// Interleaved samples in -1...1.
    public let samples: [Float]
    /// Channels in ``samples``.
    public let channels: Int
    /// The index of the block's first frame since the stream started: consecutive blocks
    /// follow each other with no gap unless frames were dropped (``droppedBefore``).
    public let firstFrame: Int
    /// Seconds since the stream started at which the first frame was captured, as closely
    /// as the device's reads tell.
    public let time: Double
    /// Frames dropped just before this block because the consumer fell behind (an overrun);
    /// 0 normally.
    public let droppedBefore: Int

    /// Frames in the block.
    public var frameCount: Int { samples.count / max(1, channels) }
}
