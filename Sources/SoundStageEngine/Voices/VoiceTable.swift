import SoundStageCore
import SoundStageSession

/// One voice's slot in the pool's table: what the service tick reads for every voice each
/// tick, kept small (96 bytes) and in one array, so the tick's cost stays linear up to a
/// hundred thousand voices. What the tick does not read is in ``VoiceDetails``, a parallel array.
struct VoiceSlot {
    enum Phase: UInt8 { case free, playing }

    // Declared widest first, so the slot packs into 96 bytes.
    var position = SIMD3<Float>.zero
    /// How far it moves each output frame, in the mixer's fixed point (``MixerStepping``):
    /// its sound's rate over the output's, times its pitch, rounded as OpenAL Soft rounds it.
    var increment: Int64 = 0
    /// Where it is in its sound, in the mixer's fixed point, every play counted, as of the
    /// pool's clock (negative for a voice that starts after it, between two ticks). A real
    /// voice's source is at the same place to the fraction of a frame.
    var playhead: Int64 = 0
    /// Its plays' length in the mixer's fixed point (`Int64.max`: loops forever).
    var length: Int64 = 0
    /// What ranks it for a source: pinned, then priority, then audibility (its low 32 bits).
    var rank: UInt64 = 0
    var volume: Float = 1
    var pitch: Float = 1
    var referenceDistance: Float = 1
    var maxDistance: Float = .greatestFiniteMagnitude
    var rolloff: Float = 1
    /// The direct path's gain from occlusion and obstruction (1 without).
    var directGain: Float = 1
    var generation: UInt32 = 0
    var bus: Int32 = 0
    /// Index in ``VoicePoolState/reals`` while real, -1 while virtual.
    var real: Int32 = -1
    var phase = Phase.free
    /// Paused by ``Voice/pause()``.
    var isPaused = false
    var isPinned = false
    var whenVirtual = WhenVirtual.keepTime
    var positioned = false
    /// Positioned in the listener's space (``VoiceOptions/isRelative``).
    var relative = false
    /// Whether it has a cone (in its details).
    var hasCone = false
    /// Set when its audibility must be worked out again (it moved, its volume changed...).
    var needsRank = true
    var priority: UInt8 = 128

    var isLive: Bool { phase == .playing }

    /// Its gain after volume, bus, distance and cone, at the last tick (from its rank; 0
    /// while it waits).
    var audibility: Float { Float(bitPattern: UInt32(truncatingIfNeeded: rank)) }
}

/// The rest of a voice: what only its start, its end, its source or its handle need.
struct VoiceDetails {
    /// Why the previous generation ended (for old handles).
    var previousEnd = VoiceEnd.unknown
    /// The entry of the sound in ``VoicePoolState/sounds``, and where this voice is in the
    /// entry's list (so ending it is one swap, not a search).
    var sound: Int32 = -1
    var soundPosition: Int32 = -1
    var velocity = SIMD3<Float>.zero
    var cone: VoiceCone?
    /// The engine frame it started on (the oldest is stolen first).
    var startFrame = 0
    var occlusion: Float = 0
    var obstruction: Float = 0
    /// How much of it goes to effects.
    var sendLevel: Float = 1
    /// Its sound's rate over the output's, as the mixer works it out (its ``VoiceSlot/increment``
    /// is this times its pitch).
    var rateRatio: Float = 1
}

/// A voice holding one of the pool's sources.
struct RealVoice {
    var slot: Int32
    let source: AudioSource
    let feed: any PlaybackFeed
    /// The gain last written to the source.
    var gain: Float
    /// Whether the source loops one buffer for ever: it has nothing to refill and no end,
    /// so the tick asks nothing of it.
    var loopsInPlace = false
}

/// What the pool knows of a sound its voices play: the rules, and the voices it has. The
/// sound is held only while it has voices; the rules stay while the game keeps the sound.
struct SoundEntry {
    /// The sound, while the game keeps it.
    weak var sound: Sound?
    /// The sound, held while it has voices.
    var playing: Sound?
    /// Names the sound in messages, after it is gone too.
    let label: String
    var rules = VoiceRules()
    /// The slots playing it.
    var voices: [Int32] = []
    /// The engine time of the last play accepted, in seconds.
    var lastStart: Double?
}

/// The listener as the tick last read it, for audibility.
struct ListenerSnapshot: Equatable {
    var position = SIMD3<Float>.zero
    var gain: Float = 1
    var model = DistanceModel.inverseClamped
}
