import COpenAL

/// The EFX objects a source uses: its direct filter and, per send, a slot and a filter.
struct EffectLinks {
    var directFilter: AudioFilter?
    var sends: [Int: (slot: EffectSlot?, filter: AudioFilter?)] = [:]
}

extension AudioSource {
    /// The filter on the source's direct (dry) path, nil for none.
    public var directFilter: AudioFilter? { effectLinks.withLock { $0.directFilter } }

    /// Filters the source's direct (dry) path: occlusion, a muffled voice through a wall.
    /// OpenAL copies the filter's settings now; the filter already there is not set again
    /// (filters are fixed, so it holds the same settings).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/wrongContext`` for a filter of another
    ///   context.
    public func setDirectFilter(_ filter: AudioFilter?) throws {
        let member = "setDirectFilter(_:)"
        if let filter, filter.context !== context {
            throw failure(.wrongContext, member, "\(filter) belongs to \(filter.context), not \(context)")
        }
        guard effectLinks.withLock({ $0.directFilter !== filter }) else { return }
        try OpenAL.withContext(handle) { scope in
            try scope.call(Self.operationName(member), on: description) {
                alSourcei(name, AL_DIRECT_FILTER, ALint(bitPattern: filter?.name ?? 0))
            }
        }
        effectLinks.withLock { $0.directFilter = filter }
    }

    /// The slot and filter of send `index`, nil when nothing is sent there.
    public func send(_ index: Int) -> (slot: EffectSlot?, filter: AudioFilter?)? {
        effectLinks.withLock { $0.sends[index] }
    }

    /// Sends the source to `slot` through auxiliary send `index` (nil stops the send), with a
    /// filter on what is sent if given: a room's reverb, an echo. The number of sends each
    /// source has is a context attribute (``ContextAttributes/auxiliarySends``; OpenAL Soft
    /// grants 2 by default, up to 16).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for an index past the
    ///   sends the context granted (``AudioContext/auxiliarySends``),
    ///   ``SoundStageError/Code-swift.struct/wrongContext`` for a slot or filter of another
    ///   context.
    public func setSend(_ index: Int, to slot: EffectSlot?, filter: AudioFilter? = nil) throws {
        // Built only for an error: a voice becoming real sets its sends.
        func member() -> String { "setSend(\(index), to:filter:)" }
        let granted = context.auxiliarySends
        guard (0..<granted).contains(index) else {
            throw failure(.invalidArgument, member(), "the context grants \(granted) auxiliary sends per source (0..<\(granted)); ask for more with ContextAttributes(auxiliarySends:)")
        }
        if let slot, slot.context !== context { throw failure(.wrongContext, member(), "\(slot) belongs to \(slot.context), not \(context)") }
        if let filter, filter.context !== context { throw failure(.wrongContext, member(), "\(filter) belongs to \(filter.context), not \(context)") }
        // The same slot and filter already there: nothing to send to OpenAL again.
        let current = effectLinks.withLock { $0.sends[index] }
        if current?.slot === slot, current?.filter === filter { return }
        try OpenAL.withContext(handle) { scope in
            try scope.call(Self.operationName(member()), on: description) {
                alSource3i(name, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: slot?.name ?? 0), ALint(index), ALint(bitPattern: filter?.name ?? 0))
            }
        }
        effectLinks.withLock { $0.sends[index] = slot == nil && filter == nil ? nil : (slot, filter) }
    }
}
