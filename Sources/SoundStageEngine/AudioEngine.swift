import Foundation
import Synchronization
import SoundStageCore
import SoundStageSession

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
///
/// The engine is split by concern: the service loop and event delivery
/// (`AudioEngine+Service.swift`), starting players together and on schedule, offline
/// rendering, effects, interruptions, and what players ask of it. Its mutable state is one
/// `EngineState` in a locked box.
public final class AudioEngine: Sendable {
    /// Where the engine's sound goes.
    public enum Output: Sendable, Hashable {
        /// The system's default output device.
        case defaultDevice
        /// An output device by name (see ``AudioDevice/outputDevices``).
        case named(String)
        /// No device: the loopback device renders on request, in this format.
        case offline(RenderFormat)
    }

    /// Who drives the service loop; `tick` is in seconds.
    public enum Service: Sendable, Hashable {
        /// The engine's own thread, every `tick` seconds (default 10 ms).
        case thread(tick: Double = 0.01)
        /// The game calls ``AudioEngine/update()`` (offline engines: ``AudioEngine/render(frames:)``
        /// does it). Offline, `tick` is the block length in seconds rendered between updates; on
        /// a device, give it the time between the game's calls (its frame time): a fade or
        /// ducking set at an update is read that far ahead, meters average over it, and a
        /// voice's end is looked for within two of them.
        case manual(tick: Double = 0.01)
    }

    /// The output device, the one the engine plays to now: it changes when the engine moves
    /// (``switchOutput(to:)``, a lost device, the default device changing).
    public var device: AudioDevice { output.withLock { $0.device } }
    /// The context every player of this engine plays in; it changes with ``device``.
    public var context: AudioContext { output.withLock { $0.context } }
    /// Where the player's ears are: the listener of the engine's ``context`` (the same as
    /// `context.listener`, and it follows the engine to another device).
    public var listener: Listener { context.listener }
    /// The device and context in use, and what was asked for.
    let output: LockedBox<EngineOutput>
    /// The attributes every context of the engine is made with: those it was made with, and
    /// the HRTF it switched to since (``switchHRTF(_:named:)``).
    public var attributes: ContextAttributes { context.attributes }
    /// Whether the engine renders offline through the loopback device.
    public let isOffline: Bool
    /// The service tick in seconds.
    public let tickSeconds: Double
    /// How far ahead of a tick a curve set at it (a fade, ducking) is read, so that what is
    /// heard over the tick follows the curve (``MixerSmoothing/aim(tickSeconds:)``).
    let curveLeadSeconds: Double
    let state = LockedState(EngineState())
    /// The voices and the bus tree.
    let voices: VoicePool
    /// Errors other calls found for the context's unchecked writes (its error sink), posted
    /// at the next tick. Kept apart from ``state``: the sink runs wherever the error is found.
    let foundErrors = ErrorQueue()
    private let started = ContinuousClock.now
    let running = Atomic<Bool>(false)
    /// Whether ``shutdown()`` ran: the device is closed and nothing plays again.
    let shutDown = Atomic<Bool>(false)
    /// Nanoseconds the service thread is to sleep before its next tick (a test hook that
    /// starves it, as a busy machine would).
    let pendingStall = Atomic<Int64>(0)
    /// A test hook's delay, in nanoseconds, for the next underrun's restart (``stallRecovery(seconds:)``).
    let pendingRecoveryStall = Atomic<Int64>(0)
    /// A test hook's delay, in nanoseconds, for the next stream refill (``stallRefill(seconds:)``).
    let pendingRefillStall = Atomic<Int64>(0)

    /// Seconds around the sound server's death within which a lost device is taken as lost
    /// with it (``RouteChange/Reason/mediaServicesWereReset``).
    static let serverLossWindow = 5.0

    /// The allowed service ticks, in seconds.
    public static let tickRange: ClosedRange<Double> = 0.001...1

    /// Opens the output and, for ``Service/thread(tick:)`` on a device, starts the service thread.
    /// Unless `attributes` says, the context gets ``defaultAuxiliarySends`` sends per source.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/noOutputDevice`` or
    ///   ``SoundStageError/Code-swift.struct/deviceNotFound`` when the output cannot be opened,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a tick outside 1 ms...1 s.
    public convenience init(output: Output = .defaultDevice, attributes: ContextAttributes = ContextAttributes(), service: Service = .thread()) throws {
        try self.init(output: output, attributes: attributes, service: service, session: output.isOffline ? nil : .shared)
    }

    /// The auxiliary sends per source an engine asks for when its attributes do not say:
    /// one for bus effects and three for reverb zones.
    public static let defaultAuxiliarySends = 4

    /// The session the engine joined: ``AudioSession/shared`` for a real-time engine, none
    /// for an offline one (it renders on request; nothing on the system interrupts it).
    public let session: AudioSession?

    /// Makes an engine that joins `session` (tests give one of their own).
    init(output: Output, attributes: ContextAttributes, service: Service, session: AudioSession?) throws {
        let tick: Double
        switch service { case .thread(let t), .manual(let t): tick = t }
        guard tick.isFinite, Self.tickRange.contains(tick) else {
            throw Self.failure(.invalidArgument, "init(output:attributes:service:)", object: "new engine", "the tick must be 1 ms...1 s, got \(tick) s")
        }
        let device = try Self.open(output)
        var attributes = attributes
        attributes.auxiliarySends = attributes.auxiliarySends ?? Self.defaultAuxiliarySends
        let context = try AudioContext(device: device, attributes: attributes)
        self.output = LockedBox(EngineOutput(device: device, context: context, requested: output))
        isOffline = output.isOffline
        self.tickSeconds = tick
        curveLeadSeconds = context.mixerSmoothing.aim(tickSeconds: tick)
        let found = foundErrors
        context.handle.setErrorSink { found.append($0) }
        self.session = session
        voices = VoicePool(isOffline: output.isOffline, tickSeconds: tick, curveLeadSeconds: curveLeadSeconds, engineName: "engine on \(device)")
        voices.state.withLockedValue { $0.engine = self }
        session?.join(self)
        if case .thread = service, !isOffline { startServiceThread() }
    }

    deinit {
        running.store(false, ordering: .relaxed)
        stopAll()
        OpenAL.lock.withLock { held in voices.stopAll(held, .engineGone) }
        // Under the lock, so no checked call is between taking the old sink and appending.
        let context = self.context
        let left = OpenAL.lock.withLock { _ in
            context.handle.setErrorSink(nil)
            return foundErrors.take()
        }
        for error in left { Log.report(error) }
        state.withLockedValue({ $0.subscribers.all }).finish()
        // Let go without shutdown(): the session gives back what it held for this engine
        // (other applications' music, their volumes) as it would had the engine left.
        if !isShutDown { session?.memberGone() }
    }

    /// Opens the device for `output`.
    static func open(_ output: Output) throws -> AudioDevice {
        switch output {
        case .defaultDevice: return try AudioDevice.openOutput()
        case .named(let name): return try AudioDevice.openOutput(named: name)
        case .offline(let format): return try AudioDevice.openLoopback(format: format)
        }
    }

    /// The service tick in seconds.
    @available(*, deprecated, renamed: "tickSeconds")
    public var tick: Double { tickSeconds }

    /// Ends the engine: stops the service thread, every player (no finished events) and
    /// every voice, leaves the session, ends every ``events()`` stream, and closes the
    /// device (``AudioDevice/close()``), so the sound server's stream goes and OpenAL has no
    /// device left open when the program exits, whoever still holds the engine or its
    /// objects. From then on playing, rendering and starting throw
    /// ``SoundStageError/Code-swift.struct/deviceClosed``, ``update()`` does nothing, and
    /// releasing what is left is safe. A second call does nothing.
    public func shutdown() {
        running.store(false, ordering: .relaxed)
        // One hold of the lock: no play, start or tick runs between the stops and the close.
        let ended = OpenAL.lock.withLock { held -> Bool in
            guard !shutDown.exchange(true, ordering: .acquiringAndReleasing) else { return false }
            stopAll()
            voices.stopAll(held, .stopped)
            let old = state.withLockedValue(held) { s -> [EngineOutput] in
                defer { s.playingOut.removeAll() }
                return s.playingOut.map(\.output)
            }
            for output in old + [output.withLock { $0 }] { output.device.close() }
            return true
        }
        guard ended else { return }
        if let session { session.leave(self) }
        deliverEvents()
        for stream in state.withLockedValue({ $0.subscribers.end() }) { stream.finish() }
    }

    /// Whether ``shutdown()`` ran.
    public var isShutDown: Bool { shutDown.load(ordering: .acquiring) }

    /// Throws ``SoundStageError/Code-swift.struct/deviceClosed`` once the engine is shut down.
    func checkNotShutDown(_ member: @autoclosure () -> String) throws {
        if isShutDown { throw failure(.deviceClosed, member(), "the engine was shut down and its device closed; make a new AudioEngine") }
    }

    private func stopAll() {
        let players = state.withLockedValue { Array($0.active.values) + $0.scheduled.flatMap(\.players) }
        for player in players { player.stop() }
    }

    /// The engine's clock in seconds: frames rendered so far offline, time since the engine
    /// started otherwise.
    public var currentTime: Double {
        if isOffline { return Double(currentFrame) / Double(context.frequency) }
        return (ContinuousClock.now - started).seconds
    }

    /// The engine's clock in frames of its output: frames rendered so far offline, time since
    /// the engine started (rounded down) otherwise.
    public var currentFrame: Int {
        if isOffline { return state.withLockedValue { $0.renderedFrames } }
        return Int((currentTime * Double(context.frequency)).rounded(.down))
    }

    /// The frame the engine's mixer has reached: offline, the frames rendered; on a real
    /// device, what it has mixed since it opened (`ALC_DEVICE_CLOCK_SOFT`), which stands
    /// still until the device's stream starts (on PulseAudio a while after it opens: 0.3 to
    /// 1.7 s measured) where the wall clock goes on. The voice pool keeps time by it, so a
    /// virtual voice keeps step with the sources that play. Without `ALC_SOFT_device_clock`,
    /// ``currentFrame``.
    func mixerFrame(_ held: borrowing LockHeld) -> Int {
        if isOffline { return state.withLockedValue(held) { $0.renderedFrames } }
        let (device, rate) = output.withLock { ($0.device, $0.context.frequency) }
        guard let nanoseconds = device.clockNanoseconds else { return currentFrame }
        return Int(Double(nanoseconds) * 1e-9 * Double(rate))
    }

    /// Makes a player for `sound`, which must belong to this engine's device.
    public func makePlayer(_ sound: Sound) -> Player { Player(sound: sound, engine: self) }

    /// Keeps a weak reference to a loaded sound made for this engine, so a move takes it along.
    func adopt(_ sound: Sound) {
        state.withLockedValue { s in
            s.sounds.removeAll { $0.sound == nil }
            s.sounds.append(WeakSound(sound: sound))
        }
    }
}

extension AudioEngine.Output {
    /// Whether this is an offline (loopback) output.
    public var isOffline: Bool {
        if case .offline = self { return true }
        return false
    }
}

/// The device and context an engine plays through, and the output it was asked for.
struct EngineOutput {
    var device: AudioDevice
    var context: AudioContext
    var requested: AudioEngine.Output
}

extension AudioEngine: ErrorNaming {
    package var errorObject: String { "engine on \(device)" }
}
