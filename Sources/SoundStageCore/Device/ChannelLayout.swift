import COpenAL

/// A speaker or channel layout: what a buffer holds, and what a device outputs.
///
/// Every layout can be held in a buffer; every one but ``rear`` can also be a device's
/// output (``isOutputLayout``).
public enum ChannelLayout: String, Sendable, CaseIterable, Hashable {
    /// One channel; the only layout OpenAL positions in 3D.
    case mono
    /// Left, right. Played as-is (or spread by ``Property/stereoAngles``), not positioned.
    case stereo
    /// Rear left, rear right (`AL_FORMAT_REAR*`); a buffer layout only.
    case rear
    /// Front left, front right, rear left, rear right (`AL_FORMAT_QUAD*`, `ALC_QUAD_SOFT`).
    case quad
    /// 5.1: FL, FR, FC, LFE, RL, RR (`AL_FORMAT_51CHN*`, `ALC_5POINT1_SOFT`).
    case surround51 = "5.1"
    /// 6.1: FL, FR, FC, LFE, RC, SL, SR (`AL_FORMAT_61CHN*`, `ALC_6POINT1_SOFT`).
    case surround61 = "6.1"
    /// 7.1: FL, FR, FC, LFE, RL, RR, SL, SR (`AL_FORMAT_71CHN*`, `ALC_7POINT1_SOFT`).
    case surround71 = "7.1"

    /// Channels per frame.
    public var channelCount: Int {
        switch self {
        case .mono: return 1
        case .stereo, .rear: return 2
        case .quad: return 4
        case .surround51: return 6
        case .surround61: return 7
        case .surround71: return 8
        }
    }

    /// The layout for a channel count, where one layout has that count (2 means stereo).
    public init?(channelCount: Int) {
        switch channelCount {
        case 1: self = .mono
        case 2: self = .stereo
        case 4: self = .quad
        case 6: self = .surround51
        case 7: self = .surround61
        case 8: self = .surround71
        default: return nil
        }
    }

    /// Short names of the channels in order, e.g. `L`, `R`.
    public var channelNames: [String] {
        switch self {
        case .mono: return ["M"]
        case .stereo: return ["L", "R"]
        case .rear: return ["RL", "RR"]
        case .quad: return ["FL", "FR", "BL", "BR"]
        case .surround51: return ["FL", "FR", "FC", "LFE", "BL", "BR"]
        case .surround61: return ["FL", "FR", "FC", "LFE", "BC", "SL", "SR"]
        case .surround71: return ["FL", "FR", "FC", "LFE", "BL", "BR", "SL", "SR"]
        }
    }

    /// The layouts a device can output (every one but ``rear``).
    public static let outputLayouts: [ChannelLayout] = allCases.filter(\.isOutputLayout)

    /// Whether a device can output this layout.
    public var isOutputLayout: Bool { alcValue != nil }

    /// The `ALC_FORMAT_CHANNELS_SOFT` value, nil for ``rear``.
    var alcValue: Int32? {
        switch self {
        case .mono: return ALC_MONO_SOFT
        case .stereo: return ALC_STEREO_SOFT
        case .rear: return nil
        case .quad: return ALC_QUAD_SOFT
        case .surround51: return ALC_5POINT1_SOFT
        case .surround61: return ALC_6POINT1_SOFT
        case .surround71: return ALC_7POINT1_SOFT
        }
    }
}

/// The speaker layout of a device's output: the same type as a buffer's.
@available(*, deprecated, renamed: "ChannelLayout")
public typealias OutputChannels = ChannelLayout
