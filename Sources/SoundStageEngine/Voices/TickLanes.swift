import SoundStageCore
import SoundStageSession

/// The lanes the service tick goes through, as buffers: its loop over every voice makes no
/// bounds or uniqueness checks.
struct TickLanes {
    let count: Int
    let flags: UnsafeMutableBufferPointer<VoiceFlags>
    let origin: UnsafeMutableBufferPointer<Int64>
    let end: UnsafeMutableBufferPointer<Int64>
    let rank: UnsafeMutableBufferPointer<UInt64>
    let bus: UnsafeBufferPointer<Int32>
    let increment: UnsafeBufferPointer<Int64>
    let position: PointLane
    let gain: UnsafeBufferPointer<Float>
    let distance: UnsafeBufferPointer<VoiceDistance>
    let reach: UnsafeBufferPointer<SIMD4<Float>>
    /// What no live voice's reach passes (``VoiceTable/reachBound``).
    let reachBound: ReachBound
    let tier: UnsafeBufferPointer<UInt64>
    /// The tier of a voice that is not pinned, in one byte (``tier`` is eight).
    let priority: UnsafeBufferPointer<UInt8>
    /// What each four slots share of their bus and priority (``VoiceTable/fours``).
    let fours: UnsafeBufferPointer<FourSlots>
    let details: UnsafeBufferPointer<VoiceDetails>

    /// The lanes a distance law's bound reads.
    var reachLanes: ReachLanes { ReachLanes(reach: reach, bound: reachBound, position: position) }

    /// Voice `i`'s position.
    @inline(__always)
    func point(_ i: Int) -> SIMD3<Float> { position.point(i) }

    /// Voice `i` waits `frames` (``VoiceTable/hold(_:by:)``).
    @inline(__always)
    func hold(_ i: Int, by frames: Int64) {
        origin[i] &-= frames &* increment[i]
        end[i] = VoiceTable.end(end[i], heldBy: frames)
    }
}

/// What a distance law's bound reads of a voice
/// (``DistanceLaw/Model/cannotReach(_:_:tier:flags:busGain:floor:listener:)``), apart from the
/// rest of ``TickLanes``: a loop that holds these two in registers need not read them again
/// after each write to the table.
struct ReachLanes {
    /// ``VoiceTable/reach``, in columns of four voices.
    let reach: UnsafeBufferPointer<SIMD4<Float>>
    /// What no live voice's reach passes.
    let bound: ReachBound
    let position: PointLane

    /// Part `k` of voice `i`'s reach (``DistanceLaw/InverseClamped/reach(gain:distance:)``).
    @inline(__always)
    func reach(_ k: Int, of i: Int) -> Float {
        UnsafeRawPointer(reach.baseAddress.unsafelyUnwrapped).load(fromByteOffset: ((i & ~3) &+ k) &* 16 &+ (i & 3) &* 4, as: Float.self)
    }

    /// Part `k` of the reach of voices `i` to `i + 3`, `i` a multiple of four: one column.
    @inline(__always)
    func reachOfFour(_ k: Int, from i: Int) -> SIMD4<Float> {
        reach.baseAddress.unsafelyUnwrapped[i &+ k]
    }
}

/// What no live voice's ``VoiceTable/reach`` passes: the greatest of their first two parts,
/// and the least of their maximum distances. A voice's bound under the default model is
/// `t = reach0 s + reach1` (`s` its bus's gain over the least kept audibility, the same for
/// every voice on the bus), so `farthest(s)` is at least any voice's `t` (Float rounding is
/// monotonic: the greater parts give the greater or equal result). Four voices on one bus
/// beyond it, with it under the least maximum, cannot reach a source, and none of their own
/// reach is read (``DistanceLaw/InverseClamped/cannotReachFour(_:_:busGain:floor:listener:)``).
///
/// It takes in each reach written (``VoiceTable/setRow(_:_:)``), and is worked out again
/// from the live voices alone every ``VoiceTable/reachBoundTicks`` ticks, so that a loud
/// voice that ended stops widening it.
struct ReachBound: Equatable {
    /// The greatest first part, `ref g / r`.
    private(set) var gain: Float = 0
    /// The greatest second part, `ref (r - 1) / r`.
    private(set) var offset: Float = -.infinity
    /// The least maximum distance.
    private(set) var maximum: Float = .infinity

    /// Takes in one voice's reach.
    mutating func include(_ parts: SIMD4<Float>) {
        gain = Swift.max(gain, parts[0])
        offset = Swift.max(offset, parts[1])
        maximum = Swift.min(maximum, parts[3])
    }

    /// The farthest any voice could be heard at, its bus's gain times the floor's scale
    /// `scale`: the bound's `t` with the greatest parts, the same arithmetic in the same order.
    @inline(__always)
    func farthest(_ scale: Float) -> Float { gain * scale + offset }
}
