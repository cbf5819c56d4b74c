import SoundStageCore

/// The distance models as types, so that the tick's loop over every voice is made once for
/// each (generic specialization) with its model a constant, not a switch for every voice.
enum DistanceLaw {
    protocol Model {
        static var model: DistanceModel { get }
        /// Whether a voice of rank tier `tier` and gain `gain` (volume, direct path and bus)
        /// is sure to rank below `least` (the least rank a source is kept for), worked out
        /// without its audibility's square root and division; false when unsure.
        static func cannotReach(tier: UInt64, gain: Float, flags: VoiceFlags, position: SIMD3<Float>, distance: VoiceDistance,
                                listener: ListenerSnapshot, least: UInt64) -> Bool
    }
    enum None: Model { static var model: DistanceModel { .none } }
    enum Inverse: Model { static var model: DistanceModel { .inverse } }
    enum InverseClamped: Model { static var model: DistanceModel { .inverseClamped } }
    enum Linear: Model { static var model: DistanceModel { .linear } }
    enum LinearClamped: Model { static var model: DistanceModel { .linearClamped } }
    enum Exponent: Model { static var model: DistanceModel { .exponent } }
    enum ExponentClamped: Model { static var model: DistanceModel { .exponentClamped } }

    /// How much louder than its bound a voice is taken to be, so that rounding never skips
    /// one that would have got in: a voice within 0.1 % of the least kept is worked out.
    static let margin: Float = 1.001
}

extension DistanceLaw.Model {
    @inline(__always)
    static func cannotReach(tier: UInt64, gain: Float, flags: VoiceFlags, position: SIMD3<Float>, distance: VoiceDistance,
                            listener: ListenerSnapshot, least: UInt64) -> Bool {
        // A lower tier (not pinned against pinned, a lower priority) never gets in.
        tier < least & ~0xFFFF_FFFF
    }
}

extension DistanceLaw.InverseClamped {
    /// Under OpenAL's default model, a positioned voice's audibility is at most
    /// `g L ref / (ref + r (d' - ref))` (g its gain, L the listener's, d' its distance clamped
    /// to reference...maximum, r its rolloff; its cone and the clamp to 1 only lower it). It
    /// is below the least kept audibility m when `r d' m > ref (g L - m + r m) = Y`, and since
    /// d' lies between min(d, maximum) and reference, that holds when `r maximum m > Y` and
    /// either `r ref m > Y` or `r d m > Y`: the last compared squared, with no square root.
    @inline(__always)
    static func cannotReach(tier: UInt64, gain: Float, flags: VoiceFlags, position p: SIMD3<Float>, distance: VoiceDistance,
                            listener: ListenerSnapshot, least: UInt64) -> Bool {
        let leastTier = least & ~0xFFFF_FFFF
        if tier != leastTier { return tier < leastTier }
        let m = Float(bitPattern: UInt32(truncatingIfNeeded: least))
        let ref = distance.reference, maximum = distance.maximum, r = distance.rolloff
        guard m > 0, flags.contains(.positioned), maximum >= ref, ref > 0, r >= 0 else { return false }
        let y = ref * (gain * listener.gain * DistanceLaw.margin - m + r * m)
        let rm = r * m
        guard rm * maximum > y else { return false }
        if rm * ref > y || y < 0 { return true }
        let l = flags.contains(.relative) ? SIMD3<Float>.zero : listener.position
        let dx = l.x - p.x, dy = l.y - p.y, dz = l.z - p.z
        return rm * rm * (dx * dx + dy * dy + dz * dz) > y * y * DistanceLaw.margin
    }
}
