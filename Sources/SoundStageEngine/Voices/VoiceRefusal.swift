import SoundStageCore
import SoundStageSession

/// Why the pool refused a play: the sound's ``VoiceRules``, its ``VoiceOptions``, or a full
/// pool said no. A refusal is the rules working, not a failure, so
/// ``AudioEngine/play(_:at:volume:pitch:priority:loops:bus:options:)`` does not throw for it:
/// it returns a ``Voice`` that has ended as ``VoiceEnd/refused``, whose ``Voice/refusal``
/// says why, and counts it in ``VoiceCounts/refused``. A refused play steals nothing.
///
/// ```swift
/// let shot = try engine.play(gunshot, at: muzzle)
/// if let why = shot.refusal { hud.note("held back: \(why)") }
/// ```
public enum VoiceRefusal: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The sound played less than ``VoiceRules/minimumInterval`` ago.
    case tooSoon = 1
    /// The sound has ``VoiceRules/maxInstances`` voices, and its ``VoiceRules/whenFull``
    /// policy refuses, or each of them is pinned or more important than the play.
    case instanceLimit
    /// ``VoiceConfiguration/maxVoices`` voices play, none less important or less audible.
    case poolFull
    /// The voice would start virtual and its options say stop when virtual
    /// (``WhenVirtual/stop``).
    case wouldStartVirtual

    public var description: String {
        switch self {
        case .tooSoon: return "played again sooner than its rules' minimum interval"
        case .instanceLimit: return "its sound already has as many voices as its rules allow"
        case .poolFull: return "every voice of the pool plays, none less important or less audible"
        case .wouldStartVirtual: return "it would start virtual and its options say stop when virtual"
        }
    }
}
