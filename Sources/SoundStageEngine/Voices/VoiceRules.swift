import SoundStageCore
import SoundStageSession

/// Limits and variation for every voice of one sound: see
/// ``AudioEngine/setVoiceRules(_:for:)``. They keep rapid fire (a machine gun, a hundred
/// coins picked up at once) from swamping the mix.
public struct VoiceRules: Sendable, Hashable {
    /// At most this many voices of the sound at once; nil: no limit.
    public var maxInstances: Int?
    /// What a play beyond ``maxInstances`` does.
    public var whenFull: InstancePolicy
    /// Plays closer than this to the last accepted one, in seconds of engine time, are
    /// refused (``VoiceRefusal/tooSoon``).
    public var minimumInterval: Double
    /// Pitch and volume drawn for each play.
    public var variation: Variation

    /// No limit, no interval, no variation.
    public init(maxInstances: Int? = nil, whenFull: InstancePolicy = .stealOldest, minimumInterval: Double = 0,
                variation: Variation = .none) {
        self.maxInstances = maxInstances
        self.whenFull = whenFull
        self.minimumInterval = minimumInterval
        self.variation = variation
    }
}

/// What a play does when its sound has ``VoiceRules/maxInstances`` voices already.
public enum InstancePolicy: String, Sendable, Hashable, CaseIterable {
    /// The oldest voice of the sound is stopped (``VoiceEnd/stolen``) to make room.
    case stealOldest
    /// The least audible voice of the sound is stopped to make room.
    case stealQuietest
    /// The new play is refused (``VoiceRefusal/instanceLimit``).
    case refuse
}

/// The size of an engine's voice pool: see ``AudioEngine/configureVoices(_:)``.
public struct VoiceConfiguration: Sendable, Hashable {
    /// How many voices may be real (hold an OpenAL source) at once, players' sources
    /// included (a player counts as a pinned voice); nil: 7/8 of what the context grants less
    /// ``reservedSources``, the other 1/8 kept for voices fading out. Asked for a number, the
    /// pool adds a quarter of it for fading, within what the context grants.
    public var realVoices: Int?
    /// Sources the pool never takes when ``realVoices`` is nil: left for the game's own
    /// ``AudioSource``s (and for players beyond the pool's real voices). 32 by default; an
    /// engine that was never configured keeps at most a quarter of its context's sources.
    public var reservedSources: Int
    /// How many voices may play at once, real and virtual; past it the least important,
    /// least audible voice is stolen, or the play refused.
    public var maxVoices: Int
    /// Voices quieter than this gain (after volume, bus, distance and cone) are never made
    /// real, however many sources are free: 0.0001 is -80 dB.
    public var audibilityFloor: Float
    /// The seed of the generator variation draws from.
    public var seed: UInt64

    /// The defaults: real voices from what the context grants, 16,384 voices in all, -80 dB
    /// floor, seed 0.
    public init(realVoices: Int? = nil, reservedSources: Int = 32, maxVoices: Int = 16_384, audibilityFloor: Float = 0.0001,
                seed: UInt64 = 0) {
        self.realVoices = realVoices
        self.reservedSources = reservedSources
        self.maxVoices = maxVoices
        self.audibilityFloor = audibilityFloor
        self.seed = seed
    }

    /// The most voices a pool may hold.
    public static let maxVoicesRange: ClosedRange<Int> = 1...1_048_576
}

/// What an engine's voices are doing: see ``AudioEngine/voiceCounts``.
public struct VoiceCounts: Sendable, Hashable, CustomStringConvertible {
    /// Voices playing or paused (real and virtual).
    public var playing: Int
    /// Voices holding an OpenAL source.
    public var real: Int
    /// Voices playing without one.
    public var virtual: Int
    /// Paused voices (by ``Voice/pause()`` or their bus).
    public var paused: Int
    /// Voices stolen since the engine began.
    public var stolen: Int
    /// Plays refused since the engine began.
    public var refused: Int
    /// Sources the pool has lent to players (each counts as a pinned real voice).
    public var players = 0

    public var description: String {
        "\(playing) voices: \(real) real, \(virtual) virtual, \(paused) paused; \(stolen) stolen, \(refused) refused; \(players) player sources"
    }
}
