import COpenAL

/// A batch of property changes applied together: see ``AudioContext/update(_:)``.
///
/// Valid only inside the closure it is passed to; it must not be stored or used elsewhere.
public struct UpdateBatch: ~Copyable {
    let context: AudioContext
    var count = 0

    /// Sets a property of a source of this context; validated before OpenAL sees it.
    public mutating func set<V>(_ property: Property<AudioSource, V>, of source: AudioSource, to value: V) throws {
        guard source.context === context else {
            throw SoundStageError(.wrongContext, operation: "UpdateBatch.set(\(property.name))", object: source.description,
                                  reason: "the batch updates \(context), not \(source.context)")
        }
        try apply(property, source.name, source, value, extra: property.offsetUnit.flatMap { source.offsetProblem(unit: $0, value: value) })
    }

    /// Sets a vector property of a source (position, velocity, direction); the same as the
    /// generic `set(_:of:to:)`, specialised for the per-frame case.
    public mutating func set(_ property: Property<AudioSource, SIMD3<Float>>, of source: AudioSource, to value: SIMD3<Float>) throws {
        guard source.context === context else {
            throw SoundStageError(.wrongContext, operation: "UpdateBatch.set(\(property.name))", object: source.description,
                                  reason: "the batch updates \(context), not \(source.context)")
        }
        // The per-frame fast path: position, velocity and direction need only finite values
        // and no extension, so they go straight to alSourcefv (measured: about 120 instructions a
        // change less than the general path, which calls the property's validator and writer).
        if property.isPlainVector {
            if let reason = checkFinite(value, property.name) {
                throw SoundStageError(.invalidArgument, operation: "UpdateBatch.set(\(property.name))", object: source.description, reason: reason)
            }
            writePlainVector(source.name, property.param, value)
            count += 1
            return
        }
        try apply(property, source.name, source, value, extra: nil)
    }

    /// Sets a vector property (position, velocity, direction) of many sources at once, each to
    /// the value at the same index: the per-frame path for moving every source of a scene.
    /// All are validated before any is written, so a bad value changes nothing.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for counts that differ or
    ///   a value that is not finite, ``SoundStageError/Code-swift.struct/wrongContext`` for a
    ///   source of another context.
    public mutating func set(_ property: Property<AudioSource, SIMD3<Float>>, of sources: [AudioSource], to values: [SIMD3<Float>]) throws {
        let operation = "UpdateBatch.set(\(property.name), of: \(sources.count) sources)"
        guard sources.count == values.count else {
            throw SoundStageError(.invalidArgument, operation: operation, object: "\(context)",
                                  reason: "\(sources.count) sources but \(values.count) values")
        }
        guard property.isPlainVector else {
            for (source, value) in zip(sources, values) { try set(property, of: source, to: value) }
            return
        }
        for (source, value) in zip(sources, values) {
            guard source.context === context else {
                throw SoundStageError(.wrongContext, operation: operation, object: source.description,
                                      reason: "the batch updates \(context), not \(source.context)")
            }
            if let reason = checkFinite(value, property.name) {
                throw SoundStageError(.invalidArgument, operation: operation, object: source.description, reason: reason)
            }
        }
        let param = property.param
        for (source, value) in zip(sources, values) { writePlainVector(source.name, param, value) }
        count += sources.count
    }

    /// Sets a property of this context's listener.
    public mutating func set<V>(_ property: Property<Listener, V>, to value: V) throws {
        try apply(property.rebound(), 0, ListenerOwner(context: context), value, extra: nil)
    }

    private mutating func apply<Owner: PropertyOwner, V>(_ property: Property<Owner, V>, _ name: ALuint, _ owner: Owner, _ value: V, extra: String?) throws {
        guard let write = property.write else {
            throw SoundStageError(.readOnly, operation: "UpdateBatch.set(\(property.name))", object: owner.objectDescription,
                                  reason: "\(property.name) is read-only")
        }
        if let ext = property.requiredExtension, !context.isExtensionPresent(ext) {
            throw SoundStageError(.extensionMissing, operation: "UpdateBatch.set(\(property.name))", object: owner.objectDescription,
                                  reason: "\(property.name) needs the AL extension \(ext), which this OpenAL lacks")
        }
        if let reason = extra ?? property.validate(value, property.name) {
            throw SoundStageError(.invalidArgument, operation: "UpdateBatch.set(\(property.name))", object: owner.objectDescription, reason: reason)
        }
        write(name, property.param, value)
        count += 1
    }
}

extension AudioContext {
    /// Applies many property changes as one batch: one lock, one context switch and one
    /// OpenAL error check for the whole batch instead of one per change, and, with
    /// `AL_SOFT_deferred_updates`, the mixer sees all of them at once (no half-moved frame).
    ///
    /// ```swift
    /// try context.update { batch in
    ///     for (source, position) in zip(sources, positions) {
    ///         try batch.set(.position, of: source, to: position)
    ///     }
    ///     try batch.set(.orientation, to: Orientation(yaw: playerYaw))
    /// }
    /// ```
    ///
    /// Every value is validated before OpenAL sees it, as with `set(_:to:)`; a value that
    /// fails validation throws at once and the changes made before it still apply.
    public func update(_ body: (inout UpdateBatch) throws -> Void) throws {
        let deferred = isExtensionPresent("AL_SOFT_deferred_updates")
        try OpenAL.withContext(handle) {
            if deferred { alDeferUpdatesSOFT() }
            var batch = UpdateBatch(context: self)
            defer { if deferred { alProcessUpdatesSOFT() } }
            try body(&batch)
            let changes = batch.count
            try OpenAL.call("AudioContext.update", on: "\(changes) changes in \(self)") {}
        }
    }
}
