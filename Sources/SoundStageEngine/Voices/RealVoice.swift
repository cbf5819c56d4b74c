import SoundStageCore
import SoundStageSession

/// A voice holding one of the pool's sources.
struct RealVoice {
    var slot: Int32
    let source: AudioSource
    let feed: any PlaybackFeed
    /// The gain last written to the source.
    var gain: Float
    /// The space of the placement last written to the source (`AL_SOURCE_RELATIVE`); nil
    /// before the first, or after a write that failed. A move within it writes the position
    /// alone (``SourceSettings/Parts/position``).
    var isRelative: Bool? = nil
    /// Whether the source loops one buffer for ever: it has nothing to refill and no end,
    /// so the tick asks nothing of it.
    var loopsInPlace = false
}
