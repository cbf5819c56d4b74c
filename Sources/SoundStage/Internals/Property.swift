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

    init(
        _ name: String, _ param: Int32, extension requiredExtension: String? = nil,
        read: @escaping @Sendable (ALuint, Int32) -> Value,
        write: (@Sendable (ALuint, Int32, Value) -> Void)?,
        validate: @escaping @Sendable (Value, String) -> String? = { _, _ in nil },
        offsetUnit: OffsetUnit? = nil
    ) {
        self.offsetUnit = offsetUnit
        self.name = name
        self.param = param
        self.read = read
        self.write = write
        self.validate = validate
        self.requiredExtension = requiredExtension
    }

    /// Whether `set(_:to:)` is refused.
    public var isReadOnly: Bool { write == nil }

    /// The property's name.
    public var description: String { name }
}

/// The bits shared by every owner: reading and writing a property with validation,
/// extension checks and the error check, under the OpenAL lock.
protocol PropertyOwner: AnyObject {
    /// The context whose current-ness the calls need.
    var owningContext: AudioContext { get }
    /// The OpenAL name passed to the property's reader and writer (0 for the listener and
    /// context).
    var propertyObjectName: ALuint { get }
    /// How errors name the object.
    var objectDescription: String { get }
}

extension PropertyOwner {
    func readProperty<V>(_ property: Property<Self, V>) -> V {
        let context = owningContext
        let name = propertyObjectName
        if let ext = property.requiredExtension, !context.isExtensionPresent(ext) {
            preconditionFailure("SoundStage: \(property.name) of \(objectDescription) needs \(ext), which this OpenAL lacks; check isExtensionPresent(\"\(ext)\") first")
        }
        do {
            return try OpenAL.withContext(context.handle) {
                try OpenAL.call("get(\(property.name))", on: objectDescription) {
                    property.read(name, property.param)
                }
            }
        } catch {
            // Reading a valid parameter of a live object cannot fail; if OpenAL says
            // otherwise the library is broken and the value would be meaningless.
            preconditionFailure("SoundStage: \(error)")
        }
    }

    func writeProperty<V>(_ property: Property<Self, V>, _ value: V, extraCheck: String? = nil) throws {
        // The operation's name is built only for an error: this is the hot path of every setter.
        guard let write = property.write else {
            throw SoundStageError(.readOnly, operation: "set(\(property.name))", object: objectDescription,
                                  reason: "\(property.name) is read-only")
        }
        let context = owningContext
        if let ext = property.requiredExtension, !context.isExtensionPresent(ext) {
            throw SoundStageError(.extensionMissing, operation: "set(\(property.name))", object: objectDescription,
                                  reason: "\(property.name) needs the AL extension \(ext), which this OpenAL lacks")
        }
        if let reason = extraCheck {
            throw SoundStageError(.invalidArgument, operation: "set(\(property.name))", object: objectDescription, reason: reason)
        }
        let name = propertyObjectName
        try OpenAL.withContext(context.handle) {
            // Validators run under the lock: some read OpenAL limits (e.g. the resampler count).
            if let reason = property.validate(value, property.name) {
                throw SoundStageError(.invalidArgument, operation: "set(\(property.name))", object: objectDescription, reason: reason)
            }
            try OpenAL.call("set(\(property.name))", on: objectDescription) { write(name, property.param, value) }
        }
    }
}

/// The unit of a playback offset property.
enum OffsetUnit: Sendable {
    case seconds, samples, bytes
}

// MARK: - Readers and writers shared by the property tables

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
