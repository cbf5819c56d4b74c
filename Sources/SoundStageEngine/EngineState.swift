import Foundation
import Synchronization
import SoundStageCore
import SoundStageSession

/// Everything about an engine that changes, kept in one ``LockedState`` box.
struct EngineState {
    /// Players that play or are paused: retained until they finish or stop.
    var active: [ObjectIdentifier: Player] = [:]
    /// Every player made for the engine and still alive, so a move reaches the idle ones too
    /// (their sources would keep the old device open).
    var made: [WeakPlayer] = []
    /// Every loaded sound made for the engine and still alive, so a move uploads each to the
    /// new device at once: a buffer left on the old device would keep that device open (with
    /// its context, about 10 MB, and on a server its stream) until the sound next played.
    var sounds: [WeakSound] = []
    /// Players scheduled with ``AudioEngine/play(_:atTime:)``.
    var scheduled: [ScheduledStart] = []
    /// Frames rendered so far (offline engines).
    var renderedFrames = 0
    var interrupted = false
    /// Whether the session is interrupted or inactive: the device is paused for either.
    var sessionInterrupted = false
    var sessionInactive = false
    /// Whether the device is paused now (for an interruption or an inactive session).
    var devicePaused = false
    /// The session's category, for what a lost device does to the players.
    var category = AudioSession.Category.soloAmbient
    /// When the sound server died, as the session reported: a loss noticed within
    /// ``AudioEngine/serverLossWindow`` of it is recovered as `mediaServicesWereReset`.
    var serverLostAt: ContinuousClock.Instant?
    /// Whether an engine on the default device moves when the default changes.
    var followsDefaultOutput = true
    var fallsBackToSilentOutput = false
    /// Set while the engine plays on the silent output.
    var silent: SilentOutput?
    /// Events collected and not yet delivered, in order.
    var outbox: [Outgoing] = []
    /// Whether a thread is delivering the outbox.
    var draining = false
    /// The last offline render, for ``AudioEngine/outputLevels``.
    var lastRender: RenderedAudio?
    /// The output latency read at the last tick (real devices), in seconds.
    var lastLatencySeconds = 0.0
    /// The output's underruns, told from its clock (real devices).
    var underrunWatch = OutputUnderrunWatch()
    /// Every underrun the watch saw since the engine started (``AudioEngine/outputUnderruns``).
    var outputUnderruns = 0
    /// When the latency mode last changed (engine time; -infinity: never).
    var latencyChangedAt = -Double.infinity
    /// The device the watch follows, and whether it was paused at the last tick: a move or a
    /// pause starts the watch over.
    var watchedDevice: ObjectIdentifier?
    var watchedPaused = false
    /// The resets of the context the watch saw (``AudioContext/resets``).
    var watchedResets = 0
    var subscribers = EventSubscribers<EngineEvent>()
    /// Set while the output device is lost and no other has opened yet.
    var lost: LostOutput?
    /// Outputs the engine moved away from while they played, kept until they have played
    /// what they had mixed.
    var playingOut: [PlayingOut] = []
    /// The last replacement of a lost device: when, and the wait the attempts had reached. A
    /// replacement lost again soon after goes on from that wait instead of starting over, so
    /// a device that keeps failing is not reopened every tick.
    var lastRecovery: (at: ContinuousClock.Instant, wait: Double)?
}

/// A lost output the engine is trying to replace.
struct LostOutput {
    /// When the loss was noticed.
    var since: ContinuousClock.Instant
    /// The next attempt to open a device.
    var nextAttempt: ContinuousClock.Instant
    /// The wait before the attempt after that, in seconds (doubling up to 2 s).
    var wait: Double
    /// Whether the loss was told to the session (``AudioSession`` posts it once).
    var announced = false
}

/// Players to start together at an engine time.
struct ScheduledStart {
    /// Engine seconds (real-time engines start them at the first tick at or after it).
    var seconds: Double
    /// The engine frame (offline engines start them on it exactly).
    var frame: Int
    var players: [Player]
}

/// An event on its way out of the engine.
enum Outgoing {
    /// To a player, with the run it belongs to.
    case player(Player, PlayerEvent, run: Int)
    /// To the engine's own subscribers.
    case engine(EngineEvent)
    /// To a playlist's delegate and subscribers.
    case playlist(PlaylistTimeline, PlaylistEvent)
}

/// The silent output's clock: when it began, and the frames rendered since.
struct SilentOutput {
    var since: ContinuousClock.Instant
    var rendered = 0
}

/// A player held weakly.
struct WeakPlayer {
    weak var player: Player?
    /// A number of its own, read without loading the player: loading makes a strong reference
    /// for a moment, and where another thread let go of the player's last other one meanwhile,
    /// its deinit (which counts its source back into the engine's state) would run inside the
    /// engine's state lock. So players are loaded outside that lock and removed by serial in
    /// it (not by address: a player made after one went may be given the same one).
    let serial: UInt64

    private static let issued = Atomic<UInt64>(0)

    init(_ player: Player) {
        self.player = player
        serial = Self.issued.add(1, ordering: .relaxed).newValue
    }
}

extension Array where Element == WeakPlayer {
    /// The serials of the players gone: read outside the engine's state lock (see
    /// ``WeakPlayer``).
    var gone: Set<UInt64> { Set(filter { $0.player == nil }.map(\.serial)) }
}

struct WeakSound {
    weak var sound: Sound?
}
