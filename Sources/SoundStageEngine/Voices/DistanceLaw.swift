import SoundStageCore

/// The distance models as types, so that the tick's loop over every voice is made once for
/// each (generic specialization) with its model a constant, not a switch for every voice.
enum DistanceLaw {
    protocol Model {
        static var model: DistanceModel { get }
        /// Whether voice `i` of the tick's lanes (`v`), of rank tier `tier` (pinned, priority), with
        /// `flags` and its bus's gain `busGain`, is sure to rank below `floor` (the least rank a
        /// source is kept for), worked out without its audibility's square root and division;
        /// false when unsure.
        static func cannotReach(_ v: ReachLanes, _ i: Int, tier: UInt64, flags: VoiceFlags, busGain: Float, floor: RankFloor,
                                listener: ListenerSnapshot) -> Bool
        /// Whether the four voices `i` to `i + 3` (`i` a multiple of four), positioned in the
        /// world with no cone, of the floor's tier and on one bus of gain `busGain`, are all sure
        /// to rank below `floor`: the bound of ``cannotReach(_:_:tier:flags:busGain:floor:listener:)``
        /// four at a time, the same arithmetic in each lane. False when unsure of any.
        static func cannotReachFour(_ v: ReachLanes, _ i: Int, busGain: Float, floor: RankFloor, listener: ListenerSnapshot) -> Bool
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

/// The least rank a source is kept for at this point of a tick, with what the bound of
/// ``DistanceLaw/Model/cannotReach(_:_:tier:flags:busGain:floor:listener:)`` needs of it, worked
/// out once each time it changes rather than for every voice.
struct RankFloor {
    /// The least kept rank (0 while places are free).
    let least: UInt64
    /// Its tier: pinned, then priority.
    let tier: UInt64
    /// The listener's gain over the least kept audibility, with the margin
    /// (``DistanceLaw/margin``); infinite while places are free (nothing is sure to rank below).
    let scale: Float

    /// While places are free: no voice is sure to rank below.
    static let open = RankFloor(least: 0, tier: 0, scale: .infinity)

    init(least: UInt64, tier: UInt64, scale: Float) {
        self.least = least
        self.tier = tier
        self.scale = scale
    }

    init(least: UInt64, listenerGain: Float) {
        let m = Float(bitPattern: UInt32(truncatingIfNeeded: least))
        self.init(least: least, tier: least & ~0xFFFF_FFFF, scale: m > 0 ? listenerGain * DistanceLaw.margin / m : .infinity)
    }
}

extension DistanceLaw.Model {
    @inline(__always)
    static func cannotReach(_ v: ReachLanes, _ i: Int, tier: UInt64, flags: VoiceFlags, busGain: Float, floor: RankFloor,
                            listener: ListenerSnapshot) -> Bool {
        // A lower tier (not pinned against pinned, a lower priority) never gets in.
        tier < floor.tier
    }

    /// Of the floor's tier, a voice may get in: only the default model has a bound on its
    /// audibility.
    @inline(__always)
    static func cannotReachFour(_ v: ReachLanes, _ i: Int, busGain: Float, floor: RankFloor, listener: ListenerSnapshot) -> Bool {
        false
    }
}

extension DistanceLaw.InverseClamped {
    /// Under OpenAL's default model, a positioned voice's audibility is at most
    /// `g L ref / (ref + r (d' - ref))` (g its gain with its bus's, L the listener's, d' its
    /// distance clamped to reference...maximum, r its rolloff; its cone and the clamp to 1
    /// only lower it). That is below the least kept audibility m when d' is beyond
    /// `t = (ref g_v / r) (g_bus L / m) + ref (r - 1) / r`, whose first factor and last term
    /// the voice keeps in its ``VoiceTable/reach`` lane: one multiply-add. Since d' lies in
    /// reference...maximum, a `t` under the reference means no place of the voice reaches, one
    /// at the maximum or beyond means any may, and between, it reaches no place farther than
    /// `t`: the distance compared squared, with no square root.
    @inline(__always)
    static func cannotReach(_ v: ReachLanes, _ i: Int, tier: UInt64, flags: VoiceFlags, busGain: Float, floor: RankFloor,
                            listener: ListenerSnapshot) -> Bool {
        if tier != floor.tier { return tier < floor.tier }
        guard flags.contains(.positioned) else { return false }
        let t = v.reach(0, of: i) * (busGain * floor.scale) + v.reach(1, of: i)
        // Under the reference by more than the margin: the margin is on the whole `t` here, as
        // in the first term alone it is lost in rounding when the rolloff is large (a voice
        // tied with the least kept, of a lower slot, must not be skipped).
        if t * DistanceLaw.margin < v.reach(2, of: i) { return true }
        guard t < v.reach(3, of: i) else { return false }
        let p = v.position.point(i)
        let l = flags.contains(.relative) ? SIMD3<Float>.zero : listener.position
        let dx = l.x - p.x, dy = l.y - p.y, dz = l.z - p.z
        return dx * dx + dy * dy + dz * dz > t * t * DistanceLaw.margin
    }

    /// The bound of ``cannotReach(_:_:tier:flags:busGain:floor:listener:)`` for four voices at
    /// once (`i` a multiple of four), each lane one voice: their reach read in columns, their
    /// positions read as three rows of four floats and turned into columns.
    @inline(__always)
    static func cannotReachFour(_ v: ReachLanes, _ i: Int, busGain: Float, floor: RankFloor, listener: ListenerSnapshot) -> Bool {
        let scale = busGain * floor.scale
        let l = listener.position
        let (x, y, z) = v.position.columns(from: i)
        let dx = SIMD4(repeating: l.x) - x, dy = SIMD4(repeating: l.y) - y, dz = SIMD4(repeating: l.z) - z
        // Summed in the single voice's order: x, then y, then z.
        let squared = dx * dx + dy * dy + dz * dz
        // All four beyond the farthest any voice reaches (``ReachBound``), with that under every
        // voice's maximum: none reaches, and their own reach is not read. (`scale` is never
        // negative: bus volumes are in 0...1, and OpenAL takes no negative listener gain.) A
        // NaN or infinite bound (the floor open, a voice the bound does not hold for) skips
        // none here.
        let farthest = v.bound.farthest(scale)
        if farthest < v.bound.maximum,
           SIMD4<Int32>.zero.replacing(with: 1, where: squared .> SIMD4(repeating: farthest * farthest * DistanceLaw.margin)) == SIMD4(repeating: 1) {
            return true
        }
        let t = v.reachOfFour(0, from: i) * scale + v.reachOfFour(1, from: i)
        // Only the far side of the bound: a voice whose `t` is under its reference (skipped
        // alone for that) takes the four to the one-at-a-time path. A NaN `t` is skipped by
        // neither.
        // As integer lanes, compared whole: a mask's `==` goes lane by lane, with a branch each.
        let inside = SIMD4<Int32>.zero.replacing(with: 1, where: t .< v.reachOfFour(3, from: i))
        let beyond = SIMD4<Int32>.zero.replacing(with: 1, where: squared .> t * t * DistanceLaw.margin)
        return inside & beyond == SIMD4(repeating: 1)
    }

    /// A voice's ``VoiceTable/reach`` lane: `ref g_v / r` (g_v its volume and direct gain),
    /// `ref (r - 1) / r`, its reference and its maximum distance; the first infinite where the
    /// bound does not hold (no rolloff, a reference of 0 or less, a maximum under the
    /// reference), so that no place of the voice is skipped.
    static func reach(gain: Float, distance: VoiceDistance) -> SIMD4<Float> {
        let ref = distance.reference, maximum = distance.maximum, r = distance.rolloff
        guard r > 0, ref > 0, maximum >= ref, gain >= 0, r.isFinite, ref.isFinite, gain.isFinite else {
            return SIMD4(.infinity, 0, 0, .infinity)
        }
        return SIMD4(ref * gain / r, ref * (r - 1) / r, ref, maximum)
    }
}
