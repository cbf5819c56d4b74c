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
    /// What the property is, made once and kept for the life of the process by a property
    /// table (``SourceProperties``, ``ListenerProperties``, ``ContextProperties``). A
    /// property refers to it without retaining it: passing `.position` to a setter every
    /// frame copies a pointer, with no atomic reference counting (measured: each retain and
    /// release pair costs about as much as the lock).
    unowned(unsafe) let accessor: PropertyAccessor<Value>

    /// A property of an accessor a table keeps.
    init(_ accessor: PropertyAccessor<Value>) { self.accessor = accessor }

    /// The property's name, e.g. `gain`.
    public var name: String { accessor.definition.name }
    /// The OpenAL parameter, e.g. `AL_GAIN`.
    var param: Int32 { accessor.definition.param }
    var read: @Sendable (ALuint, Int32) -> Value { accessor.definition.read }
    package var write: (@Sendable (ALuint, Int32, Value) -> Void)? { accessor.definition.write }
    var validate: @Sendable (Value, String) -> String? { accessor.definition.validate }
    var requiredExtension: String? { accessor.definition.requiredExtension }
    var offsetUnit: OffsetUnit? { accessor.definition.offsetUnit }
    var vectorWriter: ALVectorWriter? { accessor.definition.vectorWriter }

    /// Whether `set(_:to:)` is refused.
    public var isReadOnly: Bool { accessor.definition.write == nil }

    /// The property's name.
    public var description: String { name }
}

/// Everything about one property.
struct PropertyDefinition<Value: Sendable>: Sendable {
    /// The property's name, e.g. `gain`.
    var name: String
    /// The OpenAL parameter, e.g. `AL_GAIN`.
    var param: Int32
    /// The AL extension the property needs, if any.
    var requiredExtension: String?
    /// Reads the value. Runs under the OpenAL lock with the owner's context current.
    var read: @Sendable (_ object: ALuint, _ param: Int32) -> Value
    /// Writes the value; nil for a read-only property. Runs like ``read``.
    package var write: (@Sendable (_ object: ALuint, _ param: Int32, _ value: Value) -> Void)?
    /// Returns why `value` is invalid, or nil when it may be handed to OpenAL.
    var validate: @Sendable (_ value: Value, _ name: String) -> String?
    /// For the playback offsets: which unit, so the source can check the value against its
    /// length.
    var offsetUnit: OffsetUnit?
    /// For a vector any finite value of which is valid, needing no extension (a source's
    /// position, velocity and direction): the C function that writes it, so the per-frame
    /// setters call OpenAL directly instead of going through the generic closures.
    var vectorWriter: ALVectorWriter?
}

/// A ``PropertyDefinition`` made once and kept for the life of the process by a property
/// table, so that a ``Property`` can refer to it without reference counting.
final class PropertyAccessor<Value: Sendable>: Sendable {
    let definition: PropertyDefinition<Value>

    /// Makes an accessor. Only the property tables make them, and keep them forever.
    init(
        _ name: String, _ param: Int32, extension requiredExtension: String? = nil,
        read: @escaping @Sendable (ALuint, Int32) -> Value,
        write: (@Sendable (ALuint, Int32, Value) -> Void)?,
        validate: @escaping @Sendable (Value, String) -> String? = { _, _ in nil },
        offsetUnit: OffsetUnit? = nil,
        vectorWriter: ALVectorWriter? = nil
    ) {
        definition = PropertyDefinition(name: name, param: param, requiredExtension: requiredExtension, read: read, write: write,
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
