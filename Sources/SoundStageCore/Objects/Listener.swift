import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    public func get<V>(_ property: Property<Listener, V>) -> V { readProperty(property) }

    /// Writes a listener property after validating it.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` naming the property and
    ///   what is wrong with the value.
    public func set<V>(_ property: Property<Listener, V>, to value: V) throws {
        try writeProperty(property, value)
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

extension Listener: PropertyOwner {
    var owningContext: AudioContext { context }
    var propertyObjectName: ALuint { 0 }
    var writeTarget: UncheckedWrite.Target { .listener }
    package var errorObject: String { "listener of \(context)" }
}

extension AudioContext {
    /// The listener of this context.
    public var listener: Listener { Listener(context: self) }
}

extension Property where Owner == Listener, Value == Float {
    /// Master gain of the context (`AL_GAIN` on the listener), at least 0. Default 1.
    public static var gain: Self { Self(ListenerProperties.gain) }
}

extension Property where Owner == Listener, Value == SIMD3<Float> {
    /// Position in the world (`AL_POSITION`). Default zero.
    public static var position: Self { Self(ListenerProperties.position) }
    /// Velocity in units per second, for Doppler (`AL_VELOCITY`). Default zero.
    public static var velocity: Self { Self(ListenerProperties.velocity) }
}

extension Property where Owner == Listener, Value == Orientation {
    /// Forward and up vectors (`AL_ORIENTATION`).
    public static var orientation: Self { Self(ListenerProperties.orientation) }
}

/// Every property of this file, made once and kept for the life of the process: the
/// `static var`s above hand out properties that refer to these without retaining them.
enum ListenerProperties {
    static let gain = PropertyAccessor<Float>("gain", AL_GAIN, read: { _, p in var v: Float = 0; alGetListenerf(p, &v); return v },
        write: { _, p, v in alListenerf(p, v) },
        validate: ALValue.atLeastZero)
    static let position: PropertyAccessor<SIMD3<Float>> = .vector("position", AL_POSITION)
    static let velocity: PropertyAccessor<SIMD3<Float>> = .vector("velocity", AL_VELOCITY)
    static let orientation = PropertyAccessor<Orientation>("orientation", AL_ORIENTATION,
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

    /// The properties a listener carries to a context on another device: all of them.
    static let carried: [PropertyCarrier] = [
        PropertyCarrier(gain), PropertyCarrier(position), PropertyCarrier(velocity), PropertyCarrier(orientation),
    ]
}

extension PropertyAccessor where Value == SIMD3<Float> {
    fileprivate static func vector(_ name: String, _ param: Int32) -> PropertyAccessor<SIMD3<Float>> {
        PropertyAccessor(name, param,
                 read: { _, p in
                     var x: Float = 0, y: Float = 0, z: Float = 0
                     alGetListener3f(p, &x, &y, &z)
                     return SIMD3(x, y, z)
                 },
                 write: { _, p, v in alListener3f(p, v.x, v.y, v.z) },
                 validate: ALValue.finiteVector)
    }
}
