import COpenAL

/// A speaker layout for a device's output.
public enum OutputChannels: String, Sendable, CaseIterable, Hashable {
    /// One channel.
    case mono
    /// Left and right.
    case stereo
    /// Front left, front right, back left, back right.
    case quad
    /// 5.1 surround (`ALC_5POINT1_SOFT`).
    case surround51 = "5.1"
    /// 6.1 surround (`ALC_6POINT1_SOFT`).
    case surround61 = "6.1"
    /// 7.1 surround (`ALC_7POINT1_SOFT`).
    case surround71 = "7.1"

    /// The number of interleaved channels in a rendered frame.
    public var channelCount: Int {
        switch self {
        case .mono: return 1
        case .stereo: return 2
        case .quad: return 4
        case .surround51: return 6
        case .surround61: return 7
        case .surround71: return 8
        }
    }

    var alcValue: Int32 {
        switch self {
        case .mono: return ALC_MONO_SOFT
        case .stereo: return ALC_STEREO_SOFT
        case .quad: return ALC_QUAD_SOFT
        case .surround51: return ALC_5POINT1_SOFT
        case .surround61: return ALC_6POINT1_SOFT
        case .surround71: return ALC_7POINT1_SOFT
        }
    }
}

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
    /// The speaker layout.
    public var channels: OutputChannels
    /// The sample type.
    public var sampleType: RenderSampleType

    /// Creates a render format. The default is 48 kHz stereo Float32.
    public init(sampleRate: Int = 48_000, channels: OutputChannels = .stereo, sampleType: RenderSampleType = .float32) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleType = sampleType
    }

    /// Bytes in one interleaved frame.
    public var bytesPerFrame: Int { channels.channelCount * sampleType.byteCount }

    /// For example `48000 Hz stereo float32`.
    public var description: String { "\(sampleRate) Hz \(channels.rawValue) \(sampleType.rawValue)" }
}

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
