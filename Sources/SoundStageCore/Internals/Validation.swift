/// Why a float is not valid for `what` (not finite, or outside `range`), nil when it is.
func check(_ value: Float, _ range: ClosedRange<Float>, _ what: String) -> String? {
    if !value.isFinite { return "\(what) must be finite, got \(value)" }
    if !range.contains(value) {
        if range.upperBound == .greatestFiniteMagnitude {
            return "\(what) must be at least \(range.lowerBound), got \(value)"
        }
        return "\(what) must be in \(range.lowerBound)...\(range.upperBound), got \(value)"
    }
    return nil
}

/// Why a vector is not valid for `what` (a component not finite), nil when it is.
@inline(__always)
func checkFinite(_ value: SIMD3<Float>, _ what: String) -> String? {
    if !(value.x.isFinite && value.y.isFinite && value.z.isFinite) {
        return "\(what) must be finite, got \(value)"
    }
    return nil
}

extension SIMD3 where Scalar == Float {
    /// Whether every component is finite.
    @inline(__always)
    @inlinable package var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension ClosedRange {
    /// `value` brought into the range: the nearer bound when it lies outside.
    @inlinable package func clamping(_ value: Bound) -> Bound { Swift.min(upperBound, Swift.max(lowerBound, value)) }
}
