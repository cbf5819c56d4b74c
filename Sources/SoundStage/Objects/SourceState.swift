import COpenAL

/// Where a source is in its life (`AL_SOURCE_STATE`).
public enum SourceState: Sendable, Hashable {
    /// Never played, or rewound.
    case initial
    /// Playing.
    case playing
    /// Paused; play resumes from the same offset.
    case paused
    /// Stopped, or played to the end.
    case stopped

    init(al value: Int32) {
        switch value {
        case AL_PLAYING: self = .playing
        case AL_PAUSED: self = .paused
        case AL_STOPPED: self = .stopped
        default: self = .initial
        }
    }
}

/// How a source is fed (`AL_SOURCE_TYPE`).
public enum SourceType: Sendable, Hashable {
    /// No buffer yet.
    case undetermined
    /// One buffer set with ``AudioSource/setBuffer(_:)``.
    case `static`
    /// Buffers queued with ``AudioSource/queue(_:)``.
    case streaming

    init(al value: Int32) {
        switch value {
        case AL_STATIC: self = .static
        case AL_STREAMING: self = .streaming
        default: self = .undetermined
        }
    }
}

/// Whether a source is positioned in 3D (`AL_SOURCE_SPATIALIZE_SOFT`).
public enum Spatialization: Sendable, Hashable {
    /// Never positioned: played as-is, even a mono sound.
    case off
    /// Always positioned, even a stereo or multichannel sound (downmixed first).
    case on
    /// OpenAL's default: mono sounds are positioned, others are not.
    case auto

    var alValue: Int32 {
        switch self {
        case .off: return AL_FALSE
        case .on: return AL_TRUE
        case .auto: return AL_AUTO_SOFT
        }
    }

    init(al value: Int32) {
        switch value {
        case AL_FALSE: self = .off
        case AL_TRUE: self = .on
        default: self = .auto
        }
    }
}

/// A playback offset together with the output latency behind it (`AL_SOFT_source_latency`):
/// what the listener hears now is `offset - latency`.
public struct OffsetWithLatency: Sendable, Hashable {
    /// The playback offset in seconds, as the mixer sees it.
    public var offset: Double
    /// How long until a sample mixed now reaches the output, in seconds.
    public var latency: Double
    /// The offset being heard right now.
    public var heard: Double { max(0, offset - latency) }
}
