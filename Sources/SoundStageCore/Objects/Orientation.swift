#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The listener's facing: where it looks and which way is up. Both are normalised by
/// OpenAL; they must be non-zero and not parallel.
public struct Orientation: Sendable, Hashable {
    /// The direction the listener faces. Default (0, 0, -1).
    public var forward: SIMD3<Float>
    /// The listener's up direction. Default (0, 1, 0).
    public var up: SIMD3<Float>

    /// Creates an orientation.
    public init(forward: SIMD3<Float> = [0, 0, -1], up: SIMD3<Float> = [0, 1, 0]) {
        self.forward = forward
        self.up = up
    }

    /// The orientation of a listener turned by `yaw` radians around +Y (positive turns
    /// left, counter-clockwise seen from above) and tilted by `pitch` radians (positive looks
    /// up), starting from OpenAL's default facing -Z with +Y up.
    public init(yaw: Float, pitch: Float = 0) {
        let (sy, cy, sp, cp) = (sinf(yaw), cosf(yaw), sinf(pitch), cosf(pitch))
        forward = SIMD3(-sy * cp, sp, -cy * cp)
        up = SIMD3(sy * sp, cp, cy * sp)
    }

    /// Why OpenAL could not use this orientation, or nil.
    package var problem: String? {
        if let p = checkFinite(forward, "forward") ?? checkFinite(up, "up") { return p }
        func length(_ v: SIMD3<Float>) -> Float { (v * v).sum().squareRoot() }
        if length(forward) < 1e-6 { return "forward must not be zero" }
        if length(up) < 1e-6 { return "up must not be zero" }
        let cross = SIMD3(forward.y * up.z - forward.z * up.y, forward.z * up.x - forward.x * up.z, forward.x * up.y - forward.y * up.x)
        if length(cross) < 1e-6 * length(forward) * length(up) { return "forward and up must not be parallel, got \(forward) and \(up)" }
        return nil
    }
}
