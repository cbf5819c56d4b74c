import COpenAL
import Foundation
import SoundStageCore
import SoundStageSession

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
///
/// The player is split by concern: transport (`Player+Transport.swift`), settings, time and
/// seeking, events, metering, fades, and the service tick. Its mutable state is one
/// `PlayerState` in a locked box; how its source is fed is one `PlaybackFeed`.
public final class Player: Sendable, CustomStringConvertible {
    /// The sound played.
    public let sound: Sound
    /// Whether the context has `AL_SOFT_loop_points` (every context of the same OpenAL has the
    /// same extensions; the player keeps no context, so an old device can close after a move).
    let hasLoopPoints: Bool
    /// Whether the player plays a fire-and-forget effect (on the effects bus, silenced by ``AudioEngine/effectsMuted``).
    let isEffect: Bool
    /// Copies of the engine's settings, so they stay readable without it.
    let isOffline: Bool
    let tickSeconds: Double
    /// How far ahead of a tick a tween is read (``AudioEngine/curveLeadSeconds``).
    let curveLeadSeconds: Double
    /// Whether the context has `AL_SOFT_source_latency` (checked once, not every tick).
    let hasSourceLatency: Bool
    /// Whether the device has `ALC_SOFT_device_clock` as well: what measures underruns.
    let hasDeviceClock: Bool
    weak let engineRef: AudioEngine?
    /// The timeline of the playlist this player plays, told where it is heard each tick.
    let timeline: PlaylistTimeline?
    let state = LockedState(PlayerState())

    /// The allowed ``volume`` values.
    public static let volumeRange: ClosedRange<Float> = 0...1
    /// The allowed ``pan`` values.
    public static let panRange: ClosedRange<Float> = -1...1
    /// The allowed ``rate`` values.
    public static let rateRange: ClosedRange<Float> = 0.5...2

    init(sound: Sound, engine: AudioEngine, isEffect: Bool = false, timeline: PlaylistTimeline? = nil) {
        self.sound = sound
        self.timeline = timeline
        self.hasLoopPoints = engine.context.isExtensionPresent("AL_SOFT_loop_points")
        self.isOffline = engine.isOffline
        self.tickSeconds = engine.tickSeconds
        self.curveLeadSeconds = engine.curveLeadSeconds
        self.hasSourceLatency = engine.context.isExtensionPresent("AL_SOFT_source_latency")
        self.hasDeviceClock = hasSourceLatency && engine.device.isExtensionPresent("ALC_SOFT_device_clock")
        self.engineRef = engine
        self.isEffect = isEffect
        if isEffect { state.withLockedValue { $0.settings.bus = Bus.effectsIndex } }
        let gone = engine.state.withLockedValue { $0.made }.gone
        engine.state.withLockedValue { s in
            s.made.removeAll { gone.contains($0.serial) }
            s.made.append(WeakPlayer(self))
        }
    }

    deinit {
        let (streams, lent) = state.withLockedValue { ($0.subscribers.all, $0.source != nil) }
        // Its source was lent by the engine's pool: the pool counts it back.
        if lent, let engine = engineRef { OpenAL.lock.withLock { held in engine.takeBackSource(held) } }
        streams.finish()
    }

    /// The engine that services this player; nil once the engine is gone.
    public var engine: AudioEngine? { engineRef }

    /// For example `player of sound (snare.wav)`.
    public var description: String { "player of \(sound)" }

    /// Runs `body` with the engine kept alive to its end. Every public entry point that opens
    /// the player's locked state does this: an engine another thread lets go of meanwhile then
    /// cannot be deinitialized inside the player's state (its deinit stops the player, which
    /// would open that state again).
    func keepingEngine<R>(_ body: () throws -> R) rethrows -> R {
        let engine = engineRef
        return try withExtendedLifetime(engine) { try body() }
    }

    /// The engine, or an error saying it is gone.
    func liveEngine(_ member: String) throws -> AudioEngine {
        guard let engine = engineRef else {
            throw failure(.invalidState, member, "its engine was released; keep the AudioEngine while you play sound")
        }
        if engine.isShutDown {
            throw failure(.deviceClosed, member, "its engine was shut down and its device closed; make a new AudioEngine")
        }
        return engine
    }

    /// The context the player's source belongs in: its engine's, which follows the engine's
    /// output device.
    func outputContext(_ member: String) throws -> AudioContext {
        try liveEngine(member).context
    }

    /// Whether the player is playing.
    public var isPlaying: Bool { state.withLockedValue { $0.status == .playing } }

    /// The length of the sound in seconds.
    public var duration: Double { sound.duration }
    /// The length of the sound in frames.
    public var durationFrames: Int { sound.frameCount }
    /// Channels in the sound.
    public var numberOfChannels: Int { sound.channelCount }

    /// The source, for the 3D properties a game tunes (distance model, cone, velocity,
    /// rolloff); nil until ``prepareToPlay()``. Leave its buffer, queue, position and gain
    /// to the player.
    public var audioSource: AudioSource? { state.withLockedValue { $0.source } }
}

extension Player: ErrorNaming {
    package var errorObject: String { description }
}
