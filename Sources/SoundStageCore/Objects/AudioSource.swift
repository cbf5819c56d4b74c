import COpenAL
import Synchronization

/// A sound emitter: plays a buffer (or a queue of buffers) at a place in the context's 3D
/// world.
///
/// Every OpenAL 1.1 source property, and those of OpenAL Soft 1.19, is a typed
/// ``Property``: `try source.set(.position, to: [1, 0, 0])`, `source.get(.state)`.
/// A source retains its buffers and its context; its OpenAL name is released exactly once,
/// when the last reference goes away.
public final class AudioSource: Sendable, CustomStringConvertible {
    /// What the source plays, as SoundStage handed it to OpenAL.
    private struct Feed {
        var buffer: AudioBuffer?
        var queue: [AudioBuffer] = []
    }

    /// The context the source lives in.
    public let context: AudioContext
    /// The context's gateway handle, copied so the per-call path reads it without going
    /// through the context (the source keeps its context, and so the handle, alive).
    package let handle: ContextHandle
    let name: ALuint
    private let feed = LockedBox(Feed())
    /// The filter and slots the source uses, retained so none is deleted while in use.
    let effectLinks = LockedBox(EffectLinks())

    /// Makes a source in `context`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context
    ///   already has ``AudioContext/sourceLimit`` sources (ask for more with
    ///   ``ContextAttributes/monoSources``, or release some).
    public init(context: AudioContext) throws {
        let limit = context.sourceLimit
        var current = context.liveSources.load(ordering: .relaxed)
        while true {
            guard current < limit else {
                throw Self.failure(.sourceLimitReached, "init(context:)", object: context.description,
                                   "the context already has \(current) of its \(limit) sources; release one, or create the context with more monoSources/stereoSources")
            }
            let (exchanged, original) = context.liveSources.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
        do {
            name = try OpenAL.withContext(context.handle) { scope in
                var name: ALuint = 0
                try scope.call(Self.operationName("init(context:)"), on: context.description) { alGenSources(1, &name) }
                return name
            }
        } catch {
            context.liveSources.subtract(1, ordering: .relaxed)
            throw error
        }
        self.context = context
        self.handle = context.handle
        Diagnostics.liveSources.add(1, ordering: .relaxed)
    }

    deinit {
        OpenAL.deleteName(name, in: handle, Self.operationName("deinit"), object: description, alDeleteSources)
        feed.withLock { feed in
            feed.buffer?.releaseUse()
            feed.queue.forEach { $0.releaseUse() }
        }
        context.liveSources.subtract(1, ordering: .relaxed)
        Diagnostics.liveSources.subtract(1, ordering: .relaxed)
    }

    /// For example `source 5 in context 2`.
    public var description: String { "source \(name) in \(context)" }

    // MARK: - Properties

    /// Reads a property.
    public func get<V>(_ property: Property<AudioSource, V>) -> V { readProperty(property) }

    /// Writes a property after validating it; OpenAL never sees an invalid value.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` naming the property and
    ///   the allowed range, ``SoundStageError/Code-swift.struct/readOnly``, or
    ///   ``SoundStageError/Code-swift.struct/extensionMissing``.
    public func set<V>(_ property: Property<AudioSource, V>, to value: V) throws {
        try writeProperty(property, value)
    }

    /// Writes a vector property (position, velocity, direction). The same as the generic
    /// `set(_:to:)`; this concrete overload lets callers in other modules reach code
    /// specialised for the type, which matters when moving many sources every frame.
    public func set(_ property: Property<AudioSource, SIMD3<Float>>, to value: SIMD3<Float>) throws {
        if let direct = property.vectorWriter, OpenAL.directWritesSkipLock {
            // The per-frame path: checked in Swift, then written with the context current for
            // this thread and no lock (see OpenAL.withThreadContext).
            try checkDirect(property, value, via: .direct)
            let (handle, name) = (self.handle, self.name)
            try OpenAL.withThreadContext(handle) { handle.writeDirect(direct, property.param, value, to: name, target: .source) }
            return
        }
        try OpenAL.withContext(handle) { scope in
            try write(property, value, in: scope, via: .direct)
        }
    }

    /// Writes a float property (gain, pitch, ...); see the vector overload for why it exists.
    public func set(_ property: Property<AudioSource, Float>, to value: Float) throws {
        try writeProperty(property, value)
    }

    /// Writes values checked already where they were set (a player's or a voice's settings),
    /// in one scope of the gateway's lock, which the caller holds (`held`): the lock is not
    /// taken again, and `body` hands each value to OpenAL with ``commit(_:_:in:)``.
    package func withCheckedWrites(_ held: borrowing LockHeld, _ body: (borrowing ALScope) throws -> Void) throws {
        try OpenAL.withContext(held, handle, body)
    }

    /// Hands OpenAL a value its setter checked already, as an unchecked write (see
    /// ``UncheckedWrites``): not validated a second time. The property must be writable and
    /// its extension present (the caller asks ``AudioContext/isExtensionPresent(_:)``).
    @inline(__always)
    package func commit<V>(_ property: Property<AudioSource, V>, _ value: V, in scope: borrowing ALScope) {
        commitChecked(property, value, in: scope)
    }

    @inline(__always)
    private func commitChecked<V>(_ property: Property<AudioSource, V>, _ value: V, in scope: borrowing ALScope) {
        assert(property.write != nil && property.validate(value, property.name) == nil, "SoundStage: \(property.name) = \(value) was not checked")
        guard let write = property.write else { return }
        let name = self.name
        scope.write(UncheckedWrite(target: .source, object: name, param: property.param)) { write(name, property.param, value) }
    }

    /// ``commit(_:_:in:)`` for a position, velocity or direction: straight to its C writer.
    @inline(__always)
    package func commit(_ property: Property<AudioSource, SIMD3<Float>>, _ value: SIMD3<Float>, in scope: borrowing ALScope) {
        guard property.vectorWriter != nil else { return commitChecked(property, value, in: scope) }
        assert(value.isFinite, "SoundStage: \(property.name) = \(value) was not checked")
        commitDirect(property, value, in: scope)
    }

    /// The playing state.
    public var state: SourceState { self.get(.state) }

    /// Whether the source is playing.
    public var isPlaying: Bool { state == .playing }

    /// Length of what the source plays, in frames, bytes and its sample rate; nil with no buffer.
    private var length: (frames: Int, bytes: Int, sampleRate: Int)? {
        feed.withLock { feed in
            if let buffer = feed.buffer { return (buffer.frameCount, buffer.byteCount, buffer.sampleRate) }
            guard let first = feed.queue.first else { return nil }
            return (feed.queue.reduce(0) { $0 + $1.frameCount }, feed.queue.reduce(0) { $0 + $1.byteCount }, first.sampleRate)
        }
    }

    /// A playback offset must lie before the end of what the source plays.
    func ownCheck<V>(_ property: Property<AudioSource, V>, _ value: V) -> String? {
        guard let unit = property.offsetUnit, let length else { return nil }
        let (position, limit, what): (Double, Double, String)
        switch unit {
        case .seconds:
            position = Double(value as? Float ?? 0)
            limit = Double(length.frames) / Double(length.sampleRate)
            what = "seconds"
        case .samples:
            position = (value as? Double) ?? Double(value as? Int ?? 0)
            limit = Double(length.frames)
            what = "samples"
        case .bytes:
            position = Double(value as? Int ?? 0)
            limit = Double(length.bytes)
            what = "bytes"
        }
        if position >= limit && limit > 0 {
            return "offset \(position) \(what) is past the end (\(limit) \(what))"
        }
        return nil
    }

    // MARK: - Buffers

    /// The buffer set with ``setBuffer(_:)``, nil for none or for a streaming source.
    public var buffer: AudioBuffer? { feed.withLock { $0.buffer } }

    /// The buffers queued with ``queue(_:)`` and not yet unqueued, in play order.
    public var queuedBuffers: [AudioBuffer] { feed.withLock { $0.queue } }

    /// Sets the one buffer this source plays (nil detaches it), replacing any queue. The
    /// source retains the buffer until it is replaced or the source is released.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` while playing or paused
    ///   (stop first), ``SoundStageError/Code-swift.struct/wrongContext`` for a buffer of
    ///   another device.
    public func setBuffer(_ buffer: AudioBuffer?) throws {
        let member = "setBuffer(_:)"
        if let buffer, buffer.context.device !== context.device {
            throw failure(.wrongContext, member, "\(buffer) belongs to \(buffer.context.device), not \(context.device)")
        }
        try OpenAL.withContext(context.handle) { scope in
            var state: ALint = 0
            try scope.call(Self.operationName(member), on: description) { alGetSourcei(name, AL_SOURCE_STATE, &state) }
            if state == AL_PLAYING || state == AL_PAUSED {
                throw failure(.invalidState, member, "cannot change the buffer of a \(SourceState(al: state)) source; stop it first")
            }
            try scope.call(Self.operationName(member), on: description) {
                alSourcei(name, AL_BUFFER, ALint(bitPattern: buffer?.name ?? 0))
            }
            buffer?.retainUse()
            feed.withLock { feed in
                feed.buffer?.releaseUse()
                feed.queue.forEach { $0.releaseUse() }
                feed.buffer = buffer
                feed.queue = []
            }
        }
    }

    /// Appends buffers to the source's queue, for streaming. All queued buffers must share
    /// one format and sample rate. The source retains them until they are unqueued.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` on a source with a buffer
    ///   set by ``setBuffer(_:)``, ``SoundStageError/Code-swift.struct/invalidArgument`` for
    ///   mixed formats, ``SoundStageError/Code-swift.struct/wrongContext`` for buffers of
    ///   another device.
    public func queue(_ buffers: [AudioBuffer]) throws {
        let member = "queue(_:)"
        guard !buffers.isEmpty else { return }
        for buffer in buffers where buffer.context.device !== context.device {
            throw failure(.wrongContext, member, "\(buffer) belongs to \(buffer.context.device), not \(context.device)")
        }
        try OpenAL.withContext(context.handle) { scope in
            let (staticBuffer, first) = feed.withLock { ($0.buffer, $0.queue.first) }
            if let staticBuffer {
                throw failure(.invalidState, member, "the source plays \(staticBuffer) as a static buffer; call setBuffer(nil) before queueing")
            }
            let reference = first ?? buffers[0]
            for buffer in buffers where buffer.format != reference.format || buffer.sampleRate != reference.sampleRate {
                throw failure(.invalidArgument, member, "\(buffer) is \(buffer.format) at \(buffer.sampleRate) Hz but the queue is \(reference.format) at \(reference.sampleRate) Hz")
            }
            var names = buffers.map(\.name)
            try scope.call(Self.operationName(member), on: description) {
                alSourceQueueBuffers(name, ALsizei(names.count), &names)
            }
            buffers.forEach { $0.retainUse() }
            feed.withLock { $0.queue.append(contentsOf: buffers) }
        }
    }

    /// Removes the buffers the source has finished playing from the front of its queue and
    /// returns them, ready to be refilled or dropped.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` on a looping source
    ///   (OpenAL never finishes a looping queue's buffers).
    public func unqueueProcessedBuffers() throws -> [AudioBuffer] {
        let member = "unqueueProcessedBuffers()"
        return try OpenAL.withContext(context.handle) { scope in
            var looping: ALint = 0, processed: ALint = 0
            try scope.call(Self.operationName(member), on: description) {
                alGetSourcei(name, AL_LOOPING, &looping)
                alGetSourcei(name, AL_BUFFERS_PROCESSED, &processed)
            }
            let isStreaming = feed.withLock { $0.buffer == nil && !$0.queue.isEmpty }
            guard isStreaming, processed > 0 else { return [] }
            if looping != 0 {
                throw failure(.invalidState, member, "a looping source cannot unqueue; turn looping off first")
            }
            var names = [ALuint](repeating: 0, count: Int(processed))
            try scope.call(Self.operationName(member), on: description) {
                alSourceUnqueueBuffers(name, processed, &names)
            }
            return feed.withLock { feed in
                let done = Array(feed.queue.prefix(Int(processed)))
                feed.queue.removeFirst(done.count)
                done.forEach { $0.releaseUse() }
                return done
            }
        }
    }

    // MARK: - Playback

    /// Starts playing (or resumes a paused source, or restarts a playing one).
    public func play() throws { try control("play()", alSourcePlay) }
    /// Pauses, keeping the offset.
    public func pause() throws { try control("pause()", alSourcePause) }
    /// Stops; the offset goes back to 0 at the next play.
    public func stop() throws { try control("stop()", alSourceStop) }
    /// Stops and returns to ``SourceState/initial`` with offset 0.
    public func rewind() throws { try control("rewind()", alSourceRewind) }

    private func control(_ member: String, _ call: (ALuint) -> Void) throws {
        try OpenAL.withContext(context.handle) { scope in
            try scope.call(Self.operationName(member), on: description) { call(name) }
        }
    }

    /// Starts all `sources` on the same sample (`alSourcePlayv`). They must share a context.
    public static func play(_ sources: [AudioSource]) throws { try controlAll(sources, "play(_:)", alSourcePlayv) }
    /// Pauses all `sources` at once (`alSourcePausev`).
    public static func pause(_ sources: [AudioSource]) throws { try controlAll(sources, "pause(_:)", alSourcePausev) }
    /// Stops all `sources` at once (`alSourceStopv`).
    public static func stop(_ sources: [AudioSource]) throws { try controlAll(sources, "stop(_:)", alSourceStopv) }
    /// Rewinds all `sources` at once (`alSourceRewindv`).
    public static func rewind(_ sources: [AudioSource]) throws { try controlAll(sources, "rewind(_:)", alSourceRewindv) }

    private static func controlAll(
        _ sources: [AudioSource], _ member: String,
        _ call: (ALsizei, UnsafePointer<ALuint>?) -> Void
    ) throws {
        guard let first = sources.first else { return }
        for source in sources where source.context !== first.context {
            throw source.failure(.wrongContext, member, "all sources must share one context; the first is in \(first.context)")
        }
        let names = sources.map(\.name)
        try OpenAL.withContext(first.context.handle) { scope in
            try scope.call(operationName(member), on: "\(sources.count) sources in \(first.context)") {
                names.withUnsafeBufferPointer { call(ALsizei($0.count), $0.baseAddress) }
            }
        }
    }
}

extension AudioSource: PropertyOwner {
    var owningContext: AudioContext { context }
    var propertyObjectName: ALuint { name }
    var writeTarget: UncheckedWrite.Target { .source }
    var contextHandle: ContextHandle { handle }
    package var errorObject: String { description }
}
