/// How occlusion and obstruction (each 0...1) become a filter on a sound's direct path, the
/// way games model a wall between the listener and a sound:
/// - obstruction (something in the way, the room still shared): the direct sound loses highs
///   and a little level: gain × (1 - 0.5 b), high frequencies × (1 - 0.9 b);
/// - occlusion (another room): it loses much of both: gain × (1 - 0.75 c), high
///   frequencies × (1 - 0.95 c).
/// Both together multiply. What a sound sends to effects (its bus's effect, reverb zones)
/// is muffled by occlusion alone, since an obstructed sound still fills the room.
public enum Occlusion {
    /// The allowed values of each.
    public static let range: ClosedRange<Float> = 0...1

    /// The direct path's filter for `occlusion` and `obstruction`; nil when both are 0.
    public static func directFilter(occlusion: Float, obstruction: Float) -> FilterSettings? {
        guard occlusion > 0 || obstruction > 0 else { return nil }
        return .lowpass(gain: directGain(occlusion: occlusion, obstruction: obstruction),
                        gainHF: (1 - 0.9 * obstruction) * (1 - 0.95 * occlusion))
    }

    /// The filter on what a sound sends to effects: occlusion muffles it as it does the
    /// direct sound, and `level` (0...1, how much of the sound goes to effects) scales it;
    /// nil for none.
    public static func sendFilter(occlusion: Float, level: Float) -> FilterSettings? {
        guard occlusion > 0 || level < 1 else { return nil }
        return .lowpass(gain: level * (1 - 0.75 * occlusion), gainHF: 1 - 0.95 * occlusion)
    }

    /// The direct path's broadband gain (what audibility counts).
    public static func directGain(occlusion: Float, obstruction: Float) -> Float {
        (1 - 0.5 * obstruction) * (1 - 0.75 * occlusion)
    }

    /// `value` kept to 0...1 in steps of 0.01 (NaN reads 0), so a few filters serve every value.
    package static func quantized(_ value: Float) -> Float {
        value.isNaN ? 0 : (range.clamping(value) * 100).rounded() / 100
    }
}
