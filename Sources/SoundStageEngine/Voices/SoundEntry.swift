import SoundStageCore
import SoundStageSession

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
