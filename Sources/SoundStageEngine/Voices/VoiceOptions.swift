import SoundStageCore
import SoundStageSession

/// How one voice plays, beyond its sound, place, volume and pitch: the options of
/// ``AudioEngine/play(_:at:volume:pitch:priority:loops:bus:options:)``.
public struct VoiceOptions: Sendable, Hashable {
    /// Never made virtual: the voice keeps a real source as long as it plays (music, a
    /// line of dialog). Pinned voices are real before any other; if more are pinned than
    /// there are real voices, the most important and audible of them are.
    public var isPinned = false
    /// What the voice does while virtual.
    public var whenVirtual = WhenVirtual.keepTime
    /// OpenAL's distance attenuation for this voice, under the context's distance model:
    /// the distance at which the voice is heard at its own volume...
    public var referenceDistance: Float = 1
    /// ...the distance past which it falls off no further (clamped models)...
    public var maxDistance: Float = .greatestFiniteMagnitude
    /// ...and how fast it falls off.
    public var rolloffFactor: Float = 1
    /// A directional voice (a loudspeaker, a character facing away); nil radiates evenly.
    public var cone: VoiceCone?
    /// Whether the position is in the listener's space (it moves with the listener), as
    /// OpenAL's `AL_SOURCE_RELATIVE`; absolute coordinates by default.
    public var isRelative = false
    /// Pitch and volume drawn for this play, replacing the sound's own
    /// (``VoiceRules/variation``); nil uses the sound's.
    public var variation: Variation?

    /// The default options: not pinned, keeps time while virtual, OpenAL's distance
    /// defaults, no cone, the sound's variation.
    public init(isPinned: Bool = false, whenVirtual: WhenVirtual = .keepTime, referenceDistance: Float = 1,
                maxDistance: Float = .greatestFiniteMagnitude, rolloffFactor: Float = 1, cone: VoiceCone? = nil,
                variation: Variation? = nil, isRelative: Bool = false) {
        self.isPinned = isPinned
        self.whenVirtual = whenVirtual
        self.referenceDistance = referenceDistance
        self.maxDistance = maxDistance
        self.rolloffFactor = rolloffFactor
        self.cone = cone
        self.variation = variation
        self.isRelative = isRelative
    }
}

/// What a voice does while it is virtual (holds no OpenAL source).
public enum WhenVirtual: String, Sendable, Hashable, CaseIterable {
    /// Its playhead keeps time with the engine clock, loops included, so it comes back in
    /// phase (the default; right for loops and ambience).
    case keepTime
    /// Its playhead waits, and it goes on from there when it is real again (right for
    /// speech and one-shots that must be heard whole).
    case pause
    /// It ends (``VoiceEnd/culled``): a short effect nobody will hear is not worth keeping.
    case stop
}

/// A directional voice, as OpenAL's source cone: full volume within `innerAngle` of
/// `direction`, `outerGain` beyond `outerAngle`, and a blend between.
public struct VoiceCone: Sendable, Hashable {
    /// Where the voice faces (need not be normalized; not zero).
    public var direction: SIMD3<Float>
    /// The inner cone's whole angle in degrees, 0...360.
    public var innerAngle: Float
    /// The outer cone's whole angle in degrees, 0...360.
    public var outerAngle: Float
    /// The gain outside the outer cone, 0...1.
    public var outerGain: Float

    /// A cone facing `direction`.
    public init(direction: SIMD3<Float>, innerAngle: Float, outerAngle: Float, outerGain: Float) {
        self.direction = direction
        self.innerAngle = innerAngle
        self.outerAngle = outerAngle
        self.outerGain = outerGain
    }
}

/// Random pitch and volume factors drawn for each play, so a sound played over and over
/// (footsteps, gunfire) does not sound mechanical. Drawn from the engine's seeded generator
/// (``VoiceConfiguration/seed``): two offline renders with the same seed are identical.
public struct Variation: Sendable, Hashable {
    /// The factor the voice's pitch is multiplied by, e.g. `0.95...1.05`.
    public var pitch: ClosedRange<Float>
    /// The factor the voice's volume is multiplied by, e.g. `0.8...1`.
    public var volume: ClosedRange<Float>

    /// No variation.
    public static let none = Variation(pitch: 1...1, volume: 1...1)

    /// Variation by these factors.
    public init(pitch: ClosedRange<Float> = 1...1, volume: ClosedRange<Float> = 1...1) {
        self.pitch = pitch
        self.volume = volume
    }
}
