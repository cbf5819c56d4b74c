import Foundation
import Synchronization

/// Owns an output (a device and its context) and runs the service loop that keeps players,
/// events and tweens up to date.
///
/// ```swift
/// let engine = try AudioEngine()                        // default device, own service thread
/// let music = try Sound(engine: engine, contentsOf: url)
/// let player = engine.makePlayer(music)
/// player.numberOfLoops = -1
/// try player.play()
/// ```
///
/// The service loop runs either on the engine's own thread (``Service/thread(tick:)``,
/// every 10 ms by default) or when the game calls ``update()`` once per frame
/// (``Service/manual(tick:)``). Offline engines render through the loopback device with
/// ``render(frames:)``, which calls ``update()`` after every tick's worth of frames, so
/// offline renders are deterministic; they never run a service thread.
///
/// Player events are delivered one at a time, in order, with no lock held, on a thread
/// running the service loop: the engine's service thread (``isServiceThread``), or the thread
/// that calls ``update()`` or ``render(frames:)``; never on OpenAL's mixer thread.
///
/// Keep the engine as long as you want sound: while it lives it keeps every playing, paused
/// or scheduled player alive, so a fire-and-forget sound plays to its end; when it goes
/// away it stops them all (``shutdown()``). Players hold their engine weakly.
public final class AudioEngine: @unchecked Sendable {
    /// Where the engine's sound goes.
    public enum Output: Sendable, Hashable {
        /// The system's default output device.
        case defaultDevice
        /// An output device by name (see ``AudioDevice/outputDevices``).
        case named(String)
        /// No device: the loopback device renders on request, in this format.
        case offline(RenderFormat)
    }

    /// Who drives the service loop.
    public enum Service: Sendable, Hashable {
        /// The engine's own thread, every `tick` seconds (default 10 ms).
        case thread(tick: Double = 0.01)
        /// The game calls ``AudioEngine/update()`` (offline engines: ``AudioEngine/render(frames:)``
        /// does it); `tick` is the block length offline renders use between updates.
        case manual(tick: Double = 0.01)
    }

    /// One event on its way to a player, with the run of the player it belongs to.
    typealias Outgoing = (player: Player, event: PlayerEvent, run: Int)

    /// The output device.
    public let device: AudioDevice
    /// The context every player of this engine plays in.
    public let context: AudioContext
    /// Whether the engine renders offline through the loopback device.
    public let isOffline: Bool
    /// The service tick in seconds.
    public let tick: Double

    // All state below is read and written under OpenAL.lock.
    /// Players that play or are paused: retained until they finish or stop.
    var active: [ObjectIdentifier: Player] = [:]
    /// Players scheduled with ``play(_:atTime:)``: engine seconds, and for offline engines
    /// the exact frame (the time rounded to the nearest frame).
    var scheduled: [(time: Double, frame: Int, players: [Player])] = []
    var renderedFrames = 0
    var effectsMutedValue = false
    var interrupted = false
    /// Events collected and not yet delivered, in order.
    private var outbox: [Outgoing] = []
    /// Whether a thread is delivering the outbox.
    private var draining = false
    private var lastLevels: [(peak: Double, rms: Double)] = []
    /// The output latency read at the last tick (real devices).
    private var lastLatency = 0.0
    private let started = ContinuousClock.now
    private let running = Atomic<Bool>(false)

    /// Opens the output and, for ``Service/thread(tick:)`` on a device, starts the service thread.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/noOutputDevice`` or
    ///   ``SoundStageError/Code-swift.struct/deviceNotFound`` when the output cannot be opened,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a tick outside 1 ms...1 s.
    public init(output: Output = .defaultDevice, attributes: ContextAttributes = ContextAttributes(), service: Service = .thread()) throws {
        let tick: Double
        switch service { case .thread(let t), .manual(let t): tick = t }
        guard tick.isFinite, tick >= 0.001, tick <= 1 else {
            throw SoundStageError(.invalidArgument, operation: "AudioEngine.init", object: "engine", reason: "the tick must be 1 ms...1 s, got \(tick) s")
        }
        switch output {
        case .defaultDevice: device = try AudioDevice.openOutput()
        case .named(let name): device = try AudioDevice.openOutput(named: name)
        case .offline(let format): device = try AudioDevice.openLoopback(format: format)
        }
        context = try AudioContext(device: device, attributes: attributes)
        isOffline = { if case .offline = output { return true } else { return false } }()
        self.tick = tick
        if case .thread = service, !isOffline { startServiceThread() }
    }

    deinit {
        running.store(false, ordering: .relaxed)
        stopAll()
    }

    private func startServiceThread() {
        running.store(true, ordering: .relaxed)
        let tick = self.tick
        let thread = Thread { [weak self] in
            Thread.current.name = Self.serviceThreadName
            Thread.current.threadDictionary[Self.serviceThreadKey] = true
            while true {
                Thread.sleep(forTimeInterval: tick)
                guard let engine = self, engine.running.load(ordering: .relaxed) else { return }
                engine.update()
            }
        }
        thread.name = Self.serviceThreadName
        thread.start()
    }

    /// The name of the engine's service thread (Linux keeps at most 15 characters).
    public static let serviceThreadName = "SoundStage svc"
    private static let serviceThreadKey = "SoundStage.AudioEngine.service"

    /// Whether the calling thread is an engine's own service thread, where events are
    /// delivered for ``Service/thread(tick:)`` engines.
    public static var isServiceThread: Bool {
        Thread.current.threadDictionary[serviceThreadKey] as? Bool ?? false
    }

    /// Stops the service thread and every player (no finished events); the engine can still
    /// be driven with ``update()``.
    public func shutdown() {
        running.store(false, ordering: .relaxed)
        stopAll()
    }

    private func stopAll() {
        let players = OpenAL.lock.withLock { Array(active.values) + scheduled.flatMap(\.players) }
        for player in players { player.stop() }
    }

    /// The engine's clock in seconds: frames rendered so far offline, time since the engine
    /// started otherwise.
    public var currentTime: Double {
        if isOffline { return OpenAL.lock.withLock { Double(renderedFrames) / Double(context.frequency) } }
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Makes a player for `sound`, which must belong to this engine's device.
    public func makePlayer(_ sound: Sound) -> Player { Player(sound: sound, engine: self) }

    // MARK: - Service loop

    /// Runs one service tick: starts scheduled players whose time has come, advances tweens,
    /// refills loops and streams, notices players that reached their end, and delivers events.
    public func update() {
        OpenAL.lock.withLock {
            let now = currentTime
            let isDue: ((time: Double, frame: Int, players: [Player])) -> Bool = { [isOffline, renderedFrames] in
                isOffline ? $0.frame <= renderedFrames : $0.time <= now
            }
            let due = scheduled.filter(isDue)
            scheduled.removeAll(where: isDue)
            for group in due { startScheduledLocked(group.players) }
            // The output latency is the device's: read once a tick, through any playing source,
            // and the larger of this tick's and the last one's (it reads low as a stream drains).
            let reading = isOffline ? nil : active.values.lazy.compactMap { $0.outputLatencyLocked() }.first
            let latency = max(reading ?? 0, lastLatency)
            lastLatency = reading ?? lastLatency
            for player in Array(active.values) { player.service(now: now, latency: latency) }
        }
        deliverEvents()
    }

    /// Starts a scheduled group; during an interruption they wait, paused, for its end.
    private func startScheduledLocked(_ players: [Player]) {
        let waiting = players.filter { $0.status == .scheduled }
        if interrupted {
            for player in waiting {
                player.holdForInterruptionLocked()
                post(.interruptionBegan, to: player)
            }
            return
        }
        do { try startTogether(waiting) } catch {
            for player in waiting where player.status == .scheduled { player.status = .stopped }
        }
    }

    /// Queues an event for delivery. Under the lock.
    func post(_ event: PlayerEvent, to player: Player) {
        outbox.append((player, event, player.run))
    }

    /// Delivers queued events, one at a time and in order, with no lock held. One thread
    /// delivers at a time; a delegate that calls back into the engine only adds to the queue.
    private func deliverEvents() {
        let mine = OpenAL.lock.withLock { () -> Bool in
            if draining || outbox.isEmpty { return false }
            draining = true
            return true
        }
        guard mine else { return }
        while true {
            let next = OpenAL.lock.withLock { () -> Outgoing? in
                if outbox.isEmpty { draining = false; return nil }
                return outbox.removeFirst()
            }
            guard let next else { return }
            next.player.deliver(next.event, run: next.run)
        }
    }

    /// Renders `frames` frames offline: blocks of one tick, with ``update()`` after each,
    /// and scheduled players started on their exact frame.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` for an engine on a real device.
    public func render(frames: Int) throws -> RenderedAudio {
        guard isOffline else {
            throw SoundStageError(.invalidState, operation: "AudioEngine.render", object: "engine on \(device)",
                                  reason: "only an offline engine renders on request; make one with output: .offline(format)")
        }
        let rate = context.frequency
        let tickFrames = max(1, Int((tick * Double(rate)).rounded()))
        var out = try device.render(frames: 0)
        out.samples.reserveCapacity(max(0, frames) * out.format.channels.channelCount)
        var left = frames
        while left > 0 {
            let (position, nextStart) = OpenAL.lock.withLock { (renderedFrames, scheduled.map(\.frame).min()) }
            if let nextStart, nextStart <= position {
                update()   // starts it on this very frame
                continue
            }
            var n = min(left, tickFrames - position % tickFrames)
            if let nextStart { n = min(n, nextStart - position) }
            out.append(try device.render(frames: n))
            OpenAL.lock.withLock { renderedFrames += n }
            left -= n
            if (position + n) % tickFrames == 0 { update() }
        }
        let levels = out.levels()
        OpenAL.lock.withLock { lastLevels = levels }
        return out
    }

    /// Peak and RMS level of each output channel in dBFS (-160 for silence) over the last
    /// ``render(frames:)``: master-output metering for offline renders.
    public var outputLevels: [(peak: Double, rms: Double)] { OpenAL.lock.withLock { lastLevels } }

    // MARK: - Starting together

    /// Starts `players` together, on the same sample (`alSourcePlayv`), now or at engine
    /// time `time`. Offline, a scheduled start lands on its exact frame; in real time,
    /// within one service tick. Players already playing are left as they are.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a player of another
    ///   engine or a time in the past, ``SoundStageError/Code-swift.struct/invalidState``
    ///   during an interruption, and what preparing a player can throw.
    public func play(_ players: [Player], atTime time: Double? = nil) throws {
        for player in players where player.engine !== self {
            throw SoundStageError(.invalidArgument, operation: "AudioEngine.play", object: player.description, reason: "the player belongs to another engine")
        }
        try OpenAL.lock.withLock {
            guard let time else {
                try refuseDuringInterruption("AudioEngine.play")
                try startTogether(players)
                return
            }
            guard time.isFinite, time >= currentTime else {
                throw SoundStageError(.invalidArgument, operation: "AudioEngine.play(atTime: \(time))", object: "engine",
                                      reason: "the time must be finite and not before the engine's current time \(currentTime)")
            }
            let waiting = players.filter { $0.status != .playing }
            for player in waiting { try player.prepareLocked() }   // a scheduled one keeps its feed
            for player in waiting {
                unschedule(player)
                player.status = .scheduled
            }
            scheduled.append((time, Int((time * Double(context.frequency)).rounded()), waiting))
        }
    }

    /// Throws while an interruption holds the output. Under the lock.
    func refuseDuringInterruption(_ operation: String) throws {
        if interrupted {
            throw SoundStageError(.invalidState, operation: operation, object: "engine",
                                  reason: "the audio is interrupted; players resume when the interruption ends")
        }
    }

    /// Prepares and starts players in one `alSourcePlayv`. Under the lock.
    func startTogether(_ players: [Player]) throws {
        let starting = players.filter { $0.status != .playing }
        var sources: [AudioSource] = []
        for player in starting { sources.append(try player.prepareLocked()) }
        try AudioSource.play(sources)
        for player in starting {
            unschedule(player)
            player.startedLocked()
        }
    }

    /// Takes a player out of the scheduled starts. Under the lock.
    func unschedule(_ player: Player) {
        guard scheduled.contains(where: { $0.players.contains { $0 === player } }) else { return }
        scheduled = scheduled.compactMap { group in
            let rest = group.players.filter { $0 !== player }
            return rest.isEmpty ? nil : (group.time, group.frame, rest)
        }
    }

    // MARK: - Effects

    /// Plays a non-positioned sound once, fire and forget (the System Sound Services
    /// one-liner). It is silent while ``effectsMuted`` is on.
    ///
    /// - Returns: the player, should the caller want to stop it early.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a volume outside
    ///   0...1, and what ``Player/play()`` throws.
    @discardableResult
    public func playEffect(_ sound: Sound, volume: Float = 1) throws -> Player {
        let player = Player(sound: sound, engine: self, isEffect: true)
        try player.setVolume(volume)
        try player.play()
        return player
    }

    /// Silences every effect started with ``playEffect(_:volume:)``, at once and until
    /// switched off; other players are not affected.
    public var effectsMuted: Bool {
        get { OpenAL.lock.withLock { effectsMutedValue } }
        set {
            OpenAL.lock.withLock {
                effectsMutedValue = newValue
                for player in active.values where player.isEffect { player.applyGain() }
            }
        }
    }

    // MARK: - Interruptions

    /// Pauses every playing player and tells each (``PlayerEvent/interruptionBegan``), as
    /// when another app or a phone call takes the audio. The audio session drives this.
    /// Until ``endInterruption(resume:)``, `play()` throws and scheduled starts wait.
    public func beginInterruption() {
        OpenAL.lock.withLock {
            guard !interrupted else { return }
            interrupted = true
            for player in active.values where player.status == .playing {
                if player.interruptLocked() { post(.interruptionBegan, to: player) }
            }
        }
        deliverEvents()
    }

    /// Ends an interruption: tells each interrupted player (``PlayerEvent/interruptionEnded``)
    /// and, when `resume` is true, plays it on from where it was paused.
    public func endInterruption(resume: Bool = true) {
        OpenAL.lock.withLock {
            guard interrupted else { return }
            interrupted = false
            for player in active.values where player.wasInterrupted {
                player.endInterruptionLocked(resume: resume)
                post(.interruptionEnded, to: player)
            }
        }
        deliverEvents()
    }
}
