import COpenAL

/// A batch of property changes applied together: see ``AudioContext/update(_:)``.
///
/// Valid only inside the closure it is passed to; it cannot be copied or stored.
public struct UpdateBatch: ~Copyable {
    let context: AudioContext
    /// The gateway scope of the batch: its lock and context, for the writes.
    let scope: ALScope

    /// Writes `value` to `owner`'s `property` through the one write path, after making sure
    /// the owner lives in the batch's context.
    @inline(__always)
    func apply<Owner: PropertyOwner, V>(_ property: Property<Owner, V>, of owner: Owner, _ value: V) throws {
        try checkContext(of: owner, property.name)
        try owner.write(property, value, in: scope, via: .batch)
    }

    /// The same for vectors, so a source's position takes the direct path.
    @inline(__always)
    func apply<Owner: PropertyOwner>(_ property: Property<Owner, SIMD3<Float>>, of owner: Owner, _ value: SIMD3<Float>) throws {
        try checkContext(of: owner, property.name)
        try owner.write(property, value, in: scope, via: .batch)
    }

    /// Throws ``SoundStageError/Code-swift.struct/wrongContext`` for an owner of another context.
    @inline(__always)
    func checkContext(of owner: some PropertyOwner, _ name: @autoclosure () -> String) throws {
        guard owner.owningContext === context else {
            throw owner.failure(.wrongContext, of: "UpdateBatch", "set(\(name()))",
                                "the batch updates \(context), not \(owner.owningContext)")
        }
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
        try OpenAL.withContext(handle) { scope in
            if deferred { try scope.call(Self.operationName("update(_:)"), on: description) { alDeferUpdatesSOFT() } }
            var batch = UpdateBatch(context: self, scope: ALScope(scope))
            do {
                try body(&batch)
            } catch {
                // What was written before the error still applies (unless the body closed
                // the context, and it with them).
                if deferred, !handle.isClosed { alProcessUpdatesSOFT() }
                throw error
            }
            // The body may have shut the engine down or closed the device: the changes went
            // with the context, and nothing is current to apply or check them in.
            if handle.isClosed { return }
            if deferred { alProcessUpdatesSOFT() }
            try scope.checkPending()
        }
    }
}
