/// A place in the world with a reverb of its own, as FMOD's reverb spheres and Unity's
/// `AudioReverbZone` have: inside its inner shape the listener hears its reverb in full,
/// beyond its outer shape not at all, and in between the reverb fades in as the listener
/// walks in. Add zones to an engine with ``AudioEngine/addReverbZone(_:)``; the service loop
/// blends them by the listener's position.
///
/// ```swift
/// let cave = ReverbZone(name: "cave", shape: .sphere(center: [0, 0, -20], innerRadius: 8, outerRadius: 14),
///                       reverb: Reverb(preset: .cave))
/// try engine.addReverbZone(cave)
/// ```
public struct ReverbZone: Sendable, Hashable {
    /// Where a zone is.
    public enum Shape: Sendable, Hashable {
        /// A ball: full inside `innerRadius` of `center`, nothing beyond `outerRadius`.
        case sphere(center: SIMD3<Float>, innerRadius: Float, outerRadius: Float)
        /// An axis-aligned box: full inside `innerHalfExtents` of `center` on every axis,
        /// nothing beyond `outerHalfExtents` on any axis.
        case box(center: SIMD3<Float>, innerHalfExtents: SIMD3<Float>, outerHalfExtents: SIMD3<Float>)
    }

    /// The zone's name, for tools and errors (unique among an engine's zones).
    public var name: String
    /// Where the zone is.
    public var shape: Shape
    /// The reverb heard inside.
    public var reverb: Reverb

    /// A zone named `name` of `shape` with `reverb`.
    public init(name: String, shape: Shape, reverb: Reverb) {
        self.name = name
        self.shape = shape
        self.reverb = reverb
    }

    /// How much of the zone a listener at `position` is in: 1 inside the inner shape, 0
    /// beyond the outer one, and in between a smooth step (no corner at either edge) of the
    /// way in. On a box every axis counts and the one furthest out decides.
    public func weight(at position: SIMD3<Float>) -> Float {
        let across: Float
        switch shape {
        case .sphere(let center, let inner, let outer):
            let d = ((position - center) * (position - center)).sum().squareRoot()
            across = Self.across(d, inner: inner, outer: outer)
        case .box(let center, let inner, let outer):
            let offset = position - center
            let d = SIMD3(abs(offset.x), abs(offset.y), abs(offset.z))
            across = min(Self.across(d.x, inner: inner.x, outer: outer.x),
                         min(Self.across(d.y, inner: inner.y, outer: outer.y), Self.across(d.z, inner: inner.z, outer: outer.z)))
        }
        return across * across * (3 - 2 * across)
    }

    /// 1 at or inside `inner`, 0 at or beyond `outer`, linear in between.
    private static func across(_ d: Float, inner: Float, outer: Float) -> Float {
        if d <= inner { return 1 }
        if d >= outer { return 0 }
        return (outer - d) / (outer - inner)
    }

    /// What is wrong with the zone, naming it; nil when it is usable.
    package func problem() -> String? {
        if name.isEmpty { return "a reverb zone needs a name" }
        switch shape {
        case .sphere(let center, let inner, let outer):
            let reach = SIMD3(repeating: outer)
            guard (center - reach).isFinite, (center + reach).isFinite, inner.isFinite, inner >= 0, outer > inner else {
                return "reverb zone \(name): a sphere needs 0 <= inner radius < outer radius, and to lie within finite space, got \(inner) and \(outer) around \(center)"
            }
        case .box(let center, let inner, let outer):
            guard (center - outer).isFinite, (center + outer).isFinite, inner.isFinite, all(inner .>= 0), all(outer .> inner) else {
                return "reverb zone \(name): a box needs 0 <= inner < outer half extents on every axis, and to lie within finite space, got \(inner) and \(outer) around \(center)"
            }
        }
        if let problem = reverb.problem() { return "reverb zone \(name): \(problem)" }
        return nil
    }
}
