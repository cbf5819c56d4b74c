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
    let position: UnsafeBufferPointer<SIMD4<Float>>
    let gain: UnsafeBufferPointer<Float>
    let distance: UnsafeBufferPointer<VoiceDistance>
    let reach: UnsafeBufferPointer<SIMD4<Float>>
    let tier: UnsafeBufferPointer<UInt64>
    /// The tier of a voice that is not pinned, in one byte (``tier`` is eight).
    let priority: UnsafeBufferPointer<UInt8>
    let details: UnsafeBufferPointer<VoiceDetails>

    /// The lanes a distance law's bound reads.
    var reachLanes: ReachLanes { ReachLanes(reach: reach, position: position) }

    /// Voice `i`'s position, in three lanes.
    @inline(__always)
    func point(_ i: Int) -> SIMD3<Float> {
        let p = position[i]
        return SIMD3(p.x, p.y, p.z)
    }

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
    let position: UnsafeBufferPointer<SIMD4<Float>>

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
