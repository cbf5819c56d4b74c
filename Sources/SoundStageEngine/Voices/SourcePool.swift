import SoundStageCore

/// The OpenAL sources the voice pool holds, and those it lends: a part of
/// ``VoicePoolState``, worked on by the pool's source functions (VoicePool+Sources.swift,
/// VoicePool+Players.swift).
struct SourcePool {
    /// Sources the pool may make: the real voices and a margin for voices fading out.
    var limit = 0
    /// Sources made and not let go of.
    var made = 0
    /// Stopped, empty sources ready for the next real voice.
    var spare: [AudioSource] = []
    /// Sources of voices made virtual at the last tick, silenced then and stopped at this one.
    var leaving: [AudioSource] = []
    /// Sources lent to players (they count against ``VoicePoolState/realLimit``).
    var lent = 0
    /// Direct-path filters for occlusion and obstruction, one per setting, on the current
    /// context (voices share them; dropped when the engine moves).
    var filters: [FilterSettings: AudioFilter] = [:]
}
