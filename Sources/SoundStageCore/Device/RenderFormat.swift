import COpenAL

/// The sample type a loopback device renders.
public enum RenderSampleType: String, Sendable, CaseIterable, Hashable {
    /// Signed 16-bit integers (`ALC_SHORT_SOFT`).
    case int16
    /// 32-bit floats in -1...1 (`ALC_FLOAT_SOFT`).
    case float32

    /// Bytes per sample.
    public var byteCount: Int { self == .int16 ? 2 : 4 }

    var alcValue: Int32 { self == .int16 ? ALC_SHORT_SOFT : ALC_FLOAT_SOFT }
}

/// The format a loopback device renders: sample rate, channel layout and sample type.
public struct RenderFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// The speaker layout; one of ``ChannelLayout/outputLayouts``.
    public var channels: ChannelLayout
    /// The sample type.
    public var sampleType: RenderSampleType

    /// Creates a render format. The default is 48 kHz stereo Float32.
    public init(sampleRate: Int = 48_000, channels: ChannelLayout = .stereo, sampleType: RenderSampleType = .float32) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
    }

    /// Bytes in one interleaved frame.
    public var bytesPerFrame: Int { channels.channelCount * sampleType.byteCount }

    /// For example `48000 Hz stereo float32`.
    public var description: String { "\(sampleRate) Hz \(channels.rawValue) \(sampleType.rawValue)" }
}
