/// A small, fast random number generator that repeats for a given seed (SplitMix64), so
/// anything drawn from it, such as a voice's pitch variation, comes out the same in two
/// offline renders with the same seed. Use it for a game's own choices in a test or an
/// offline render that must repeat:
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let x = Float.random(in: -20...20, using: &generator)   // the same x in every run
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value drawn uniformly from `range` (its lower bound when it is a single value).
    package mutating func value(in range: ClosedRange<Float>) -> Float {
        range.lowerBound == range.upperBound ? range.lowerBound : Float.random(in: range, using: &self)
    }
}
