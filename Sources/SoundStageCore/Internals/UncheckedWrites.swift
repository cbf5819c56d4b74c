import COpenAL
import Synchronization

/// One property write handed to OpenAL without an `alGetError` after it.
package struct UncheckedWrite {
    /// What was written to.
    enum Target { case source, listener, context }
    var target: Target
    /// The OpenAL name of the source (0 for the listener and the context).
    var object: ALuint
    /// The parameter, e.g. `AL_POSITION`.
    var param: Int32

    /// The write in one word: target, parameter (OpenAL's property enums fit 16 bits) and
    /// object name.
    var packed: UInt64 {
        let t: UInt64
        switch target {
        case .source: t = 1
        case .listener: t = 2
        case .context: t = 3
        }
        return t << 56 | UInt64(UInt16(truncatingIfNeeded: param)) << 32 | UInt64(object)
    }

    /// A write from ``packed``; nil for 0 (no write).
    init?(packed: UInt64) {
        switch packed >> 56 {
        case 1: target = .source
        case 2: target = .listener
        case 3: target = .context
        default: return nil
        }
        param = Int32(UInt16(truncatingIfNeeded: packed >> 32))
        object = ALuint(truncatingIfNeeded: packed)
    }

    init(target: Target, object: ALuint, param: Int32) {
        self.target = target
        self.object = object
        self.param = param
    }

    /// For example `AL_POSITION of source 7`.
    var description: String {
        let what: String
        switch target {
        case .source: what = "source \(object)"
        case .listener: what = "the listener"
        case .context: what = "the context"
        }
        return "\(alParameterName(param)) of \(what)"
    }
}

/// The property writes made into one context since its error state was last checked.
///
/// Property writes are validated in Swift before OpenAL sees them, so OpenAL has no reason
/// to refuse one; checking `alGetError` after each would double the cost of a setter (it
/// takes OpenAL Soft's list lock). They are noted in the context's ``UncheckedJournal``
/// instead, in a few plain stores, and checked together: at the end of an update batch, on
/// the engine's service tick, by ``AudioContext/checkErrors()``, and by the next checked call
/// in the same context, which checks them before its own call (so an error is pinned on the
/// writes that caused it) and hands what it finds to the context's sink (the engine's events,
/// else the log) instead of failing a call that did nothing wrong. This is a snapshot of the
/// journal. Which writes an error is pinned on is best effort when several threads write to
/// one context at once; that an error is found is not.
struct UncheckedWrites {
    var count = 0
    var first: UncheckedWrite?
    var last: UncheckedWrite?

    /// For an error message: how many, the first and the last.
    var summary: String {
        guard let first, let last else { return "no writes" }
        if count == 1 { return "the write of \(first.description)" }
        return "one of \(count) property writes (the first \(first.description), the last \(last.description))"
    }
}

/// Where a context notes its unchecked writes. Its words are atomics written with relaxed
/// plain stores (no locked instruction): a direct vector write notes itself without the
/// gateway lock (see ``OpenAL/withThreadContext(_:_:)``). Under a race the count may come out
/// low or the first and last may not be the very first and last; the check itself is
/// `alGetError`, which misses nothing.
struct UncheckedJournal: ~Copyable {
    private let count = Atomic<Int>(0)
    private let first = Atomic<UInt64>(0)
    private let last = Atomic<UInt64>(0)
    /// Where an error found for these writes by an unrelated call goes (an engine's event
    /// queue); nil sends it to the log.
    let sink = LockedBox<(@Sendable (SoundStageError) -> Void)?>(nil)
    /// Whether the context was destroyed with its device (``AudioDevice/close()``): its
    /// objects' calls are refused and their names are gone. Set and read under the gateway
    /// lock, but for a direct write's read.
    let closed = Atomic<Bool>(false)

    init() {}

    @inline(__always)
    func note(_ write: UncheckedWrite) {
        let n = count.load(ordering: .relaxed)
        if n == 0 { first.store(write.packed, ordering: .relaxed) }
        last.store(write.packed, ordering: .relaxed)
        count.store(n + 1, ordering: .relaxed)
    }

    @inline(__always)
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    /// What the journal holds, and empties it.
    func take() -> UncheckedWrites {
        let firstWrite = UncheckedWrite(packed: first.exchange(0, ordering: .relaxed))
        let lastWrite = UncheckedWrite(packed: last.exchange(0, ordering: .relaxed))
        return UncheckedWrites(count: count.exchange(0, ordering: .relaxed), first: firstWrite, last: lastWrite)
    }
}

/// The name of an AL parameter SoundStage writes, for messages.
func alParameterName(_ param: Int32) -> String {
    switch param {
    case AL_POSITION: return "AL_POSITION"
    case AL_VELOCITY: return "AL_VELOCITY"
    case AL_DIRECTION: return "AL_DIRECTION"
    case AL_ORIENTATION: return "AL_ORIENTATION"
    case AL_GAIN: return "AL_GAIN"
    case AL_MIN_GAIN: return "AL_MIN_GAIN"
    case AL_MAX_GAIN: return "AL_MAX_GAIN"
    case AL_PITCH: return "AL_PITCH"
    case AL_CONE_INNER_ANGLE: return "AL_CONE_INNER_ANGLE"
    case AL_CONE_OUTER_ANGLE: return "AL_CONE_OUTER_ANGLE"
    case AL_CONE_OUTER_GAIN: return "AL_CONE_OUTER_GAIN"
    case AL_REFERENCE_DISTANCE: return "AL_REFERENCE_DISTANCE"
    case AL_MAX_DISTANCE: return "AL_MAX_DISTANCE"
    case AL_ROLLOFF_FACTOR: return "AL_ROLLOFF_FACTOR"
    case AL_SOURCE_RELATIVE: return "AL_SOURCE_RELATIVE"
    case AL_LOOPING: return "AL_LOOPING"
    case AL_SEC_OFFSET: return "AL_SEC_OFFSET"
    case AL_SAMPLE_OFFSET: return "AL_SAMPLE_OFFSET"
    case AL_BYTE_OFFSET: return "AL_BYTE_OFFSET"
    case AL_DISTANCE_MODEL: return "AL_DISTANCE_MODEL"
    case AL_DOPPLER_FACTOR: return "AL_DOPPLER_FACTOR"
    case AL_SPEED_OF_SOUND: return "AL_SPEED_OF_SOUND"
    case AL_SOURCE_RADIUS: return "AL_SOURCE_RADIUS"
    case AL_STEREO_ANGLES: return "AL_STEREO_ANGLES"
    case AL_DIRECT_CHANNELS_SOFT: return "AL_DIRECT_CHANNELS_SOFT"
    case AL_SOURCE_SPATIALIZE_SOFT: return "AL_SOURCE_SPATIALIZE_SOFT"
    case AL_SOURCE_RESAMPLER_SOFT: return "AL_SOURCE_RESAMPLER_SOFT"
    case AL_SOURCE_DISTANCE_MODEL: return "AL_SOURCE_DISTANCE_MODEL"
    default: return "parameter 0x\(String(param, radix: 16))"
    }
}
