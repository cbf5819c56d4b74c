import Foundation
import SoundStageCore
import SoundStageSession

/// How loud a voice would be heard, worked out as OpenAL Soft works out a source's gain:
/// its gain (volume times bus), times the distance attenuation of the context's model, times
/// its cone, clamped to 0...1 (the source's default minimum and maximum gain), times the
/// listener's gain. The pool ranks voices by it.
enum Audibility {
    /// The audibility of a voice in `slot` whose bus gives `busGain`, heard by `listener`.
    @inline(__always)
    static func of(_ slot: borrowing VoiceSlot, cone: VoiceCone?, busGain: Float, listener: ListenerSnapshot) -> Float {
        of(gain: slot.volume * busGain * slot.directGain, flags: slot.flags, position: slot.position, distance: slot.distance,
           cone: cone, listener: listener)
    }

    /// The audibility of a voice of `gain` (volume, bus, direct path) with `flags` (whether it
    /// is positioned, and relative), at `position`, heard by `listener`: what the tick works out
    /// from the table's lanes.
    @inline(__always)
    static func of(gain: Float, flags: VoiceFlags, position p: SIMD3<Float>, distance: VoiceDistance, cone: VoiceCone?,
                   listener: ListenerSnapshot) -> Float {
        var gain = gain
        if gain <= 0 { return 0 }
        if flags.contains(.positioned) {
            // Scalar arithmetic: the generic SIMD3 operations cost several times as much in
            // the loop every voice goes through.
            let l = flags.contains(.relative) ? SIMD3<Float>.zero : listener.position
            let dx = l.x - p.x, dy = l.y - p.y, dz = l.z - p.z
            let d = (dx * dx + dy * dy + dz * dz).squareRoot()
            gain *= listener.model.gain(distance: d, referenceDistance: distance.reference, maxDistance: distance.maximum,
                                        rolloff: distance.rolloff)
            if let cone { gain *= coneGain(cone, toListener: SIMD3(dx, dy, dz), distance: d) }
        }
        return min(1, max(0, gain)) * listener.gain
    }

    /// The cone's gain toward a listener `offset` away (listener minus voice), as OpenAL
    /// computes it: the angle between the cone's direction and the listener, doubled,
    /// against the inner and outer angles.
    static func coneGain(_ cone: VoiceCone, toListener offset: SIMD3<Float>, distance: Float) -> Float {
        let length = (cone.direction * cone.direction).sum().squareRoot()
        guard distance > 0, length > 0 else { return 1 }
        let cosine = max(-1, min(1, (cone.direction * offset).sum() / (length * distance)))
        let angle = acosf(cosine) * 180 / .pi * 2
        if angle <= cone.innerAngle { return 1 }
        if angle >= cone.outerAngle { return cone.outerGain }
        let x = (angle - cone.innerAngle) / (cone.outerAngle - cone.innerAngle)
        return 1 + (cone.outerGain - 1) * x
    }

    /// The rank of a voice for a source: pinned voices first, then by priority, then by
    /// audibility (a positive float's bits order as the float does).
    @inline(__always)
    static func rank(priority: UInt8, audibility: Float, pinned: Bool) -> UInt64 {
        (pinned ? 1 << 41 : 0) | UInt64(priority) << 32 | UInt64(audibility.bitPattern)
    }
}
