import COpenAL
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
    var problem: String? {
        if let p = checkFinite(forward, "forward") ?? checkFinite(up, "up") { return p }
        func length(_ v: SIMD3<Float>) -> Float { (v * v).sum().squareRoot() }
        if length(forward) < 1e-6 { return "forward must not be zero" }
        if length(up) < 1e-6 { return "up must not be zero" }
        let cross = SIMD3(forward.y * up.z - forward.z * up.y, forward.z * up.x - forward.x * up.z, forward.x * up.y - forward.y * up.x)
        if length(cross) < 1e-6 * length(forward) * length(up) { return "forward and up must not be parallel, got \(forward) and \(up)" }
        return nil
    }
}

/// A 4x4 transform in column-major order, as game engines keep them: columns 0, 1 and 2 are
/// the local X (right), Y (up) and Z (back) axes, column 3 the translation.
public struct Transform: Sendable, Hashable {
    /// The four columns.
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// Creates a transform from its columns.
    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    /// The identity transform.
    public static let identity = Transform(columns: ([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]))

    /// The translation (column 3).
    public var position: SIMD3<Float> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }
    /// The facing: forward is -Z (minus column 2), up is +Y (column 1), the OpenGL and
    /// OpenAL convention.
    public var orientation: Orientation {
        Orientation(forward: -SIMD3(columns.2.x, columns.2.y, columns.2.z), up: SIMD3(columns.1.x, columns.1.y, columns.1.z))
    }

    /// Compares the sixteen values.
    public static func == (a: Transform, b: Transform) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2 && a.columns.3 == b.columns.3
    }

    /// Hashes the sixteen values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.0); hasher.combine(columns.1); hasher.combine(columns.2); hasher.combine(columns.3)
    }
}

/// The ears of a context: its position, velocity, facing and master gain.
///
/// ```swift
/// let listener = context.listener
/// try listener.set(.position, to: [0, 1.7, 0])
/// try listener.setPose(position: [0, 1.7, 0], yaw: .pi / 2)
/// ```
public struct Listener: Sendable {
    /// The context whose listener this is.
    public let context: AudioContext

    /// Reads a listener property.
    public func get<V>(_ property: Property<Listener, V>) -> V {
        ListenerOwner(context: context).readProperty(property.rebound())
    }

    /// Writes a listener property after validating it.
    public func set<V>(_ property: Property<Listener, V>, to value: V) throws {
        try ListenerOwner(context: context).writeProperty(property.rebound(), value)
    }

    /// Places the listener at `position`, turned by `yaw` and tilted by `pitch` (radians; see
    /// ``Orientation/init(yaw:pitch:)``).
    public func setPose(position: SIMD3<Float>, yaw: Float, pitch: Float = 0) throws {
        try set(.position, to: position)
        try set(.orientation, to: Orientation(yaw: yaw, pitch: pitch))
    }

    /// Places and turns the listener as a camera with this transform (see ``Transform``).
    public func setTransform(_ transform: Transform) throws {
        try set(.position, to: transform.position)
        try set(.orientation, to: transform.orientation)
    }
}

/// The class the shared property code works on; the public ``Listener`` is a value.
final class ListenerOwner: PropertyOwner {
    let context: AudioContext
    init(context: AudioContext) { self.context = context }
    var owningContext: AudioContext { context }
    var propertyObjectName: ALuint { 0 }
    var objectDescription: String { "listener of \(context)" }
}

extension Property where Owner == Listener {
    func rebound() -> Property<ListenerOwner, Value> {
        Property<ListenerOwner, Value>(name, param, extension: requiredExtension, read: read, write: write, validate: validate)
    }
}

extension Property where Owner == Listener, Value == Float {
    /// Master gain of the context (`AL_GAIN` on the listener), at least 0. Default 1.
    public static var gain: Self {
        Property("gain", AL_GAIN, read: { _, p in var v: Float = 0; alGetListenerf(p, &v); return v },
                 write: { _, p, v in alListenerf(p, v) },
                 validate: ALValue.atLeastZero)
    }
}

extension Property where Owner == Listener, Value == SIMD3<Float> {
    private static func vector(_ name: String, _ param: Int32) -> Self {
        Property(name, param,
                 read: { _, p in
                     var x: Float = 0, y: Float = 0, z: Float = 0
                     alGetListener3f(p, &x, &y, &z)
                     return SIMD3(x, y, z)
                 },
                 write: { _, p, v in alListener3f(p, v.x, v.y, v.z) },
                 validate: ALValue.finiteVector)
    }

    /// Position in the world (`AL_POSITION`). Default zero.
    public static var position: Self { vector("position", AL_POSITION) }
    /// Velocity in units per second, for Doppler (`AL_VELOCITY`). Default zero.
    public static var velocity: Self { vector("velocity", AL_VELOCITY) }
}

extension Property where Owner == Listener, Value == Orientation {
    /// Forward and up vectors (`AL_ORIENTATION`).
    public static var orientation: Self {
        Property("orientation", AL_ORIENTATION,
                 read: { _, p in
                     var v = [Float](repeating: 0, count: 6)
                     alGetListenerfv(p, &v)
                     return Orientation(forward: SIMD3(v[0], v[1], v[2]), up: SIMD3(v[3], v[4], v[5]))
                 },
                 write: { _, p, o in
                     let v: [Float] = [o.forward.x, o.forward.y, o.forward.z, o.up.x, o.up.y, o.up.z]
                     alListenerfv(p, v)
                 },
                 validate: { o, _ in o.problem })
    }
}
