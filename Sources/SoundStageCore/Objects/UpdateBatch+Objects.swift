import COpenAL

extension UpdateBatch {
    /// Sets a property of a source of this context; validated before OpenAL sees it.
    ///
    /// - Throws: what ``AudioSource/set(_:to:)-(Property<AudioSource,V>,V)`` throws, naming
    ///   `UpdateBatch.set`, and ``SoundStageError/Code-swift.struct/wrongContext`` for a source
    ///   of another context.
    public mutating func set<V>(_ property: Property<AudioSource, V>, of source: AudioSource, to value: V) throws {
        try apply(property, of: source, value)
    }

    /// Sets a vector property of a source (position, velocity, direction); the same as the
    /// generic `set(_:of:to:)`, specialised for the per-frame case.
    public mutating func set(_ property: Property<AudioSource, SIMD3<Float>>, of source: AudioSource, to value: SIMD3<Float>) throws {
        try apply(property, of: source, value)
    }

    /// Sets a vector property (position, velocity, direction) of many sources at once, each to
    /// the value at the same index: the per-frame path for moving every source of a scene.
    /// All are validated before any is written, so a bad value changes nothing.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for counts that differ or
    ///   a value that is not finite, ``SoundStageError/Code-swift.struct/wrongContext`` for a
    ///   source of another context.
    public mutating func set(_ property: Property<AudioSource, SIMD3<Float>>, of sources: [AudioSource], to values: [SIMD3<Float>]) throws {
        guard sources.count == values.count else {
            throw context.failure(.invalidArgument, of: "UpdateBatch", "set(\(property.name), of: \(sources.count) sources)",
                                  "\(sources.count) sources but \(values.count) values")
        }
        guard property.vectorWriter != nil else {
            for (source, value) in zip(sources, values) { try apply(property, of: source, value) }
            return
        }
        var names = [ALuint](repeating: 0, count: sources.count)
        for (index, source) in sources.enumerated() {
            try checkContext(of: source, property.name)
            try source.checkDirect(property, values[index], via: .batch)
            names[index] = source.name
        }
        // Written by name, so the loop touches no reference count.
        for index in names.indices { scope.commitDirect(property, values[index], to: names[index], target: .source) }
    }

    /// Sets a property of this context's listener.
    public mutating func set<V>(_ property: Property<Listener, V>, to value: V) throws {
        try apply(property, of: context.listener, value)
    }
}
