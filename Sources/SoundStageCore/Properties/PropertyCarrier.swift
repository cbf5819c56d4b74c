import COpenAL

/// Carries one property's value from an object to its replacement: a source, listener or
/// context rebuilt on another device (``AudioEngine/switchOutput(to:)``, a lost device).
///
/// Reading happens with the old object's context current, writing with the new one's: the
/// value read in between is held by the write closure. Values read back from OpenAL were
/// valid when they were set, so they are written again without the Swift checks.
struct PropertyCarrier: Sendable {
    /// The AL extension the property needs; it is carried only where both contexts have it.
    let requiredExtension: String?
    /// Reads the value from the object named by the argument and returns its write.
    let take: @Sendable (ALuint) -> (ALuint) -> Void

    /// A carrier for a writable property of a table.
    init<V>(_ accessor: PropertyAccessor<V>) {
        let definition = accessor.definition
        precondition(definition.write != nil, "SoundStage: a read-only property cannot be carried")
        requiredExtension = definition.requiredExtension
        take = { object in
            let value = definition.read(object, definition.param)
            return { target in definition.write?(target, definition.param, value) }
        }
    }
}

extension PropertyOwner {
    /// Copies every property in `carriers` from this object to `target` (an object of the same
    /// kind on another context), as two checked calls: the reads in this context, the writes
    /// in the target's.
    func carryProperties(_ carriers: [PropertyCarrier], to target: Self) throws {
        let member = "carryProperties(to:)"
        let from = owningContext, to = target.owningContext
        let carried = carriers.filter { carrier in
            carrier.requiredExtension.map { from.isExtensionPresent($0) && to.isExtensionPresent($0) } ?? true
        }
        let name = propertyObjectName
        let writes = try OpenAL.withContext(contextHandle) { scope in
            try scope.call(Self.operationName(member), on: errorObject) { carried.map { $0.take(name) } }
        }
        let targetName = target.propertyObjectName
        try OpenAL.withContext(target.contextHandle) { scope in
            try scope.call(Self.operationName(member), on: target.errorObject) { for write in writes { write(targetName) } }
        }
    }
}
