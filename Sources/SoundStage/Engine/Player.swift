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
/// it is released. While it plays, the engine retains it, so a player let go mid-sound
/// still plays to its end and reports it. All members are safe from any thread.
///
/// Property setters (``volume``, ``pan``, ``rate``) clamp what they are given to the allowed
/// range, as AVAudioPlayer does, and ignore NaN; the `set...` methods throw instead.
public final class Player: @unchecked Sendable, CustomStringConvertible {
    enum Status { case idle, scheduled, playing, paused, stopped }

    /// The sound played.
    public let sound: Sound
    /// The engine that services this player.
    public let engine: AudioEngine
    let isEffect: Bool

    // All state below is read and written under OpenAL.lock.
    var status = Status.idle
    var wasInterrupted = false
    private var source: AudioSource?
    private var loopBuffer: AudioBuffer?
    private var stream: StreamFeed?
    private var volumeValue: Float = 1
    private var panValue: Float = 0
    private var rateValue: Float = 1
    private var loopsValue = 0
    private var loopRegionValue: Range<Double>?
    private var positionValue: SIMD3<Float>?
    /// Plays of a loaded sound still to queue (long `numberOfLoops` are queued a few at a time).
    private var playsToQueue = 0
    /// Where the next start begins, in frames (set by seeking while not playing, and by stop).
    private var startFrame = 0
    /// The frame the source will start from once played, while it is fed but not started.
    private var pendingStart: Int?
    /// The output latency last read while playing, and when the end of the sound is heard.
    private var outputLatency = 0.0
    private var finishAt: Double?
    private var tweens: [Tween] = []
    private var meteringEnabled = false
    private var meters: [(average: Float, peak: Float)] = []
    private weak var delegateValue: PlayerDelegate?
    private var continuations: [UUID: AsyncStream<PlayerEvent>.Continuation] = [:]

    init(sound: Sound, engine: AudioEngine, isEffect: Bool = false) {
        self.sound = sound
        self.engine = engine
        self.isEffect = isEffect
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    /// For example `player of sound (snare.wav)`.
    public var description: String { "player of \(sound)" }

    private func locked<R>(_ body: () throws -> R) rethrows -> R { try OpenAL.lock.withLock(body) }

    private func invalid(_ operation: String, _ reason: String) -> SoundStageError {
        SoundStageError(.invalidArgument, operation: operation, object: description, reason: reason)
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

    /// Hands an event to the delegate and the streams. Called outside the lock, serially by
    /// whoever runs the service loop.
    func deliver(_ event: PlayerEvent) {
        let (delegate, streams) = locked { (delegateValue, Array(continuations.values)) }
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
        let source = try self.source ?? AudioSource(context: engine.context)
        self.source = source
        if status == .paused || status == .playing || status == .scheduled || pendingStart != nil { return source }
        try feed(source, from: startFrame)
        applyGain()
        try applyPan()
        try source.set(.pitch, to: rateValue)
        return source
    }

    /// Sets the buffer or queue for playing from `frame`; the source starts there when played.
    private func feed(_ source: AudioSource, from frame: Int) throws {
        try source.stop()
        try source.setBuffer(nil)
        stream = nil
        if let decoder = try sound.makeDecoder() {
            try source.set(.isLooping, to: false)
            let feed = StreamFeed(decoder: decoder, loops: loopsValue, label: sound.label)
            try decoder.seek(toFrame: min(frame, decoder.frameCount))
            stream = feed
            feed.fill(source)
            if let failure = feed.failure, feed.chunks.isEmpty { stream = nil; throw failure }
        } else if let region = loopRegionValue {
            let buffer = try loopBuffer ?? makeLoopBuffer(region)
            loopBuffer = buffer
            try source.setBuffer(buffer)
            try source.set(.isLooping, to: true)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
        } else if loopsValue < 0 {
            try source.setBuffer(sound.buffer)
            try source.set(.isLooping, to: true)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
        } else {
            try source.set(.isLooping, to: false)
            playsToQueue = loopsValue + 1
            try queueMore(source)
            if frame > 0 { try source.set(.sampleOffset, to: frame) }
        }
        pendingStart = frame
    }

    /// Keeps up to 8 plays of a loaded sound queued; the service loop tops up long loop counts.
    private func queueMore(_ source: AudioSource) throws {
        guard let buffer = sound.buffer else { return }
        let queued = source.get(.buffersQueued) - source.get(.buffersProcessed)
        let n = min(playsToQueue, max(0, 8 - queued))
        guard n > 0 else { return }
        try source.queue(Array(repeating: buffer, count: n))
        playsToQueue -= n
    }

    private func makeLoopBuffer(_ region: Range<Double>) throws -> AudioBuffer {
        guard let original = sound.buffer else {
            throw SoundStageError(.invalidState, operation: "loopRegion", object: description, reason: "loop regions need a loaded sound, not a streamed one")
        }
        let rate = Double(sound.sampleRate)
        let start = Int((region.lowerBound * rate).rounded()), end = min(sound.frameCount, Int((region.upperBound * rate).rounded()))
        let buffer = try original.copy(to: engine.context)
        try buffer.setLoopPoints(start..<max(start + 1, end))
        return buffer
    }

    /// Starts the fed source. Under the lock.
    func startedLocked() {
        pendingStart = nil
        status = .playing
        engine.active[ObjectIdentifier(self)] = self
    }

    /// Plays, or resumes after ``pause()``. Playing again after the sound finished or was
    /// stopped starts from ``currentTime`` (0 after a natural end).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/sourceLimitReached`` when the context has
    ///   no source left, and the errors of preparing the source.
    public func play() throws {
        try locked {
            switch status {
            case .playing: return
            case .paused:
                guard let source else { return }
                try source.play()
                startedLocked()
            case .scheduled:
                engine.unschedule(self)
                status = .idle
                try engine.startTogether([self])
            case .idle, .stopped:
                try engine.startTogether([self])
            }
        }
    }

    /// Plays at engine time `time` (``AudioEngine/currentTime``): on its exact frame in an
    /// offline render, within one service tick in real time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time in the past.
    public func play(atTime time: Double) throws { try engine.play([self], atTime: time) }

    /// Pauses; ``play()`` resumes from here. A scheduled start is cancelled.
    public func pause() {
        locked {
            switch status {
            case .playing:
                try? source?.pause()
                status = .paused
            case .scheduled:
                engine.unschedule(self)
                status = .paused
            default: return
            }
        }
    }

    /// Stops without reporting ``PlayerEvent/finished(successfully:)``, as on iOS. The next
    /// ``play()`` starts from ``currentTime``, which stop leaves where it was.
    public func stop() {
        locked {
            guard status != .idle && status != .stopped else { return }
            startFrame = currentFrameLocked()
            haltLocked()
            status = .stopped
        }
    }

    /// Stops the source and lets the engine go of the player. Under the lock.
    private func haltLocked() {
        finishAt = nil
        try? source?.stop()
        try? source?.setBuffer(nil)
        stream = nil
        pendingStart = nil
        tweens.removeAll()
        engine.unschedule(self)
        engine.active.removeValue(forKey: ObjectIdentifier(self))
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
        let muted = isEffect && engine.effectsMutedValue
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
        set { locked { loopsValue = max(-1, newValue) } }
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
            guard engine.context.isExtensionPresent("AL_SOFT_loop_points") else {
                throw SoundStageError(.extensionMissing, operation: "setLoopRegion", object: description, reason: "loop points need AL_SOFT_loop_points")
            }
        }
        locked {
            loopRegionValue = region
            loopBuffer = nil
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

    /// The playhead in seconds within the sound, corrected for output latency; setting it
    /// seeks (playing or not). A time outside the sound is ignored; ``seek(to:)`` throws.
    public var currentTime: Double {
        get { locked { Double(currentFrameLocked()) / Double(sound.sampleRate) } }
        set { try? seek(to: newValue) }
    }

    /// Moves the playhead to `time` seconds, exactly to the frame, playing or not.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time outside the
    ///   sound, and what decoding a streamed sound there throws.
    public func seek(to time: Double) throws {
        guard time.isFinite, time >= 0, time <= duration else { throw invalid("seek(to: \(time))", "time must be in 0...\(duration) s") }
        let frame = max(0, min(sound.frameCount - 1, Int((time * Double(sound.sampleRate)).rounded())))
        try locked {
            guard let source, status != .idle && status != .stopped else {
                startFrame = frame
                pendingStart = nil
                if let source { try source.stop(); try source.setBuffer(nil) }
                stream = nil
                return
            }
            if stream == nil, loopRegionValue != nil || loopsValue < 0 {
                try source.set(.sampleOffset, to: frame)   // one looping buffer: jump in place
                if status != .playing { pendingStart = frame }
                return
            }
            // A queue: the plays left (the current one and those not started) are queued again.
            if stream == nil { playsToQueue += max(0, source.get(.buffersQueued) - source.get(.buffersProcessed)) }
            let wasPlaying = status == .playing
            let played = stream == nil ? 0 : queueOffsetLocked(source)
            try source.stop()
            try source.setBuffer(nil)
            if let stream {
                stream.reset(keepingPlayAt: played)
                try stream.decoder.seek(toFrame: frame)
                stream.fill(source)
            } else {
                try queueMore(source)
                try source.set(.sampleOffset, to: frame)
            }
            if wasPlaying { try source.play() } else { pendingStart = frame }
        }
    }

    /// The frame being heard within the sound. Under the lock.
    private func currentFrameLocked() -> Int {
        if let pendingStart { return pendingStart }
        guard let source, status == .playing || status == .paused else { return startFrame }
        let played = queueOffsetLocked(source)
        if let stream { return stream.frame(atQueueOffset: played) }
        let frames = sound.frameCount
        return frames > 0 ? played % frames : 0
    }

    /// Frames into the source's buffer or queue being heard now (latency-corrected on a real
    /// device when `AL_SOFT_source_latency` is there). Under the lock.
    private func queueOffsetLocked(_ source: AudioSource) -> Int {
        var offset: Double
        if source.context.isExtensionPresent("AL_SOFT_source_latency") {
            let value = source.get(.offsetWithLatency)
            offset = (engine.isOffline ? value.offset : value.heard) * Double(sound.sampleRate)
        } else {
            offset = Double(source.get(.sampleOffset))
        }
        return max(0, Int(offset.rounded(.down)))
    }

    // MARK: - Metering

    /// Whether ``updateMeters()`` measures; off by default.
    public var isMeteringEnabled: Bool {
        get { locked { meteringEnabled } }
        set { locked { meteringEnabled = newValue; if !newValue { meters = [] } } }
    }

    /// Measures the player's own samples in the 1024 frames before the playhead, with its
    /// volume applied, for ``averagePower(forChannel:)`` and ``peakPower(forChannel:)``.
    public func updateMeters() {
        let (enabled, window, gain) = locked { () -> (Bool, [Float], Float) in
            guard meteringEnabled, status == .playing else { return (meteringEnabled, [], 0) }
            let muted = isEffect && engine.effectsMutedValue
            return (true, meterWindowLocked(frames: 1_024), muted ? 0 : volumeValue)
        }
        guard enabled else { return }
        let channels = sound.channelCount
        var result = [(average: Float, peak: Float)](repeating: (-160, -160), count: channels)
        let frames = window.count / max(channels, 1)
        if frames > 0 {
            for c in 0..<channels {
                var sum = 0.0, peak: Float = 0
                for k in 0..<frames {
                    let v = window[k * channels + c] * gain
                    sum += Double(v) * Double(v)
                    peak = max(peak, abs(v))
                }
                result[c] = (Self.dB((sum / Double(frames)).squareRoot()), Self.dB(Double(peak)))
            }
        }
        locked { meters = result }
    }

    /// Up to `frames` frames of the player's samples ending at the playhead. Under the lock.
    private func meterWindowLocked(frames wanted: Int) -> [Float] {
        let channels = sound.channelCount
        let frame = currentFrameLocked()
        if let stream { return stream.samples(endingAt: frame, frames: wanted, channels: channels) }
        let samples = sound.samples
        let total = sound.frameCount
        guard total > 0 else { return [] }
        var count = min(wanted, total)
        var start = frame - count
        if start < 0 {
            // Before the playhead is the end of the previous play when looping, else nothing.
            if loopsValue != 0 || loopRegionValue != nil { start += total } else { start = 0; count = frame }
        }
        var out: [Float] = []
        out.reserveCapacity(count * channels)
        for k in 0..<count {
            let base = ((start + k) % total) * channels
            out.append(contentsOf: samples[base..<(base + channels)])
        }
        return out
    }

    static func dB(_ level: Double) -> Float { level > 0 ? Float(max(-160, min(0, 20 * log10(level)))) : -160 }

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
        let ahead = now + engine.tick
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
        if stopNow {
            startFrame = currentFrameLocked()
            haltLocked()
            status = .stopped
        }
    }

    // MARK: - Service

    /// One tick for this player, under the lock: tweens, loop top-up, streaming, end of sound.
    func service(now: Double, events: inout [(Player, PlayerEvent)]) {
        guard status == .playing, let source else { return }
        advanceTweens(now: now)
        guard status == .playing else { return }
        var successfully = true
        if let stream {
            let before = stream.failure
            stream.service(source)
            if before == nil, let failure = stream.failure { events.append((self, .decodeError(failure))) }
            if source.state == .stopped, !stream.chunks.isEmpty {
                try? source.play()   // ran dry before the next chunk came: go on
                return
            }
            successfully = stream.failure == nil
        } else if playsToQueue > 0 {
            _ = try? source.unqueueProcessedBuffers()
            try? queueMore(source)
        }
        let realTime = !engine.isOffline && source.context.isExtensionPresent("AL_SOFT_source_latency")
        guard source.state == .stopped else {
            if realTime { outputLatency = source.get(.offsetWithLatency).latency }
            return
        }
        if realTime {
            // On a real device the mixer runs ahead of the ear by the output latency: the
            // source stops that long before its last sample is heard, so the end is reported
            // when it is heard.
            // The device latency now: the whole sound may have been mixed before any tick saw it play.
            let heardAt = finishAt ?? now + max(outputLatency, source.get(.offsetWithLatency).latency)
            finishAt = heardAt
            if now < heardAt { return }
        }
        finishLocked(successfully: successfully, events: &events)
    }

    private func finishLocked(successfully: Bool, events: inout [(Player, PlayerEvent)]) {
        startFrame = 0
        finishAt = nil
        haltLocked()
        status = .stopped
        events.append((self, .finished(successfully: successfully)))
    }

    func interruptLocked() {
        try? source?.pause()
        status = .paused
        wasInterrupted = true
    }

    func endInterruptionLocked(resume: Bool) {
        wasInterrupted = false
        if resume, status == .paused, let source {
            if (try? source.play()) != nil { startedLocked() }
        }
    }
}

/// The decoder and queued chunks of a player of a streamed sound. Used under the lock.
final class StreamFeed {
    let decoder: any AudioDecoder
    let label: String
    /// Frames per chunk: 100 ms, at least 1024.
    let chunkFrames: Int
    /// How many chunks to keep queued (400 ms at 100 ms each).
    static let depth = 4
    /// The chunks in the source's queue, processed ones included until unqueued, with the
    /// sound frame each starts at.
    private(set) var chunks: [(buffer: AudioBuffer, start: Int)] = []
    /// The last chunk unqueued, kept for metering across a chunk boundary.
    private var previous: (buffer: AudioBuffer, start: Int)?
    /// Plays still to begin after the current one (-1 forever).
    var loopsLeft: Int
    /// The decoder reached the end of the last play.
    private(set) var ended = false
    /// Decoding failed; what decoded before is still played.
    private(set) var failure: SoundStageError?

    init(decoder: any AudioDecoder, loops: Int, label: String) {
        self.decoder = decoder
        self.label = label
        chunkFrames = max(1_024, decoder.sampleRate / 10)
        loopsLeft = loops
    }

    /// Forgets the queue (the source's queue was emptied) while the play at `offset` frames
    /// into it was heard: plays the decoder had begun beyond that one are given back.
    func reset(keepingPlayAt offset: Int) {
        if loopsLeft >= 0 {
            var left = offset, heard = chunks.count
            for (i, chunk) in chunks.enumerated() {
                if left < chunk.buffer.frameCount { heard = i; break }
                left -= chunk.buffer.frameCount
            }
            let restarts = chunks.indices.filter { $0 > heard && chunks[$0].start == 0 }.count
            loopsLeft += restarts
        }
        chunks = []
        previous = nil
        ended = false
        failure = nil
    }

    /// Unqueues what was played and decodes more.
    func service(_ source: AudioSource) {
        if let done = try? source.unqueueProcessedBuffers(), !done.isEmpty {
            previous = chunks[done.count - 1]
            chunks.removeFirst(done.count)
        }
        fill(source)
    }

    /// Decodes and queues chunks until ``depth`` are queued, the sound ends, or decoding fails.
    func fill(_ source: AudioSource) {
        while chunks.count < Self.depth, !ended, failure == nil {
            do {
                let start = decoder.position
                let bytes = try decoder.read(maxFrames: chunkFrames)
                if bytes.isEmpty {
                    if decoder.position < decoder.frameCount {
                        throw SoundStageError(.decodingFailed, operation: "stream", object: label,
                                              reason: "the data ends at frame \(decoder.position) of the \(decoder.frameCount) it states")
                    }
                    if loopsLeft != 0, decoder.frameCount > 0 {
                        if loopsLeft > 0 { loopsLeft -= 1 }
                        try decoder.seek(toFrame: 0)
                        continue
                    }
                    ended = true
                    break
                }
                let buffer = try AudioBuffer(context: source.context, bytes: bytes, format: decoder.outputFormat,
                                             sampleRate: decoder.sampleRate, label: label)
                try source.queue([buffer])
                chunks.append((buffer, start))
            } catch let error as SoundStageError {
                failure = error
            } catch {
                failure = SoundStageError(.decodingFailed, operation: "stream", object: label, reason: "\(error)")
            }
        }
    }

    /// The sound frame at `offset` frames into the source's queue.
    func frame(atQueueOffset offset: Int) -> Int {
        var left = offset
        for chunk in chunks {
            let frames = chunk.buffer.frameCount
            if left < frames { return chunk.start + left }
            left -= frames
        }
        guard let last = chunks.last else { return decoder.position }
        return last.start + last.buffer.frameCount
    }

    /// Up to `frames` frames of decoded samples ending at sound frame `frame`, from the
    /// queued chunks (and the one played before them).
    func samples(endingAt frame: Int, frames: Int, channels: Int) -> [Float] {
        var all = (previous.map { [$0] } ?? []) + chunks
        // Only chunks that run on from each other count (a loop restarts at frame 0).
        guard let index = all.lastIndex(where: { $0.start <= frame && frame <= $0.start + $0.buffer.frameCount }) else { return [] }
        all = Array(all[...index])
        var out: [Float] = []
        var need = frames
        var end = frame
        for chunk in all.reversed() where need > 0 {
            guard chunk.start + chunk.buffer.frameCount >= end, chunk.start < end else { break }
            let samples = chunk.buffer.floatSamples()
            let from = max(chunk.start, end - need)
            let slice = samples[((from - chunk.start) * channels)..<((end - chunk.start) * channels)]
            out.insert(contentsOf: slice, at: 0)
            need -= end - from
            end = from
        }
        return out
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

