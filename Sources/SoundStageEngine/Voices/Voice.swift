import SoundStageCore
import SoundStageSession

/// A handle to one sound the engine plays through its voice pool: returned by
/// ``AudioEngine/play(_:at:volume:pitch:priority:loops:bus:options:)``, for fire-and-forget
/// sounds (drop it) and controlled ones (keep it to move, change or stop the sound).
///
/// A voice is real while it holds one of the pool's OpenAL sources, and virtual while it
/// does not: a virtual voice costs a few bytes, and its playhead keeps time with the engine
/// clock (loops included), so when it becomes real again it comes in at the sample it would
/// have reached. The handle is a slot index plus a generation: once the voice ends, the
/// slot may serve another voice, and this handle never reaches it.
///
/// Every operation on a voice that has ended (finished, stopped, stolen, culled, refused) is
/// harmless: the property setters and ``stop()`` do nothing, ``isValid`` and ``status`` say
/// why, and the throwing `set...` forms throw
/// ``SoundStageError/Code-swift.struct/voiceEnded`` naming the reason. A play the rules
/// refused returns a voice that has ended as ``VoiceEnd/refused``; ``refusal`` says why.
public struct Voice: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline let pool: VoicePool
    /// The voice's slot in its engine's table.
    public let index: UInt32
    /// Which use of the slot this voice is.
    public let generation: UInt32

    init(pool: VoicePool, index: UInt32, generation: UInt32) {
        self.pool = pool
        self.index = index
        self.generation = generation
    }

    /// The index of every refused play's handle: no slot has it.
    static let refusedIndex = UInt32.max

    /// A refused play of the sound at `soundEntry` of the pool: the reason in the low byte of
    /// the generation, the entry above it (the handle stays 16 bytes).
    init(pool: VoicePool, refused why: VoiceRefusal, soundEntry: Int) {
        self.init(pool: pool, index: Self.refusedIndex, generation: UInt32(min(soundEntry, 0xFF_FFFF)) << 8 | UInt32(why.rawValue))
    }

    /// Why the play was refused (see ``VoiceRefusal``); nil for a play that was accepted,
    /// whatever became of it since.
    public var refusal: VoiceRefusal? {
        index == Self.refusedIndex ? VoiceRefusal(rawValue: UInt8(generation & 0xFF)) : nil
    }

    /// The pool's entry of a refused play's sound.
    var refusedSoundEntry: Int? { index == Self.refusedIndex ? Int(generation >> 8) : nil }

    public static func == (a: Voice, b: Voice) -> Bool {
        a.pool === b.pool && a.index == b.index && a.generation == b.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(pool))
        hasher.combine(index)
        hasher.combine(generation)
    }

    /// For example `voice 12.3 (snare.wav)`, or `refused voice (snare.wav: played again
    /// sooner than its rules' minimum interval)`.
    public var description: String {
        let label = pool.soundLabel(of: self)
        if let refusal { return "refused voice (\(label.map { "\($0): " } ?? "")\(refusal))" }
        return "voice \(index).\(generation)\(label.map { " (\($0))" } ?? "")"
    }

    /// Whether the voice still plays (real or virtual) or is paused.
    public var isValid: Bool {
        switch status {
        case .ended: return false
        default: return true
        }
    }

    /// Real, virtual, paused, or ended and why.
    public var status: VoiceStatus { pool.status(of: self) }

    /// Whether the voice holds an OpenAL source now.
    public var isReal: Bool { status == .real }

    /// Stops the voice (it ends as ``VoiceEnd/stopped``). Harmless on an ended voice.
    ///
    /// - Returns: whether the voice was still playing or paused.
    @discardableResult
    public func stop() -> Bool { pool.stop(self) }

    /// Pauses the voice: its playhead stays where it is, and it gives up its source (it
    /// competes for one again when resumed). Harmless on an ended voice.
    ///
    /// - Returns: whether the voice was playing.
    @discardableResult
    public func pause() -> Bool { pool.setPaused(self, true) }

    /// Resumes a paused voice from where it paused.
    ///
    /// - Returns: whether the voice was paused.
    @discardableResult
    public func resume() -> Bool { pool.setPaused(self, false) }

    /// Where the voice is in the 3D world (absolute coordinates); nil plays it unpositioned,
    /// at the listener. Setting a non-finite value, or any value on an ended voice, is
    /// ignored; ``setPosition(_:)`` throws instead.
    public var position: SIMD3<Float>? {
        get { pool.read(self) { $0.positioned ? $0.position : nil } ?? nil }
        nonmutating set { try? setPosition(newValue) }
    }

    /// How fast the voice moves, in units per second, for Doppler (OpenAL's `AL_VELOCITY`);
    /// it does not move the voice. Non-finite values and ended voices are ignored;
    /// ``setVelocity(_:)`` throws instead.
    public var velocity: SIMD3<Float> {
        get { pool.readDetails(self) { $0.velocity } ?? .zero }
        nonmutating set { try? setVelocity(newValue) }
    }

    /// Sets ``velocity``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a non-finite
    ///   velocity, ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setVelocity(_ velocity: SIMD3<Float>) throws {
        guard velocity.isFinite else {
            throw pool.failure(.invalidArgument, of: "Voice", "setVelocity(\(velocity))", "\(self): the velocity must be finite")
        }
        try pool.change(self, "setVelocity(_:)", writing: .velocity) { _, details in details.velocity = velocity }
    }

    /// The voice's own gain (variation included), before its bus: 1 plays the sound as
    /// recorded, and up to 16 boosts it before distance attenuation, as OpenAL's source gain
    /// does (what reaches the mix is clamped to 1 after attenuation, OpenAL's maximum gain).
    /// Out-of-range values are clamped; ``setVolume(_:)`` throws instead.
    public var volume: Float {
        get { pool.read(self) { $0.volume } ?? 0 }
        nonmutating set { if !newValue.isNaN { try? setVolume(Voice.volumeRange.clamping(newValue)) } }
    }

    /// The voice's pitch (and speed), ``pitchRange`` (clamped); ``setPitch(_:)`` throws instead.
    public var pitch: Float {
        get { pool.read(self) { $0.pitch } ?? 1 }
        nonmutating set { if !newValue.isNaN { try? setPitch(Voice.pitchRange.clamping(newValue)) } }
    }

    /// The allowed ``volume`` values.
    public static let volumeRange: ClosedRange<Float> = 0...16
    /// The allowed ``pitch`` values.
    public static let pitchRange: ClosedRange<Float> = 0.25...4
    /// The allowed priorities: higher wins.
    public static let priorityRange: ClosedRange<Int> = 0...255
    /// The allowed `loops` of a play: -1 forever, 0 once, N plays N+1 times.
    public static let loopsRange: ClosedRange<Int> = -1...1_000_000_000

    /// Moves the voice (nil: unpositioned, at the listener).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a non-finite
    ///   position, ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setPosition(_ position: SIMD3<Float>?) throws {
        if let position, !position.isFinite {
            throw pool.failure(.invalidArgument, of: "Voice", "setPosition(\(position))", "\(self): the position must be finite")
        }
        try pool.change(self, "setPosition(_:)", writing: .placement) { slot, _ in
            slot.positioned = position != nil
            slot.position = position ?? .zero
        }
    }

    /// Sets ``volume``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside ``volumeRange``,
    ///   ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setVolume(_ volume: Float) throws {
        guard volume.isFinite, Self.volumeRange.contains(volume) else {
            throw pool.failure(.invalidArgument, of: "Voice", "setVolume(\(volume))", "\(self): the volume must be in \(Self.volumeRange)")
        }
        try pool.change(self, "setVolume(_:)", writing: .gain) { slot, _ in slot.volume = volume }
    }

    /// Sets ``pitch``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside ``pitchRange``,
    ///   ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setPitch(_ pitch: Float) throws {
        guard pitch.isFinite, Self.pitchRange.contains(pitch) else {
            throw pool.failure(.invalidArgument, of: "Voice", "setPitch(\(pitch))", "\(self): the pitch must be in \(Self.pitchRange)")
        }
        try pool.change(self, "setPitch(_:)", writing: .pitch) { slot, _ in slot.pitch = pitch }
    }

    /// How much of a wall stands between the voice and the listener, 0...1 (see
    /// ``Occlusion``): its direct sound loses highs and level, and it ranks as heard through
    /// it. Kept in steps of 0.01; out-of-range values are clamped.
    public var occlusion: Float {
        get { pool.readDetails(self) { $0.occlusion } ?? 0 }
        nonmutating set { try? setOcclusion(Occlusion.quantized(newValue), obstruction: obstruction) }
    }

    /// How much is in the way (the room still shared), 0...1 (see ``Occlusion``).
    public var obstruction: Float {
        get { pool.readDetails(self) { $0.obstruction } ?? 0 }
        nonmutating set { try? setOcclusion(occlusion, obstruction: Occlusion.quantized(newValue)) }
    }

    /// Sets ``occlusion`` and ``obstruction`` together.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1,
    ///   ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setOcclusion(_ occlusion: Float, obstruction: Float = 0) throws {
        guard Occlusion.range.contains(occlusion), Occlusion.range.contains(obstruction) else {
            throw pool.failure(.invalidArgument, of: "Voice", "setOcclusion(\(occlusion), obstruction: \(obstruction))", "\(self): each must be in 0...1")
        }
        let (c, b) = (Occlusion.quantized(occlusion), Occlusion.quantized(obstruction))
        try pool.change(self, "setOcclusion(_:obstruction:)", writing: .effects) { slot, details in
            details.occlusion = c
            details.obstruction = b
            slot.directGain = Occlusion.directGain(occlusion: c, obstruction: b)
        }
    }

    /// How much of the voice goes to effects (its bus's effect and the reverb zones), 0...1:
    /// 1 by default, 0 keeps it dry. Kept in steps of 0.01; out-of-range values are clamped.
    public var sendLevel: Float {
        get { pool.readDetails(self) { $0.sendLevel } ?? 1 }
        nonmutating set { if !newValue.isNaN { try? setSendLevel(Occlusion.quantized(newValue)) } }
    }

    /// Sets ``sendLevel``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1,
    ///   ``SoundStageError/Code-swift.struct/voiceEnded`` once the voice has ended.
    public func setSendLevel(_ level: Float) throws {
        guard Occlusion.range.contains(level) else {
            throw pool.failure(.invalidArgument, of: "Voice", "setSendLevel(\(level))", "\(self): the send level must be in 0...1")
        }
        try pool.change(self, "setSendLevel(_:)", writing: .effects) { _, details in details.sendLevel = Occlusion.quantized(level) }
    }

    /// The playhead in frames of the sound, counting every play from the first (a looping
    /// voice's grows without end); nil once ended. A virtual voice's keeps time too.
    public var playheadFrames: Double? { pool.playheadFrames(of: self) }
}

/// Where a voice stands.
public enum VoiceStatus: Sendable, Hashable, CustomStringConvertible {
    /// Playing on one of the pool's OpenAL sources.
    case real
    /// Playing without a source: its playhead keeps time (or waits, per
    /// ``VoiceOptions/whenVirtual``) until it is audible enough to be real.
    case virtual
    /// Paused by ``Voice/pause()`` or its bus.
    case paused
    /// Ended, and why.
    case ended(VoiceEnd)

    public var description: String {
        switch self {
        case .real: return "real"
        case .virtual: return "virtual"
        case .paused: return "paused"
        case .ended(let why): return "ended (\(why))"
        }
    }
}

/// Why a voice ended.
public enum VoiceEnd: String, Sendable, Hashable, CustomStringConvertible {
    /// It played to its end.
    case finished
    /// ``Voice/stop()``, its engine's ``AudioEngine/stopVoices()`` or ``AudioEngine/shutdown()``.
    case stopped
    /// A more important or more audible voice took its place: every voice slot was in use
    /// (``VoiceConfiguration/maxVoices``), or its sound reached its instance limit
    /// (``VoiceRules/maxInstances``).
    case stolen
    /// It would have become virtual and its options say stop (``WhenVirtual/stop``).
    case culled
    /// Its engine went away.
    case engineGone
    /// It never played: its sound's rules, its options or a full pool refused the play
    /// (``Voice/refusal`` says which).
    case refused
    /// The slot has served two later voices since; why this one ended is forgotten.
    case unknown

    public var description: String { rawValue }
}
