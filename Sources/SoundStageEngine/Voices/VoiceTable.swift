import SoundStageCore
import SoundStageSession

/// What a voice is, packed in one lane of the table: the bits the service tick reads for
/// every voice each tick.
struct VoiceFlags: OptionSet {
    let rawValue: UInt16

    /// The slot holds a playing voice (else it is free).
    static let live = VoiceFlags(rawValue: 1 << 0)
    /// Paused by ``Voice/pause()``.
    static let paused = VoiceFlags(rawValue: 1 << 1)
    static let pinned = VoiceFlags(rawValue: 1 << 2)
    /// It has a position (else it plays at the listener).
    static let positioned = VoiceFlags(rawValue: 1 << 3)
    /// Positioned in the listener's space (``VoiceOptions/isRelative``).
    static let relative = VoiceFlags(rawValue: 1 << 4)
    /// It has a cone (in its details).
    static let hasCone = VoiceFlags(rawValue: 1 << 5)
    /// Its audibility must be worked out again (it moved, its volume changed...).
    static let needsRank = VoiceFlags(rawValue: 1 << 6)
    /// ``WhenVirtual/pause``: its playhead waits while it is virtual.
    static let pausesWhenVirtual = VoiceFlags(rawValue: 1 << 7)
    /// ``WhenVirtual/stop``: it ends rather than stay virtual.
    static let stopsWhenVirtual = VoiceFlags(rawValue: 1 << 8)
    /// Its rank was not worked out at the last tick: it could not reach a source (see
    /// ``DistanceLaw/cannotReach(tier:gain:flags:position:distance:listener:least:)``), and
    /// ``VoicePool/rankNow(_:_:)`` works it out when asked.
    static let rankUnknown = VoiceFlags(rawValue: 1 << 9)

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
/// lanes it needs (flags, bus, real, playhead and increment; the position, volume and distance
/// of a voice that moved; rank) one after the other in memory, and a hundred thousand voices
/// cost no more per voice than a thousand. What only a voice's start, end, source or handle
/// need is in ``details``.
///
/// A voice as a whole (to start one, or to change one by its handle) is a ``VoiceSlot``,
/// read with ``row(_:)`` and written with ``setRow(_:_:)``.
struct VoiceTable {
    /// The slots in use (free or playing); the lanes may hold more, not yet used.
    private(set) var count = 0
    var flags: [VoiceFlags] = []
    var bus: [Int32] = []
    /// Index in ``VoicePoolState/reals`` while real, -1 while virtual.
    var real: [Int32] = []
    /// Where it is in its sound, in the mixer's fixed point, every play counted, as of the
    /// pool's clock (negative for a voice that starts after it, between two ticks). A real
    /// voice's source is at the same place to the fraction of a frame.
    var playhead: [Int64] = []
    /// How far it moves each output frame, in the mixer's fixed point (``MixerStepping``):
    /// its sound's rate over the output's, times its pitch, rounded as OpenAL Soft rounds it.
    var increment: [Int64] = []
    /// Its plays' length in the mixer's fixed point (`Int64.max`: loops forever).
    var length: [Int64] = []
    var position: [SIMD3<Float>] = []
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
    var distance: [VoiceDistance] = []
    var pitch: [Float] = []
    var generation: [UInt32] = []
    private(set) var priority: [UInt8] = []
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
        playhead.append(contentsOf: repeatElement(0, count: n))
        increment.append(contentsOf: repeatElement(0, count: n))
        length.append(contentsOf: repeatElement(0, count: n))
        position.append(contentsOf: repeatElement(.zero, count: n))
        rank.append(contentsOf: repeatElement(0, count: n))
        volume.append(contentsOf: repeatElement(1, count: n))
        directGain.append(contentsOf: repeatElement(1, count: n))
        gain.append(contentsOf: repeatElement(1, count: n))
        tier.append(contentsOf: repeatElement(Audibility.rank(priority: 128, audibility: 0, pinned: false), count: n))
        distance.append(contentsOf: repeatElement(VoiceDistance(), count: n))
        pitch.append(contentsOf: repeatElement(1, count: n))
        generation.append(contentsOf: repeatElement(0, count: n))
        priority.append(contentsOf: repeatElement(128, count: n))
        details.append(contentsOf: repeatElement(VoiceDetails(), count: n))
    }

    /// Voice `i` as a whole.
    func row(_ i: Int) -> VoiceSlot {
        VoiceSlot(flags: flags[i], bus: bus[i], real: real[i], playhead: playhead[i], increment: increment[i], length: length[i],
                  position: position[i], rank: rank[i], volume: volume[i], directGain: directGain[i], distance: distance[i],
                  pitch: pitch[i], generation: generation[i], priority: priority[i])
    }

    /// Writes voice `i` as a whole (its details aside).
    mutating func setRow(_ i: Int, _ slot: VoiceSlot) {
        flags[i] = slot.flags
        bus[i] = slot.bus
        real[i] = slot.real
        playhead[i] = slot.playhead
        increment[i] = slot.increment
        length[i] = slot.length
        position[i] = slot.position
        rank[i] = slot.rank
        volume[i] = slot.volume
        directGain[i] = slot.directGain
        gain[i] = slot.volume * slot.directGain
        tier[i] = Audibility.rank(priority: slot.priority, audibility: 0, pinned: slot.isPinned)
        distance[i] = slot.distance
        pitch[i] = slot.pitch
        generation[i] = slot.generation
        priority[i] = slot.priority
    }

    func isLive(_ i: Int) -> Bool { flags[i].contains(.live) }

    /// One flag of voice `i`.
    subscript(_ flag: VoiceFlags, _ i: Int) -> Bool {
        get { flags[i].contains(flag) }
        set { flags[i].set(flag, newValue) }
    }

    func whenVirtual(_ i: Int) -> WhenVirtual { flags[i].whenVirtual }
}

/// The lanes the service tick goes through, as buffers: its loop over every voice makes no
/// bounds or uniqueness checks.
struct TickLanes {
    let count: Int
    let flags: UnsafeMutableBufferPointer<VoiceFlags>
    let playhead: UnsafeMutableBufferPointer<Int64>
    let rank: UnsafeMutableBufferPointer<UInt64>
    let bus: UnsafeBufferPointer<Int32>
    let real: UnsafeBufferPointer<Int32>
    let increment: UnsafeBufferPointer<Int64>
    let length: UnsafeBufferPointer<Int64>
    let position: UnsafeBufferPointer<SIMD3<Float>>
    let gain: UnsafeBufferPointer<Float>
    let distance: UnsafeBufferPointer<VoiceDistance>
    let tier: UnsafeBufferPointer<UInt64>
    let details: UnsafeBufferPointer<VoiceDetails>
}

extension VoiceTable {
    /// Runs `body` with the tick's lanes.
    mutating func withTickLanes<R>(_ body: (TickLanes) -> R) -> R {
        let count = self.count
        return flags.withUnsafeMutableBufferPointer { flags in
            playhead.withUnsafeMutableBufferPointer { playhead in
                rank.withUnsafeMutableBufferPointer { rank in
                    bus.withUnsafeBufferPointer { bus in
                        real.withUnsafeBufferPointer { real in
                            increment.withUnsafeBufferPointer { increment in
                                length.withUnsafeBufferPointer { length in
                                    position.withUnsafeBufferPointer { position in
                                        gain.withUnsafeBufferPointer { gain in
                                            tier.withUnsafeBufferPointer { tier in
                                                distance.withUnsafeBufferPointer { distance in
                                                    details.withUnsafeBufferPointer { details in
                                                        body(TickLanes(count: count, flags: flags, playhead: playhead, rank: rank, bus: bus,
                                                                       real: real, increment: increment, length: length, position: position,
                                                                       gain: gain, distance: distance, tier: tier, details: details))
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
    /// Runs `body` with the lanes a move writes: generation (read), flags, position, real
    /// (read).
    mutating func withMoveLanes<R>(_ body: (UnsafeBufferPointer<UInt32>, UnsafeMutableBufferPointer<VoiceFlags>,
                                            UnsafeMutableBufferPointer<SIMD3<Float>>, UnsafeBufferPointer<Int32>) -> R) -> R {
        generation.withUnsafeBufferPointer { generation in
            flags.withUnsafeMutableBufferPointer { flags in
                position.withUnsafeMutableBufferPointer { position in
                    real.withUnsafeBufferPointer { real in body(generation, flags, position, real) }
                }
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
    var playhead: Int64 = 0
    var increment: Int64 = 0
    var length: Int64 = 0
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
