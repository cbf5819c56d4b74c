import COpenAL

/// Which API a property write came through, for the operation its error names.
enum WriteRoute {
    /// `set(_:to:)` on the object itself.
    case direct
    /// An ``UpdateBatch``.
    case batch
}

/// An object with OpenAL properties: a source, the listener or a context. Reading and
/// writing them goes through the one path below, for single sets and update batches alike.
protocol PropertyOwner: ErrorNaming {
    /// The context whose current-ness the calls need.
    var owningContext: AudioContext { get }
    /// The OpenAL name passed to the property's reader and writer (0 for the listener and
    /// context).
    var propertyObjectName: ALuint { get }
    /// What an unchecked write is noted against.
    var writeTarget: UncheckedWrite.Target { get }
    /// The gateway handle of ``owningContext``.
    var contextHandle: ContextHandle { get }
    /// A check of the owner's own beyond the property's validator (a source checks playback
    /// offsets against its length); nil when there is nothing to say.
    func ownCheck<V>(_ property: Property<Self, V>, _ value: V) -> String?
}

extension PropertyOwner {
    func ownCheck<V>(_ property: Property<Self, V>, _ value: V) -> String? { nil }

    var contextHandle: ContextHandle { owningContext.handle }

    /// Reads a property. OpenAL cannot refuse a valid parameter of a live object; an error
    /// from earlier unchecked writes that the read's check finds is logged.
    func readProperty<V>(_ property: Property<Self, V>) -> V {
        let context = owningContext
        let name = propertyObjectName
        if let ext = property.requiredExtension, !context.isExtensionPresent(ext) {
            preconditionFailure("SoundStage: \(property.name) of \(errorObject) needs \(ext), which this OpenAL lacks; check isExtensionPresent(\"\(ext)\") first")
        }
        do {
            return try OpenAL.withContext(context.handle) { scope in
                scope.sendPendingToSink()
                return try scope.call(Self.operationName("get(\(property.name))"), on: errorObject) {
                    property.read(name, property.param)
                }
            }
        } catch {
            // Reading a valid parameter of a live object cannot fail; if OpenAL says
            // otherwise the library is broken and the value would be meaningless.
            preconditionFailure("SoundStage: \(error)")
        }
    }

    /// Writes a property on its own: the lock, the context, and ``write(_:_:in:via:)``.
    @inline(__always)
    func writeProperty<V>(_ property: Property<Self, V>, _ value: V) throws {
        try OpenAL.withContext(contextHandle) { scope in
            try write(property, value, in: scope, via: .direct)
        }
    }

    /// The one write path: refuses a read-only property, a missing extension and an invalid
    /// value with a typed error naming `via`'s operation (`AudioSource.set(gain)`,
    /// `UpdateBatch.set(gain)`), then hands the value to OpenAL as an unchecked write (see
    /// ``UncheckedWrites``). `scope` has the owner's context current.
    @inline(__always)
    package func write<V>(_ property: Property<Self, V>, _ value: V, in scope: borrowing ALScope, via: WriteRoute) throws {
        guard let write = property.write else {
            throw refusal(.readOnly, property, via, "\(property.name) is read-only")
        }
        if let ext = property.requiredExtension, !owningContext.isExtensionPresent(ext) {
            throw refusal(.extensionMissing, property, via, "\(property.name) needs the AL extension \(ext), which this OpenAL lacks")
        }
        // Validators run under the lock: some read OpenAL limits (the resampler count).
        if let reason = ownCheck(property, value) ?? property.validate(value, property.name) {
            throw refusal(.invalidArgument, property, via, reason)
        }
        let name = propertyObjectName
        scope.write(UncheckedWrite(target: writeTarget, object: name, param: property.param)) {
            write(name, property.param, value)
        }
    }

    /// The write path for vectors: a source's position, velocity and direction (any finite
    /// value, no extension) go straight to their C writer; other vectors take the general path.
    @inline(__always)
    package func write(_ property: Property<Self, SIMD3<Float>>, _ value: SIMD3<Float>, in scope: borrowing ALScope, via: WriteRoute) throws {
        guard property.vectorWriter != nil else { return try write(property, value, in: scope, via: via) as Void }
        try checkDirect(property, value, via: via)
        commitDirect(property, value, in: scope)
    }

    /// The validation half of a direct vector write: the value must be finite.
    @inline(__always)
    func checkDirect(_ property: Property<Self, SIMD3<Float>>, _ value: SIMD3<Float>, via: WriteRoute) throws {
        guard value.isFinite else {
            throw refusal(.invalidArgument, property, via, "\(property.name) must be finite, got \(value)")
        }
    }

    /// The OpenAL half of a direct vector write, for a value ``checkDirect(_:_:via:)`` passed.
    @inline(__always)
    func commitDirect(_ property: Property<Self, SIMD3<Float>>, _ value: SIMD3<Float>, in scope: borrowing ALScope) {
        scope.commitDirect(property, value, to: propertyObjectName, target: writeTarget)
    }

    private func refusal<V>(_ code: SoundStageError.Code, _ property: Property<Self, V>, _ via: WriteRoute, _ reason: String) -> SoundStageError {
        switch via {
        case .direct: return failure(code, "set(\(property.name))", reason)
        case .batch: return failure(code, of: "UpdateBatch", "set(\(property.name))", reason)
        }
    }
}

extension ALScope {
    /// The OpenAL half of a direct vector write to the object named `name`, for a value
    /// already checked.
    @inline(__always)
    func commitDirect<Owner>(_ property: Property<Owner, SIMD3<Float>>, _ value: SIMD3<Float>, to name: ALuint, target: UncheckedWrite.Target) {
        guard let direct = property.vectorWriter else { return }
        context.writeDirect(direct, property.param, value, to: name, target: target)
    }
}
