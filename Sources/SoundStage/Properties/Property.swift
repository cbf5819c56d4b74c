import COpenAL

/// A typed OpenAL property of an object of type `Owner` (``AudioSource``, ``Listener`` or
/// ``AudioContext``), read with `get(_:)` and written with `set(_:to:)`.
///
/// Each property knows its OpenAL parameter, how to validate a new value before OpenAL sees
/// it, and the extension it needs, if any:
///
/// ```swift
/// try source.set(.gain, to: 0.5)
/// try source.set(.position, to: [2, 0, -1])
/// let state = source.get(.state)
/// ```
public struct Property<Owner, Value: Sendable>: Sendable, CustomStringConvertible {
    /// An `alSourcefv`-shaped C function, for the vectors written straight through.
    typealias VectorWriter = @convention(c) (ALuint, ALenum, UnsafePointer<ALfloat>?) -> Void

    /// The property's name, e.g. `gain`.
    public let name: String
    /// The OpenAL parameter, e.g. `AL_GAIN`.
    let param: Int32
    /// Reads the value. Runs under the OpenAL lock with the owner's context current.
    let read: @Sendable (_ object: ALuint, _ param: Int32) -> Value
    /// Writes the value; nil for a read-only property. Runs like ``read``.
    let write: (@Sendable (_ object: ALuint, _ param: Int32, _ value: Value) -> Void)?
    /// Returns why `value` is invalid, or nil when it may be handed to OpenAL. Takes the
    /// property's name so that no validator captures anything: properties are built on every
    /// access, and a capturing closure would allocate on every setter call.
    let validate: @Sendable (_ value: Value, _ name: String) -> String?
    /// The AL extension the property needs, if any.
    let requiredExtension: String?
    /// For the playback offsets: which unit, so the source can check the value against its
    /// length.
    let offsetUnit: OffsetUnit?
    /// For a vector any finite value of which is valid, needing no extension (a source's
    /// position, velocity and direction): the C function that writes it, so the per-frame
    /// setters call OpenAL directly instead of going through the generic closures (measured:
    /// about 120 instructions a write less).
    let vectorWriter: VectorWriter?

    init(
        _ name: String, _ param: Int32, extension requiredExtension: String? = nil,
        read: @escaping @Sendable (ALuint, Int32) -> Value,
        write: (@Sendable (ALuint, Int32, Value) -> Void)?,
        validate: @escaping @Sendable (Value, String) -> String? = { _, _ in nil },
        offsetUnit: OffsetUnit? = nil,
        vectorWriter: VectorWriter? = nil
    ) {
        self.name = name
        self.param = param
        self.read = read
        self.write = write
        self.validate = validate
        self.requiredExtension = requiredExtension
        self.offsetUnit = offsetUnit
        self.vectorWriter = vectorWriter
    }

    /// Whether `set(_:to:)` is refused.
    public var isReadOnly: Bool { write == nil }

    /// The property's name.
    public var description: String { name }

    /// The same property for another owner type (the listener's table is written for
    /// ``Listener`` and applied through its internal owner class).
    func rebound<Other>(to: Other.Type) -> Property<Other, Value> {
        Property<Other, Value>(name, param, extension: requiredExtension, read: read, write: write,
                               validate: validate, offsetUnit: offsetUnit, vectorWriter: vectorWriter)
    }
}

/// The unit of a playback offset property.
enum OffsetUnit: Sendable {
    case seconds, samples, bytes
}

// MARK: - Validators shared by the property tables

enum ALValue {
    /// Finite and at least 0.
    static let atLeastZero: @Sendable (Float, String) -> String? = { check($0, 0 ... .greatestFiniteMagnitude, $1) }
    /// In 0...1.
    static let unit: @Sendable (Float, String) -> String? = { check($0, 0...1, $1) }
    /// An angle in 0...360 degrees.
    static let degrees: @Sendable (Float, String) -> String? = { check($0, 0...360, $1) }
    /// Every component finite.
    static let finiteVector: @Sendable (SIMD3<Float>, String) -> String? = { checkFinite($0, $1) }
}
