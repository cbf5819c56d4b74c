import SoundStageCore
import SoundStageSession

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
