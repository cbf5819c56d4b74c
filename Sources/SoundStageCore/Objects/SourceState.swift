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

}

extension SourceState: ALEnumeration {
    static let alValues: [(SourceState, Int32)] = [(.initial, AL_INITIAL), (.playing, AL_PLAYING), (.paused, AL_PAUSED), (.stopped, AL_STOPPED)]
    static var fallback: SourceState { .initial }
}

/// How a source is fed (`AL_SOURCE_TYPE`).
public enum SourceType: Sendable, Hashable {
    /// No buffer yet.
    case undetermined
    /// One buffer set with ``AudioSource/setBuffer(_:)``.
    case `static`
    /// Buffers queued with ``AudioSource/queue(_:)``.
    case streaming

}

extension SourceType: ALEnumeration {
    static let alValues: [(SourceType, Int32)] = [(.undetermined, AL_UNDETERMINED), (.static, AL_STATIC), (.streaming, AL_STREAMING)]
    static var fallback: SourceType { .undetermined }
}

/// Whether a source is positioned in 3D (`AL_SOURCE_SPATIALIZE_SOFT`).
public enum Spatialization: Sendable, Hashable {
    /// Never positioned: played as-is, even a mono sound.
    case off
    /// Always positioned, even a stereo or multichannel sound (downmixed first).
    case on
    /// OpenAL's default: mono sounds are positioned, others are not.
    case auto

}

extension Spatialization: ALEnumeration {
    static let alValues: [(Spatialization, Int32)] = [(.off, AL_FALSE), (.on, AL_TRUE), (.auto, AL_AUTO_SOFT)]
    static var fallback: Spatialization { .auto }
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
