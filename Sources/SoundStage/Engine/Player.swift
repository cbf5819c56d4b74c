import COpenAL
import Foundation

/// What happens to a player, delivered by the engine's service loop.
public enum PlayerEvent: Sendable, CustomStringConvertible {
    /// The sound reached its end (`successfully` true), or decoding failed (false).
    /// ``Player/stop()`` does not report this, as on iOS.
    case finished(successfully: Bool)
    /// The sound could not be decoded.
    case decodeError(SoundStageError)
    /// Playback was paused by an interruption.
    case interruptionBegan
    /// The interruption is over.
    case interruptionEnded

    /// For example `finished(successfully: true)`.
    public var description: String {
        switch self {
        case .finished(let ok): return "finished(successfully: \(ok))"
        case .decodeError(let error): return "decodeError(\(error))"
        case .interruptionBegan: return "interruptionBegan"
        case .interruptionEnded: return "interruptionEnded"
        }
    }
}

/// Receives a player's events, like `AVAudioPlayerDelegate`. Called serially on the thread
/// running the engine's service loop. Every method has an empty default.
public protocol PlayerDelegate: AnyObject {
    /// The sound finished: at its natural end (`successfully` true) or because decoding failed.
    func playerDidFinishPlaying(_ player: Player, successfully: Bool)
    /// Decoding failed.
    func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError)
    /// An interruption paused the player.
    func playerBeginInterruption(_ player: Player)
    /// The interruption ended.
    func playerEndInterruption(_ player: Player)
}

extension PlayerDelegate {
    public func playerDidFinishPlaying(_ player: Player, successfully: Bool) {}
    public func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) {}
    public func playerBeginInterruption(_ player: Player) {}
    public func playerEndInterruption(_ player: Player) {}
}

/// How a fade or tween moves from its start to its end.
public enum FadeCurve: Sendable, Hashable {
    /// Straight from start to end.
    case linear
    /// Constant power: `start * cos(x * pi/2) + end * sin(x * pi/2)`, so a fade-out stays
    /// at -3 dB halfway and a cross-fade keeps its loudness.
    case equalPower

    func mix(_ a: Float, _ b: Float, _ x: Float) -> Float {
        switch self {
        case .linear: return a + (b - a) * x
        case .equalPower: return a * cos(x * .pi / 2) + b * sin(x * .pi / 2)
        }
    }
}

/// Plays a ``Sound``, as `AVAudioPlayer` does on iOS: volume, pan, rate, loops,
/// `currentTime`, metering, events, fades, and 3D placement when asked.
///
/// A player keeps one OpenAL source from ``prepareToPlay()`` (or the first ``play()``) until
/// it is released. While it plays, is paused or is scheduled, its engine retains it, so a
/// player let go mid-sound still plays to its end and reports it. A player holds its engine
/// weakly: when the engine goes, its players stop. All members are safe from any thread.
///
/// Property setters (``volume``, ``pan``, ``rate``) clamp what they are given to the allowed
/// range, as AVAudioPlayer does, and ignore NaN; the `set...` methods throw instead.
public final class Player: @unchecked Sendable, CustomStringConvertible {
    enum Status { case idle, scheduled, playing, paused, stopped }
    /// How the source is fed: a queue of plays of a loaded sound, one looping buffer, or chunks of a stream.
    enum FeedMode { case none, queue, loopingBuffer, stream }

    /// The sound played.
    public let sound: Sound
    /// The context the player's source lives in (its engine's).
    let context: AudioContext
    let isEffect: Bool
    /// Copies of the engine's settings, so they stay readable without it.
    private let isOffline: Bool
    private let tick: Double
    /// Whether the context has `AL_SOFT_source_latency` (checked once, not every tick).
    private let hasSourceLatency: Bool
    private weak var engineRef: AudioEngine?

    // All state below is read and written under OpenAL.lock.
    var status = Status.idle
    var wasInterrupted = false
    /// Counts starts; an event carries the run it belongs to.
    private(set) var run = 0
    /// `finished` events of this run and earlier are not delivered (stop() was called).
    private var cancelledThrough = -1
    private var source: AudioSource?
    private var mode = FeedMode.none
    private var loopBuffer: AudioBuffer?
    private var stream: StreamFeed?
    private var volumeValue: Float = 1
    private var panValue: Float = 0
    private var rateValue: Float = 1
    private var loopsValue = 0
    private var loopRegionValue: Range<Double>?
    private var positionValue: SIMD3<Float>?
    /// Queue mode: plays still to queue, plays in the source's queue (as SoundStage queued and
    /// unqueued them, so no tick has to ask OpenAL), and plays finished and unqueued since the feed.
    private var playsToQueue = 0
    private var queuedPlays = 0
    private var playsUnqueued = 0
    /// Looping-buffer mode: whether the playhead has come round, seen as the offset going back.
    private var wrapped = false
    private var lastOffset = 0
    /// Where the next start begins, in frames (set by seeking while not playing, and by stop).
    private var startFrame = 0
    /// The frame the source will start from once played, while it is fed but not started.
    private var pendingStart: Int?
    /// When the end of the sound is heard, on a real device.
    private var finishAt: Double?
    private var tweens: [Tween] = []
    private var meteringEnabled = false
    private var meters: [(average: Float, peak: Float)] = []
    private weak var delegateValue: PlayerDelegate?
    private var continuations: [UUID: AsyncStream<PlayerEvent>.Continuation] = [:]

    init(sound: Sound, engine: AudioEngine, isEffect: Bool = false) {
        self.sound = sound
        self.context = engine.context
        self.isOffline = engine.isOffline
        self.tick = engine.tick
        self.hasSourceLatency = engine.context.isExtensionPresent("AL_SOFT_source_latency")
        self.engineRef = engine
        self.isEffect = isEffect
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    /// The engine that services this player; nil once the engine is gone.
    public var engine: AudioEngine? { engineRef }

    /// For example `player of sound (snare.wav)`.
    public var description: String { "player of \(sound)" }

    private func locked<R>(_ body: () throws -> R) rethrows -> R { try OpenAL.lock.withLock(body) }

    private func invalid(_ operation: String, _ reason: String) -> SoundStageError {
        SoundStageError(.invalidArgument, operation: operation, object: description, reason: reason)
    }

    private func liveEngine(_ operation: String) throws -> AudioEngine {
        guard let engine = engineRef else {
            throw SoundStageError(.invalidState, operation: operation, object: description, reason: "its engine was released; keep the AudioEngine while you play sound")
        }
        return engine
    }

    // MARK: - Events

    /// Receives events; held weakly, like `AVAudioPlayer.delegate`.
    public var delegate: PlayerDelegate? {
        get { locked { delegateValue } }
        set { locked { delegateValue = newValue } }
    }

    /// A stream of this player's events from now on; each call makes a new subscriber. It
    /// ends when the player goes away.
    public func events() -> AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        locked { continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.locked { _ = self?.continuations.removeValue(forKey: id) } }
        return stream
    }

    /// Hands an event of run `run` to the delegate and the streams, with no lock held. A
    /// `finished` of a run that stop() ended since is dropped.
    func deliver(_ event: PlayerEvent, run: Int) {
        let target = locked { () -> (PlayerDelegate?, [AsyncStream<PlayerEvent>.Continuation])? in
            if case .finished = event, run <= cancelledThrough { return nil }
            return (delegateValue, Array(continuations.values))
        }
        guard let (delegate, streams) = target else { return }
        switch event {
        case .finished(let ok): delegate?.playerDidFinishPlaying(self, successfully: ok)
        case .decodeError(let error): delegate?.playerDecodeErrorDidOccur(self, error: error)
        case .interruptionBegan: delegate?.playerBeginInterruption(self)
        case .interruptionEnded: delegate?.playerEndInterruption(self)
        }
        for stream in streams { stream.yield(event) }
    }

    // MARK: - Transport

    /// Makes the source and queues the sound from ``currentTime``, so ``play()`` starts at
    /// once. Called by ``play()`` when needed.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context has
    ///   no source left, and what decoding the first chunk of a streamed sound throws.
    public func prepareToPlay() throws {
        try locked { _ = try prepareLocked() }
    }

    /// Makes the source if needed and, unless it is fed already, feeds it from `startFrame`.
    @discardableResult
    func prepareLocked() throws -> AudioSource {
        let source = try self.source ?? AudioSource(context: context)
        self.source = source
        if status == .paused || status == .playing || status == .scheduled || pendingStart != nil { return source }
        try feed(source, from: startFrame)
        applyGain()
        try applyPan()
        try source.set(.pitch, to: rateValue)
        return source
    }

    /// Sets the buffer, queue or stream for playing from `frame`; the source starts there
    /// when played.
    private func feed(_ source: AudioSource, from frame: Int) throws {
        try source.stop()
        try source.setBuffer(nil)
        stream = nil
        mode = .none
        playsToQueue = 0
        queuedPlays = 0
        playsUnqueued = 0
        wrapped = false
        lastOffset = 0
        finishAt = nil
        if let decoder = try sound.makeDecoder() {
            try source.set(.isLooping, to: false)
            let feed = StreamFeed(decoder: decoder, loops: loopsValue, label: sound.label)
            try decoder.seek(toFrame: min(frame, decoder.frameCount))
            feed.fill(source)
            if feed.chunks.isEmpty, let failure = feed.failure { throw failure }
            stream = feed
            mode = .stream
        } else if let region = loopRegionValue {
            let buffer = try loopBuffer ?? makeLoopBuffer(region)
            loopBuffer = buffer
            try source.setBuffer(buffer)
            try source.set(.isLooping, to: true)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
            mode = .loopingBuffer
        } else if loopsValue < 0 {
            try source.setBuffer(sound.buffer)
            try source.set(.isLooping, to: true)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
            mode = .loopingBuffer
        } else {
            try source.set(.isLooping, to: false)
            playsToQueue = loopsValue + 1
            try queueMore(source)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
            mode = .queue
        }
        pendingStart = frame
    }

    /// Keeps enough plays of a loaded sound queued to last at least 250 ms (and at least 8),
    /// so even a very short sound never runs dry between two service ticks.
    private func queueMore(_ source: AudioSource) throws {
        guard let buffer = sound.buffer, playsToQueue > 0 else { return }
        let target = min(4_096, max(8, Int((0.25 * Double(sound.sampleRate) / Double(max(1, sound.frameCount))).rounded(.up))))
        // Called with the queue just emptied or its played copies just unqueued: what is queued waits.
        let n = min(playsToQueue, max(0, target - queuedPlays))
        guard n > 0 else { return }
        try source.queue(Array(repeating: buffer, count: n))
        playsToQueue -= n
        queuedPlays += n
    }

    private func makeLoopBuffer(_ region: Range<Double>) throws -> AudioBuffer {
        guard let original = sound.buffer else {
            throw SoundStageError(.invalidState, operation: "loopRegion", object: description, reason: "loop regions need a loaded sound, not a streamed one")
        }
        let start = Int((region.lowerBound * Double(sound.sampleRate)).rounded())
        let end = min(sound.frameCount, Int((region.upperBound * Double(sound.sampleRate)).rounded()))
        let buffer = try original.copy(to: context)
        try buffer.setLoopPoints(start..<max(start + 1, end))
        return buffer
    }

    /// Marks the fed source as started. Under the lock.
    func startedLocked() {
        pendingStart = nil
        status = .playing
        wasInterrupted = false
        run += 1
        engineRef?.active[ObjectIdentifier(self)] = self
    }

    /// Plays, or resumes after ``pause()``. Playing again after the sound finished or was
    /// stopped starts from ``currentTime`` (0 after a natural end).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context has
    ///   no source left, ``SoundStageError/Code-swift.struct/invalidState`` during an
    ///   interruption or once the engine is gone, and the errors of preparing the source.
    public func play() throws {
        let engine = try liveEngine("play")
        try locked {
            try engine.refuseDuringInterruption("play")
            if status == .playing, let source, settleLocked(source) { finishLocked(successfully: streamSucceeded) }
            switch status {
            case .playing: return
            case .paused:
                guard let source else { return }
                try source.play()
                startedLocked()
            case .scheduled, .idle, .stopped:
                try engine.startTogether([self])
            }
        }
    }

    /// Plays at engine time `time` (``AudioEngine/currentTime``): on its exact frame in an
    /// offline render, within one service tick in real time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time in the past.
    public func play(atTime time: Double) throws { try liveEngine("play(atTime:)").play([self], atTime: time) }

    /// Pauses; ``play()`` resumes from here. A scheduled start is cancelled (the player stays
    /// prepared, paused at its start).
    public func pause() {
        locked {
            wasInterrupted = false
            switch status {
            case .playing:
                guard let source else { return }
                if settleLocked(source) {
                    finishLocked(successfully: streamSucceeded)
                    return
                }
                try? source.pause()
                status = .paused
            case .scheduled:
                engineRef?.unschedule(self)
                status = .paused
                engineRef?.active[ObjectIdentifier(self)] = self
            default: return
            }
        }
    }

    /// Stops without reporting ``PlayerEvent/finished(successfully:)``, as on iOS (even an
    /// end already reached and not yet delivered). The next ``play()`` starts from
    /// ``currentTime``, which stop leaves where it was.
    public func stop() {
        locked {
            guard status != .idle && status != .stopped else { return }
            stopLocked()
        }
    }

    /// stop() under the lock: keeps the playhead for the next play (0 for a sound already
    /// played out) and cancels a finished event not yet delivered.
    private func stopLocked() {
        var frame = min(currentFrameLocked(), max(0, sound.frameCount - 1))
        if let source, sourcePlayedOutLocked(source) { frame = 0 }
        cancelledThrough = run
        haltLocked(resumeAt: frame)
    }

    /// Stops the source, lets the engine go of the player and leaves it stopped, to start
    /// from `frame` next time. Under the lock.
    private func haltLocked(resumeAt frame: Int) {
        startFrame = frame
        status = .stopped
        finishAt = nil
        wasInterrupted = false
        try? source?.stop()
        try? source?.setBuffer(nil)
        stream = nil
        mode = .none
        pendingStart = nil
        tweens.removeAll()
        engineRef?.unschedule(self)
        engineRef?.active.removeValue(forKey: ObjectIdentifier(self))
    }

    /// Whether the player is playing.
    public var isPlaying: Bool { locked { status == .playing } }

    // MARK: - Properties

    /// The length of the sound in seconds.
    public var duration: Double { sound.duration }
    /// Channels in the sound.
    public var numberOfChannels: Int { sound.channelCount }

    /// Gain, 0 (silent) to 1 (as recorded). Values outside 0...1 are clamped.
    public var volume: Float {
        get { locked { volumeValue } }
        set { if !newValue.isNaN { try? setVolume(min(1, max(0, newValue))) } }
    }

    /// Sets ``volume``, throwing for a value outside 0...1.
    public func setVolume(_ value: Float) throws {
        guard value.isFinite, (0...1).contains(value) else { throw invalid("setVolume(\(value))", "volume must be in 0...1") }
        locked {
            volumeValue = value
            tweens.removeAll { $0.kind == .volume }
            applyGain()
        }
    }

    func applyGain() {
        let muted = isEffect && (engineRef?.effectsMutedValue ?? false)
        try? source?.set(.gain, to: muted ? 0 : volumeValue)
    }

    /// Left-right placement of a sound that is not positioned: -1 left, 0 centre, 1 right
    /// (clamped). A mono sound is placed at that angle in front of the listener (constant
    /// power); a stereo sound has both its channels turned that way (`AL_EXT_STEREO_ANGLES`;
    /// without it, pan does not move stereo sounds).
    public var pan: Float {
        get { locked { panValue } }
        set { if !newValue.isNaN { try? setPan(min(1, max(-1, newValue))) } }
    }

    /// Sets ``pan``, throwing for a value outside -1...1.
    public func setPan(_ value: Float) throws {
        guard value.isFinite, (-1...1).contains(value) else { throw invalid("setPan(\(value))", "pan must be in -1...1") }
        try locked {
            panValue = value
            tweens.removeAll { $0.kind == .pan }
            try applyPan()
        }
    }

    private func applyPan() throws {
        guard let source else { return }
        if let position = positionValue {
            try source.set(.isRelative, to: false)
            try source.set(.position, to: position)
            return
        }
        let angle = panValue * .pi / 2
        try source.set(.isRelative, to: true)
        if sound.channelCount == 1 {
            try source.set(.position, to: SIMD3(sin(angle), 0, -cos(angle)))
        } else {
            try source.set(.position, to: .zero)
            if source.context.isExtensionPresent("AL_EXT_STEREO_ANGLES") {
                let left = min(Float.pi / 2, max(-.pi / 2, .pi / 6 - angle)), right = min(Float.pi / 2, max(-.pi / 2, -.pi / 6 - angle))
                try source.set(.stereoAngles, to: SIMD2(left, right))
            }
        }
    }

    /// Playback rate, 0.5...2 (clamped); OpenAL couples rate and pitch, as AVAudioPlayer's
    /// `rate` does not, so 2 plays an octave higher as well as twice as fast.
    public var rate: Float {
        get { locked { rateValue } }
        set { if !newValue.isNaN { try? setRate(min(2, max(0.5, newValue))) } }
    }

    /// Sets ``rate``, throwing for a value outside 0.5...2.
    public func setRate(_ value: Float) throws {
        guard value.isFinite, (0.5...2).contains(value) else { throw invalid("setRate(\(value))", "rate must be in 0.5...2") }
        try locked {
            rateValue = value
            tweens.removeAll { $0.kind == .rate }
            try source?.set(.pitch, to: value)
        }
    }

    /// 0 plays once, N plays exactly N+1 times back to back (sample-exact), any negative
    /// number loops until stopped. Takes effect at the next start from idle or stopped.
    public var numberOfLoops: Int {
        get { locked { loopsValue } }
        set {
            locked {
                loopsValue = max(-1, newValue)
                dropPreparedFeedLocked()
            }
        }
    }

    /// A prepared but unstarted feed was made with the old loop settings: feed again at play.
    private func dropPreparedFeedLocked() {
        if pendingStart != nil, status == .idle || status == .stopped { pendingStart = nil }
    }

    /// An intro then a looped region: the sound plays from the start, and once it reaches
    /// the region's end it jumps back to the region's start, forever
    /// (`AL_SOFT_loop_points`). Seconds within the sound; nil plays the whole sound per
    /// ``numberOfLoops``. Takes effect at the next start from idle or stopped. Setting an
    /// invalid region through this property is ignored; ``setLoopRegion(_:)`` throws.
    public var loopRegion: Range<Double>? {
        get { locked { loopRegionValue } }
        set { try? setLoopRegion(newValue) }
    }

    /// Sets ``loopRegion``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a region outside
    ///   the sound, ``SoundStageError/Code-swift.struct/invalidState`` for a streamed sound,
    ///   ``SoundStageError/Code-swift.struct/extensionMissing`` without `AL_SOFT_loop_points`.
    public func setLoopRegion(_ region: Range<Double>?) throws {
        if let region {
            guard region.lowerBound.isFinite, region.upperBound.isFinite, region.lowerBound >= 0,
                  region.upperBound <= duration + 1e-9,
                  Int((region.upperBound - region.lowerBound) * Double(sound.sampleRate)) >= 1 else {
                throw invalid("setLoopRegion(\(region))", "the region must lie within the sound's \(duration) s and hold at least one frame")
            }
            guard !sound.isStreamed else {
                throw SoundStageError(.invalidState, operation: "setLoopRegion", object: description, reason: "loop regions need a loaded sound, not a streamed one")
            }
            guard context.isExtensionPresent("AL_SOFT_loop_points") else {
                throw SoundStageError(.extensionMissing, operation: "setLoopRegion", object: description, reason: "loop points need AL_SOFT_loop_points")
            }
        }
        locked {
            loopRegionValue = region
            loopBuffer = nil
            dropPreparedFeedLocked()
        }
    }

    /// A place in the 3D world: the sound is positioned there (absolute coordinates) and
    /// ``pan`` no longer applies. nil (the default) plays it unpositioned. Only mono sounds
    /// are positioned by OpenAL; others play as they are. Non-finite values are ignored.
    public var position: SIMD3<Float>? {
        get { locked { positionValue } }
        set {
            if let v = newValue, !(v.x.isFinite && v.y.isFinite && v.z.isFinite) { return }
            locked {
                positionValue = newValue
                tweens.removeAll { $0.kind == .position }
                try? applyPan()
            }
        }
    }

    /// The source, for the 3D properties a game tunes (distance model, cone, velocity,
    /// rolloff); nil until ``prepareToPlay()``. Leave its buffer, queue, position and gain
    /// to the player.
    public var audioSource: AudioSource? { locked { source } }

    // MARK: - Time

    /// The playhead in seconds within the sound, corrected for output latency on a real
    /// device; setting it seeks (playing or not). A time outside the sound is ignored;
    /// ``seek(to:)`` throws.
    public var currentTime: Double {
        get { locked { Double(currentFrameLocked()) / Double(sound.sampleRate) } }
        set { try? seek(to: newValue) }
    }

    /// Moves the playhead to `time` seconds, exactly to the frame, playing or not.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time outside the
    ///   sound; ``SoundStageError/Code-swift.struct/decodingFailed`` when a streamed sound
    ///   cannot be decoded there (the player stops).
    public func seek(to time: Double) throws {
        guard time.isFinite, time >= 0, time <= duration else { throw invalid("seek(to: \(time))", "time must be in 0...\(duration) s") }
        let frame = max(0, min(sound.frameCount - 1, Int((time * Double(sound.sampleRate)).rounded())))
        try locked {
            if status == .playing, let source, settleLocked(source) {
                // The end was reached and not yet reported: report it, then start over from the new place.
                finishLocked(successfully: streamSucceeded)
                startFrame = frame
                try engineRef?.startTogether([self])
                return
            }
            guard let source, status != .idle && status != .stopped else {
                startFrame = frame
                pendingStart = nil
                return
            }
            finishAt = nil
            let wasPlaying = status == .playing
            switch mode {
            case .loopingBuffer:
                try source.set(.sampleOffset, to: frame)   // one looping buffer: jump in place
                wrapped = false
                if !wasPlaying { pendingStart = frame } else { lastOffset = frame }
                return
            case .queue:
                // The plays left (the current one and those not started) are queued again.
                playsToQueue += max(1, source.get(.buffersQueued) - source.get(.buffersProcessed))
                try source.stop()
                try source.setBuffer(nil)
                queuedPlays = 0
                playsUnqueued = 0
                try queueMore(source)
                try source.set(.sampleOffset, to: frame)
            case .stream:
                guard let stream else { return }
                let heard = queueOffsetLocked(source)
                try source.stop()
                try source.setBuffer(nil)
                stream.restart(at: frame, keepingPlayAt: heard)
                stream.fill(source)
                if stream.chunks.isEmpty, let failure = stream.failure {
                    haltLocked(resumeAt: frame)
                    throw failure
                }
            case .none:
                return
            }
            if wasPlaying { try source.play() } else { pendingStart = frame }
        }
    }

    /// The frame being heard within the sound. Under the lock.
    private func currentFrameLocked() -> Int {
        if let pendingStart { return pendingStart }
        guard let source, status == .playing || status == .paused else { return startFrame }
        if sourcePlayedOutLocked(source) { return sound.frameCount }
        return frameLocked(atQueueOffset: queueOffsetLocked(source))
    }

    /// Frames into the source's buffer or queue being heard now: exact offline (the mixer's
    /// own sample offset), and with the output latency taken off on a real device
    /// (`AL_SAMPLE_OFFSET_LATENCY_SOFT`), which can make it negative just after a buffer was
    /// unqueued or the sound came round. Under the lock.
    private func queueOffsetLocked(_ source: AudioSource) -> Int {
        guard !isOffline, hasSourceLatency else { return source.get(.sampleOffset) }
        var values: [Int64] = [0, 0]
        let name = source.name
        _ = try? OpenAL.withContext(context.handle) {
            try OpenAL.call("alGetSourcei64vSOFT(AL_SAMPLE_OFFSET_LATENCY_SOFT)", on: source.description) {
                alGetSourcei64vSOFT(name, AL_SAMPLE_OFFSET_LATENCY_SOFT, &values)
            }
        }
        let latencyFrames = Double(values[1]) * 1e-9 * Double(sound.sampleRate) * Double(rateValue)
        return Int(values[0] >> 32) - Int(latencyFrames.rounded())
    }

    /// The sound frame at `offset` frames into the source's buffer or queue. Under the lock.
    private func frameLocked(atQueueOffset offset: Int) -> Int {
        let frames = max(1, sound.frameCount)
        switch mode {
        case .stream:
            return stream?.frame(atQueueOffset: offset) ?? 0
        case .queue:
            if offset < 0 && playsUnqueued == 0 { return 0 }   // nothing heard yet
            return ((offset % frames) + frames) % frames
        case .loopingBuffer:
            guard offset < 0 else { return min(offset, frames - 1) }
            guard wrapped else { return 0 }
            let end = loopRegionValue.map { min(frames, Int(($0.upperBound * Double(sound.sampleRate)).rounded())) } ?? frames
            return max(0, end + offset)
        case .none:
            return startFrame
        }
    }

    // MARK: - Metering

    /// Whether ``updateMeters()`` measures; off by default.
    public var isMeteringEnabled: Bool {
        get { locked { meteringEnabled } }
        set { locked { meteringEnabled = newValue; if !newValue { meters = [] } } }
    }

    /// Measures the player's own samples in the 1024 frames played before the playhead,
    /// with its volume applied, for ``averagePower(forChannel:)`` and ``peakPower(forChannel:)``.
    public func updateMeters() {
        let (enabled, window, gain) = locked { () -> (Bool, [Float], Float) in
            guard meteringEnabled, status == .playing, let source else { return (meteringEnabled, [], 0) }
            let muted = isEffect && (engineRef?.effectsMutedValue ?? false)
            return (true, meterWindowLocked(source, frames: 1_024), muted ? 0 : volumeValue)
        }
        guard enabled else { return }
        let result = channelLevels(window, channels: sound.channelCount, gain: gain).map {
            (average: Float(min(0, $0.rms)), peak: Float(min(0, $0.peak)))
        }
        locked { meters = result }
    }

    /// Up to `frames` frames of what the player played, ending at the playhead. Under the lock.
    private func meterWindowLocked(_ source: AudioSource, frames wanted: Int) -> [Float] {
        let channels = sound.channelCount
        if let stream { return stream.samples(endingAtQueueOffset: queueOffsetLocked(source), frames: wanted) }
        let frame = currentFrameLocked()
        let samples = sound.samples
        let total = sound.frameCount
        guard total > 0 else { return [] }
        var count = min(wanted, total)
        var start = frame - count
        if start < 0 {
            // Before the playhead is the end of the previous play when there was one.
            let cameRound = mode == .queue ? playsUnqueued > 0 || queueOffsetLocked(source) >= total : wrapped
            if cameRound { start += total } else { start = 0; count = frame }
        }
        var out: [Float] = []
        out.reserveCapacity(count * channels)
        for k in 0..<count {
            let base = ((start + k) % total) * channels
            out.append(contentsOf: samples[base..<(base + channels)])
        }
        return out
    }

    /// The average (RMS) power of `channel` in dBFS, -160...0, at the last ``updateMeters()``.
    public func averagePower(forChannel channel: Int) -> Float { locked { channel >= 0 && channel < meters.count ? meters[channel].average : -160 } }
    /// The peak power of `channel` in dBFS, -160...0, at the last ``updateMeters()``.
    public func peakPower(forChannel channel: Int) -> Float { locked { channel >= 0 && channel < meters.count ? meters[channel].peak : -160 } }

    // MARK: - Fades and tweens

    struct Tween {
        enum Kind { case volume, pan, rate, position }
        var kind: Kind
        var from: SIMD3<Float>
        var to: SIMD3<Float>
        var start: Double
        var duration: Double
        var curve: FadeCurve
        var stopAtEnd: Bool
    }

    private func addTween(_ kind: Tween.Kind, from: (Player) -> SIMD3<Float>, to: SIMD3<Float>, duration: Double, curve: FadeCurve, stopAtEnd: Bool = false) throws {
        guard duration.isFinite, duration >= 0 else { throw invalid("tween", "duration must be finite and not negative, got \(duration)") }
        let engine = try liveEngine("tween")
        locked {
            tweens.removeAll { $0.kind == kind }
            let now = engine.currentTime
            tweens.append(Tween(kind: kind, from: from(self), to: to, start: now, duration: duration, curve: curve, stopAtEnd: stopAtEnd))
            advanceTweens(now: now)
        }
    }

    /// Fades the volume to `target` over `duration` seconds of engine time, then stops if
    /// asked (without a finished event, as ``stop()``). The service loop moves the volume
    /// every tick, and OpenAL ramps each change, so there are no audible steps.
    public func fade(to target: Float, duration: Double, curve: FadeCurve = .linear, stopAtEnd: Bool = false) throws {
        guard target.isFinite, (0...1).contains(target) else { throw invalid("fade(to: \(target))", "volume must be in 0...1") }
        try addTween(.volume, from: { SIMD3(repeating: $0.volumeValue) }, to: SIMD3(repeating: target), duration: duration, curve: curve, stopAtEnd: stopAtEnd)
    }

    /// Moves ``pan`` to `target` over `duration` seconds.
    public func tweenPan(to target: Float, duration: Double, curve: FadeCurve = .linear) throws {
        guard target.isFinite, (-1...1).contains(target) else { throw invalid("tweenPan(to: \(target))", "pan must be in -1...1") }
        try addTween(.pan, from: { SIMD3(repeating: $0.panValue) }, to: SIMD3(repeating: target), duration: duration, curve: curve)
    }

    /// Moves ``rate`` to `target` over `duration` seconds.
    public func tweenRate(to target: Float, duration: Double, curve: FadeCurve = .linear) throws {
        guard target.isFinite, (0.5...2).contains(target) else { throw invalid("tweenRate(to: \(target))", "rate must be in 0.5...2") }
        try addTween(.rate, from: { SIMD3(repeating: $0.rateValue) }, to: SIMD3(repeating: target), duration: duration, curve: curve)
    }

    /// Moves ``position`` to `target` over `duration` seconds (from the origin when unset).
    public func tweenPosition(to target: SIMD3<Float>, duration: Double, curve: FadeCurve = .linear) throws {
        guard target.x.isFinite, target.y.isFinite, target.z.isFinite else { throw invalid("tweenPosition", "the target must be finite, got \(target)") }
        try addTween(.position, from: { $0.positionValue ?? .zero }, to: target, duration: duration, curve: curve)
    }

    /// Moves every tween on; stops the player if a finished fade asked for it.
    ///
    /// Each value is the one due a tick from `now`: OpenAL ramps a change across the next
    /// mix, so the level heard over the coming tick follows the curve instead of lagging it
    /// by a tick (measured: up to 0.8 dB late near the end of a 1 s linear fade without this).
    private func advanceTweens(now: Double) {
        guard !tweens.isEmpty else { return }
        var stopNow = false
        let ahead = now + tick
        for tween in tweens {
            let x = Float(tween.duration > 0 ? min(1, max(0, (ahead - tween.start) / tween.duration)) : 1)
            let v = SIMD3(tween.curve.mix(tween.from.x, tween.to.x, x), tween.curve.mix(tween.from.y, tween.to.y, x), tween.curve.mix(tween.from.z, tween.to.z, x))
            switch tween.kind {
            case .volume: volumeValue = min(1, max(0, v.x)); applyGain()
            case .pan: panValue = min(1, max(-1, v.x)); try? applyPan()
            case .rate: rateValue = min(2, max(0.5, v.x)); try? source?.set(.pitch, to: rateValue)
            case .position: positionValue = v; try? applyPan()
            }
            if now >= tween.start + tween.duration, tween.stopAtEnd { stopNow = true }
        }
        tweens.removeAll { now >= $0.start + $0.duration }
        if stopNow, status == .playing || status == .paused { stopLocked() }
    }

    // MARK: - Service

    /// Brings a playing source's feed up to date: unqueues what was played, queues or
    /// decodes more, reports a decode error, and restarts a source that ran dry with more to
    /// play. Returns whether the sound has played out (the source stopped, nothing left).
    /// Under the lock.
    private func settleLocked(_ source: AudioSource) -> Bool {
        switch mode {
        case .stream:
            guard let stream else { return true }
            stream.service(source)
            if let failure = stream.failure, !stream.failureReported {
                stream.failureReported = true
                engineRef?.post(.decodeError(failure), to: self)
            }
        case .queue where playsToQueue > 0:
            // Played copies are unqueued only while more are to come; the offset counts from
            // the queue's head either way.
            if let done = try? source.unqueueProcessedBuffers() {
                playsUnqueued += done.count
                queuedPlays -= done.count
            }
            try? queueMore(source)
        case .loopingBuffer:
            let offset = source.get(.sampleOffset)
            if offset < lastOffset { wrapped = true }
            lastOffset = offset
        case .queue, .none:
            break
        }
        guard source.state == .stopped else { return false }
        if mode == .stream || mode == .queue, source.get(.buffersQueued) > source.get(.buffersProcessed) {
            try? source.play()   // ran dry before more came (a very late tick): go on
            return false
        }
        return true
    }

    /// Whether the source has stopped with nothing more to play. Under the lock.
    private func sourcePlayedOutLocked(_ source: AudioSource) -> Bool {
        guard status == .playing, source.state == .stopped else { return false }
        switch mode {
        case .stream: return stream?.isExhausted ?? true
        case .queue: return playsToQueue == 0
        case .loopingBuffer, .none: return true
        }
    }

    private var streamSucceeded: Bool { stream?.failure == nil }

    /// The device's output latency in seconds, read through this player's source (it is the
    /// same for every source of the device); nil offline or without `AL_SOFT_source_latency`.
    /// Under the lock.
    func outputLatencyLocked() -> Double? {
        guard !isOffline, hasSourceLatency, status == .playing, let source else { return nil }
        return source.get(.offsetWithLatency).latency
    }

    /// One tick for this player, under the lock: tweens, loop top-up, streaming, end of sound.
    /// `latency` is the device's output latency this tick (the engine reads it once a tick).
    func service(now: Double, latency: Double) {
        guard status == .playing, let source else { return }
        advanceTweens(now: now)
        guard status == .playing, settleLocked(source) else { return }
        if !isOffline && hasSourceLatency {
            // On a real device the mixer runs ahead of the ear by the output latency: the
            // source stops that long before its last sample is heard, so the end is reported
            // when it is heard.
            let heardAt = finishAt ?? now + latency
            finishAt = heardAt
            if now < heardAt { return }
        }
        finishLocked(successfully: streamSucceeded)
    }

    /// The sound played out: the player stops and `finished` is posted. Under the lock.
    private func finishLocked(successfully: Bool) {
        haltLocked(resumeAt: 0)
        engineRef?.post(.finished(successfully: successfully), to: self)
    }

    /// Pauses for an interruption; false when the sound had already played out (it is
    /// reported finished instead). Under the lock.
    func interruptLocked() -> Bool {
        guard let source else { return false }
        if settleLocked(source) {
            finishLocked(successfully: streamSucceeded)
            return false
        }
        try? source.pause()
        status = .paused
        wasInterrupted = true
        return true
    }

    /// A scheduled start that came due during an interruption: prepared and paused, to
    /// start when the interruption ends. Under the lock.
    func holdForInterruptionLocked() {
        status = .paused
        wasInterrupted = true
        engineRef?.active[ObjectIdentifier(self)] = self
    }

    func endInterruptionLocked(resume: Bool) {
        wasInterrupted = false
        if resume, status == .paused, let source {
            if (try? source.play()) != nil { startedLocked() }
        }
    }
}

extension AudioBuffer {
    /// Sets the loop region (`AL_LOOP_POINTS_SOFT`) in frames; the buffer must not be in use.
    func setLoopPoints(_ frames: Range<Int>) throws {
        guard frames.lowerBound >= 0, frames.upperBound <= frameCount, !frames.isEmpty else {
            throw SoundStageError(.invalidArgument, operation: "setLoopPoints", object: description,
                                  reason: "frames \(frames) must lie within the buffer's \(frameCount) frames")
        }
        guard !isInUse else {
            throw SoundStageError(.invalidState, operation: "setLoopPoints", object: description, reason: "the buffer is in use by a source")
        }
        var points: [ALint] = [ALint(frames.lowerBound), ALint(frames.upperBound)]
        try OpenAL.withContext(context.handle) {
            try OpenAL.call("alBufferiv(AL_LOOP_POINTS_SOFT)", on: description) { alBufferiv(name, AL_LOOP_POINTS_SOFT, &points) }
        }
    }
}

