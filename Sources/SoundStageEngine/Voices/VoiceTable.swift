import SoundStageCore
import SoundStageSession

/// What a voice is, packed in one lane of the table: the bits the service tick reads for
/// every voice each tick.
@usableFromInline
struct VoiceFlags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt16

    @inlinable init(rawValue: UInt16) { self.rawValue = rawValue }

    // `live`, `positioned` and `needsRank` are computed and inlinable: `VoicePositions`' moves,
    // inlined into the game's module, read and write them as constants.

    /// The slot holds a playing voice (else it is free).
    @inlinable static var live: VoiceFlags { VoiceFlags(rawValue: 1 << 0) }
    /// Paused by ``Voice/pause()``.
    static let paused = VoiceFlags(rawValue: 1 << 1)
    static let pinned = VoiceFlags(rawValue: 1 << 2)
    /// It has a position (else it plays at the listener).
    @inlinable static var positioned: VoiceFlags { VoiceFlags(rawValue: 1 << 3) }
    /// Positioned in the listener's space (``VoiceOptions/isRelative``).
    static let relative = VoiceFlags(rawValue: 1 << 4)
    /// It has a cone (in its details).
    static let hasCone = VoiceFlags(rawValue: 1 << 5)
    /// Its audibility must be worked out again (it moved, its volume changed...).
    @inlinable static var needsRank: VoiceFlags { VoiceFlags(rawValue: 1 << 6) }
    /// ``WhenVirtual/pause``: its playhead waits while it is virtual.
    static let pausesWhenVirtual = VoiceFlags(rawValue: 1 << 7)
    /// ``WhenVirtual/stop``: it ends rather than stay virtual.
    static let stopsWhenVirtual = VoiceFlags(rawValue: 1 << 8)
    /// Its rank was not worked out at the last tick: it could not reach a source (see
    /// ``DistanceLaw/Model/cannotReach(_:_:tier:flags:busGain:floor:listener:)``), and
    /// ``VoicePool/rankNow(_:_:)`` works it out when asked.
    static let rankUnknown = VoiceFlags(rawValue: 1 << 9)
    /// It holds a source (``VoiceTable/real`` is its index in the real voices): the tick
    /// reads it here, with the other bits, rather than in a lane of its own.
    static let real = VoiceFlags(rawValue: 1 << 10)
    /// It never reaches an end (its ``VoiceTable/end`` is `Int64.max`: it loops forever, or
    /// does not move): the tick does not read its end. Written with its end
    /// (``VoiceTable/setTiming(_:playhead:increment:length:at:)``, ``VoiceTable/setRow(_:_:)``);
    /// a bit left clear only costs the read.
    static let endless = VoiceFlags(rawValue: 1 << 11)

    /// The bits of `whenVirtual`.
    static func of(_ whenVirtual: WhenVirtual) -> VoiceFlags {
        switch whenVirtual {
        case .keepTime: []
        case .pause: .pausesWhenVirtual
        case .stop: .stopsWhenVirtual
        }
    }
}

/// How a voice's gain falls with distance: the three source properties of the context's
/// distance model.
struct VoiceDistance {
    var reference: Float = 1
    var maximum: Float = .greatestFiniteMagnitude
    var rolloff: Float = 1
}

/// The pool's voices, one per slot, as a structure of arrays: each field of a voice is a lane
/// of its own, so the service tick, which goes through every voice each tick, reads only the
/// lanes it needs (flags, bus, end; the tier, reach and position of a voice that moved; rank)
/// one after the other in memory, and a hundred thousand voices cost no more per voice than a
/// thousand. What only a voice's start, end, source or handle need is in ``details``.
///
/// A voice as a whole (to start one, or to change one by its handle) is a ``VoiceSlot``,
/// read with ``row(_:)`` and written with ``setRow(_:_:)``; its playhead, increment and length
/// with ``setTiming(_:playhead:increment:length:at:)`` and ``playhead(_:at:)``.
struct VoiceTable {
    /// The slots in use (free or playing); the lanes may hold more, not yet used.
    private(set) var count = 0
    var flags: [VoiceFlags] = []
    private(set) var bus: [Int32] = []
    /// Index in ``VoicePoolState/reals`` while real, -1 while virtual (written with
    /// ``setReal(_:_:)``, which keeps the ``VoiceFlags/real`` bit with it).
    private(set) var real: [Int32] = []
    /// Where it would be in its sound at pool clock frame 0 had it never waited, in the
    /// mixer's fixed point, every play counted: its playhead at clock frame `c` is
    /// `origin + c * increment` (``playhead(_:at:)``), so the tick moves no playhead. A voice
    /// that waits through a tick has its origin moved back by the time it waited
    /// (``hold(_:by:)``). A real voice's source is where its playhead says, to the fraction
    /// of a frame.
    private(set) var origin: [Int64] = []
    /// The pool clock frame its playhead reaches its length at (`Int64.max`: never): all the
    /// tick reads to find a virtual voice that ended.
    private(set) var end: [Int64] = []
    /// How far it moves each output frame, in the mixer's fixed point (``MixerStepping``):
    /// its sound's rate over the output's, times its pitch, rounded as OpenAL Soft rounds it.
    private(set) var increment: [Int64] = []
    /// Its plays' length in the mixer's fixed point (`Int64.max`: loops forever).
    private(set) var length: [Int64] = []
    /// Where it is: three floats a voice (``PointLane``).
    private(set) var position: [Float] = []
    /// What ranks it for a source: pinned, then priority, then audibility (its low 32 bits).
    var rank: [UInt64] = []
    private(set) var volume: [Float] = []
    /// The direct path's gain from occlusion and obstruction (1 without).
    private(set) var directGain: [Float] = []
    /// Volume times direct gain: what the tick multiplies by the bus's gain.
    private(set) var gain: [Float] = []
    /// The high bits of its rank: pinned, then priority (``Audibility/rank(priority:audibility:pinned:)``
    /// with no audibility).
    private(set) var tier: [UInt64] = []
    private(set) var distance: [VoiceDistance] = []
    /// What the tick's bound under the default distance model reads instead of the gain and
    /// distance lanes (``DistanceLaw/InverseClamped/reach(gain:distance:)``), in columns of
    /// four voices: `reach[4 g + k]` holds part `k` of voices `4 g` to `4 g + 3`, so that the
    /// tick loads one part of four voices at once (``ReachLanes``). Written with ``setReach(_:_:)``.
    private(set) var reach: [SIMD4<Float>] = []
    /// What no live voice's reach passes (it may pass more: it takes in every reach written,
    /// and is worked out again from the live voices every ``reachBoundTicks`` ticks).
    private(set) var reachBound = ReachBound()
    /// Ticks since ``reachBound`` was worked out from the live voices.
    private var reachBoundAge = 0
    var pitch: [Float] = []
    var generation: [UInt32] = []
    private(set) var priority: [UInt8] = []
    /// What each four slots share of ``bus`` and ``priority`` (``FourSlots``): `fours[g]` is
    /// slots `4 g` to `4 g + 3`.
    private(set) var fours: [FourSlots] = []
    /// What the tick does not read.
    var details: [VoiceDetails] = []

    var indices: Range<Int> { 0..<count }

    /// Adds a free slot. The lanes grow by a block of slots at a time (one append per lane
    /// for the block, not for every play); the slots past ``count`` wait there, free.
    mutating func appendFree() {
        if count == flags.count { grow(by: Self.block) }
        count += 1
    }

    /// The slots the lanes grow by.
    static let block = 64

    private mutating func grow(by n: Int) {
        flags.append(contentsOf: repeatElement([], count: n))
        bus.append(contentsOf: repeatElement(0, count: n))
        real.append(contentsOf: repeatElement(-1, count: n))
        origin.append(contentsOf: repeatElement(0, count: n))
        end.append(contentsOf: repeatElement(.max, count: n))
        increment.append(contentsOf: repeatElement(0, count: n))
        length.append(contentsOf: repeatElement(0, count: n))
        position.append(contentsOf: repeatElement(0, count: 3 * n))
        rank.append(contentsOf: repeatElement(0, count: n))
        volume.append(contentsOf: repeatElement(1, count: n))
        directGain.append(contentsOf: repeatElement(1, count: n))
        gain.append(contentsOf: repeatElement(1, count: n))
        tier.append(contentsOf: repeatElement(Audibility.rank(priority: 128, audibility: 0, pinned: false), count: n))
        distance.append(contentsOf: repeatElement(VoiceDistance(), count: n))
        // In columns: slot 4 g + k holds part k of four voices.
        precondition(n & 3 == 0 && reach.count & 3 == 0, "the reach lane grows by whole columns of four voices")
        let reachOfNone = DistanceLaw.InverseClamped.reach(gain: 1, distance: VoiceDistance())
        for k in 0..<n { reach.append(SIMD4(repeating: reachOfNone[k & 3])) }
        pitch.append(contentsOf: repeatElement(1, count: n))
        generation.append(contentsOf: repeatElement(0, count: n))
        priority.append(contentsOf: repeatElement(128, count: n))
        fours.append(contentsOf: repeatElement(FourSlots(buses: .zero, priorities: SIMD4(repeating: 128)), count: n / 4))
        details.append(contentsOf: repeatElement(VoiceDetails(), count: n))
    }

    /// Voice `i` as a whole.
    func row(_ i: Int) -> VoiceSlot {
        VoiceSlot(flags: flags[i], bus: bus[i], real: real[i], position: SIMD3(position[3 * i], position[3 * i + 1], position[3 * i + 2]),
                  rank: rank[i], volume: volume[i], directGain: directGain[i], distance: distance[i], pitch: pitch[i],
                  generation: generation[i], priority: priority[i])
    }

    /// Writes voice `i` as a whole (its details aside).
    mutating func setRow(_ i: Int, _ slot: VoiceSlot) {
        var slotFlags = slot.flags
        slotFlags.set(.real, slot.real >= 0)
        slotFlags.set(.endless, end[i] == .max)
        flags[i] = slotFlags
        bus[i] = slot.bus
        real[i] = slot.real
        (position[3 * i], position[3 * i + 1], position[3 * i + 2]) = (slot.position.x, slot.position.y, slot.position.z)
        rank[i] = slot.rank
        volume[i] = slot.volume
        directGain[i] = slot.directGain
        gain[i] = slot.volume * slot.directGain
        tier[i] = Audibility.rank(priority: slot.priority, audibility: 0, pinned: slot.isPinned)
        distance[i] = slot.distance
        setReach(i, DistanceLaw.InverseClamped.reach(gain: slot.volume * slot.directGain, distance: slot.distance))
        pitch[i] = slot.pitch
        generation[i] = slot.generation
        priority[i] = slot.priority
        let first = i & ~3
        fours[first / 4] = FourSlots(buses: SIMD4(bus[first], bus[first + 1], bus[first + 2], bus[first + 3]),
                                     priorities: SIMD4(priority[first], priority[first + 1], priority[first + 2], priority[first + 3]))
    }

    func isLive(_ i: Int) -> Bool { flags[i].contains(.live) }

    /// Writes voice `i`'s four parts of ``reach``, each in its column.
    private mutating func setReach(_ i: Int, _ parts: SIMD4<Float>) {
        let first = i & ~3, lane = i & 3
        for k in 0..<4 { reach[first + k][lane] = parts[k] }
        reachBound.include(parts)
    }

    /// How many ticks ``reachBound`` may take in the reach of voices that ended, at most
    /// (2.56 s at the default tick of 10 ms) before it is worked out from the live voices again.
    static let reachBoundTicks = 256

    /// Counts a tick; every ``reachBoundTicks`` ticks, works ``reachBound`` out again from the
    /// live voices alone.
    mutating func ageReachBound() {
        reachBoundAge += 1
        guard reachBoundAge >= Self.reachBoundTicks else { return }
        reachBoundAge = 0
        var bound = ReachBound()
        for i in indices where flags[i].contains(.live) {
            let first = i & ~3, lane = i & 3
            bound.include(SIMD4(reach[first][lane], reach[first + 1][lane], reach[first + 2][lane], reach[first + 3][lane]))
        }
        reachBound = bound
    }

    /// Voice `i`'s playhead at pool clock frame `clock`.
    func playhead(_ i: Int, at clock: Int) -> Int64 {
        origin[i] &+ Int64(clock) &* increment[i]
    }

    /// Sets voice `i`'s playhead at pool clock frame `clock`, its increment and its length.
    mutating func setTiming(_ i: Int, playhead: Int64, increment inc: Int64, length len: Int64, at clock: Int) {
        increment[i] = inc
        length[i] = len
        origin[i] = playhead &- Int64(clock) &* inc
        end[i] = Self.endClock(playhead: playhead, increment: inc, length: len, at: clock)
        flags[i].set(.endless, end[i] == .max)
    }

    /// Sets voice `i`'s playhead at pool clock frame `clock`.
    mutating func setPlayhead(_ i: Int, _ playhead: Int64, at clock: Int) {
        setTiming(i, playhead: playhead, increment: increment[i], length: length[i], at: clock)
    }

    /// Sets voice `i`'s increment from pool clock frame `clock` on (its playhead there kept).
    mutating func setIncrement(_ i: Int, _ inc: Int64, at clock: Int) {
        setTiming(i, playhead: playhead(i, at: clock), increment: inc, length: length[i], at: clock)
    }

    /// Voice `i` waits `frames` of the pool clock: its playhead stays where it was.
    mutating func hold(_ i: Int, by frames: Int64) {
        origin[i] &-= frames &* increment[i]
        end[i] = Self.end(end[i], heldBy: frames)
    }

    /// An end clock frame `end` once its voice waited `frames` (never stays never).
    @inline(__always)
    static func end(_ end: Int64, heldBy frames: Int64) -> Int64 {
        guard end != .max else { return .max }
        let (moved, over) = end.addingReportingOverflow(frames)
        return over ? .max : moved
    }

    /// The first clock frame at which a playhead of `playhead` at `clock`, moving `increment`
    /// a frame, reaches `length` (`Int64.max` for never).
    static func endClock(playhead: Int64, increment: Int64, length: Int64, at clock: Int) -> Int64 {
        guard length != .max, increment > 0 else { return .max }
        guard playhead < length else { return Int64(clock) }
        let (left, over) = length.subtractingReportingOverflow(playhead)
        guard !over else { return .max }
        let frames = left / increment + (left % increment == 0 ? 0 : 1)
        let (end, late) = Int64(clock).addingReportingOverflow(frames)
        return late ? .max : end
    }

    /// Voice `i` holds real voice `r` (-1: none): the lane and the flag.
    mutating func setReal(_ i: Int, _ r: Int32) {
        real[i] = r
        flags[i].set(.real, r >= 0)
    }

    /// One flag of voice `i`.
    subscript(_ flag: VoiceFlags, _ i: Int) -> Bool {
        get { flags[i].contains(flag) }
        set { flags[i].set(flag, newValue) }
    }

    func whenVirtual(_ i: Int) -> WhenVirtual { flags[i].whenVirtual }
}

extension VoiceTable {
    /// Runs `body` with the tick's lanes.
    mutating func withTickLanes<R>(_ body: (TickLanes) -> R) -> R {
        let count = self.count, reachBound = self.reachBound
        return flags.withUnsafeMutableBufferPointer { flags in
            origin.withUnsafeMutableBufferPointer { origin in
                end.withUnsafeMutableBufferPointer { end in
                    rank.withUnsafeMutableBufferPointer { rank in
                        bus.withUnsafeBufferPointer { bus in
                            increment.withUnsafeBufferPointer { increment in
                                position.withUnsafeMutableBufferPointer { position in
                                    gain.withUnsafeBufferPointer { gain in
                                        distance.withUnsafeBufferPointer { distance in
                                            reach.withUnsafeBufferPointer { reach in
                                                tier.withUnsafeBufferPointer { tier in
                                                    priority.withUnsafeBufferPointer { priority in
                                                        fours.withUnsafeBufferPointer { fours in
                                                            details.withUnsafeBufferPointer { details in
                                                                body(TickLanes(count: count, flags: flags, origin: origin, end: end, rank: rank,
                                                                               bus: bus, increment: increment, position: PointLane(position), gain: gain,
                                                                               distance: distance, reach: reach, reachBound: reachBound, tier: tier,
                                                                               priority: priority, fours: fours, details: details))
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

extension VoiceTable {
    /// Runs `body` with the lanes a move writes: generation (read), flags, position.
    mutating func withMoveLanes<R>(_ body: (UnsafeBufferPointer<UInt32>, UnsafeMutableBufferPointer<VoiceFlags>,
                                            PointLane) -> R) -> R {
        generation.withUnsafeBufferPointer { generation in
            flags.withUnsafeMutableBufferPointer { flags in
                position.withUnsafeMutableBufferPointer { position in body(generation, flags, PointLane(position)) }
            }
        }
    }
}

/// One voice of the table as a whole: what a play fills in, and what a change by the voice's
/// handle reads and writes.
struct VoiceSlot {
    var flags: VoiceFlags = []
    var bus: Int32 = 0
    var real: Int32 = -1
    var position = SIMD3<Float>.zero
    var rank: UInt64 = 0
    var volume: Float = 1
    var directGain: Float = 1
    var distance = VoiceDistance()
    var pitch: Float = 1
    var generation: UInt32 = 0
    var priority: UInt8 = 128

    var isLive: Bool { flags.contains(.live) }
    var isPinned: Bool {
        get { flags.contains(.pinned) }
        set { flags.set(.pinned, newValue) }
    }
    var isPaused: Bool { flags.contains(.paused) }
    var positioned: Bool {
        get { flags.contains(.positioned) }
        set { flags.set(.positioned, newValue) }
    }
    var relative: Bool {
        get { flags.contains(.relative) }
        set { flags.set(.relative, newValue) }
    }
    var hasCone: Bool {
        get { flags.contains(.hasCone) }
        set { flags.set(.hasCone, newValue) }
    }
    var whenVirtual: WhenVirtual {
        get { flags.whenVirtual }
        set { flags = flags.subtracting([.pausesWhenVirtual, .stopsWhenVirtual]).union(.of(newValue)) }
    }
    /// Its gain after volume, bus, distance and cone, at the last tick (from its rank; 0
    /// while it waits).
    var audibility: Float { Float(bitPattern: UInt32(truncatingIfNeeded: rank)) }
}

extension VoiceFlags {
    /// Sets or clears `flag`.
    mutating func set(_ flag: VoiceFlags, _ on: Bool) {
        if on { insert(flag) } else { remove(flag) }
    }

    /// What the bits say of ``WhenVirtual``.
    var whenVirtual: WhenVirtual {
        contains(.stopsWhenVirtual) ? .stop : contains(.pausesWhenVirtual) ? .pause : .keepTime
    }
}
