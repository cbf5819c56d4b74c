import Foundation
import SoundStageCore
import SoundStageSession

/// Everything about a player that changes, kept in one ``LockedState`` box.
struct PlayerState {
    enum Status { case idle, scheduled, playing, paused, stopped }

    var status = Status.idle
    /// Paused by an interruption (not by the game).
    var wasInterrupted = false
    /// Paused because its bus was (resumed with it).
    var pausedByBus = false
    /// Its source's gain was set to 0 as it paused (``Player/pauseSource(_:_:_:)``), and is
    /// written back before it plays again.
    var silencedForPause = false
    /// The bus gain the last tick wrote to the source.
    var appliedBusGain: Float = 1
    /// Counts starts; an event carries the run it belongs to.
    var run = 0
    /// `finished` events of this run and earlier are not delivered (stop() was called).
    var cancelledThrough = -1
    /// The source, from the first prepare on.
    var source: AudioSource?
    /// How the source is fed, while it is.
    var feed: (any PlaybackFeed)?
    /// The copy of the sound's buffer with loop points, made once per loop region.
    var loopBuffer: AudioBuffer?
    var settings = PlayerSettings()
    /// Where the next start begins, in sound frames (set by seeking while not playing, and by stop).
    var startFrame = 0
    /// The frame the source will start from once played, while it is fed but not started.
    var pendingStart: Int?
    /// When the end of the sound is heard, on a real device (engine seconds).
    var finishAt: Double?
    /// Where the last service tick heard the sound on a real device: the frame, and the
    /// queue offset it was at. A device that is lost stops its sources and forgets their
    /// offsets; the player carries on from here on the next one.
    var heard: (frame: Int, queueOffset: Int)?
    /// Where a stream's queue runs out, as of the last service tick (real devices): what an
    /// underrun is measured from.
    var underrunWatch: UnderrunWatch?
    /// A service error met this run: the run cannot finish successfully.
    var serviceError: SoundStageError?
    var tweens: [Tween] = []
    var meteringEnabled = false
    var meters: [(average: Float, peak: Float)] = []
    weak var delegate: PlayerDelegate?
    var subscribers = EventSubscribers<PlayerEvent>()

    /// Whether the player holds its engine's attention: playing, paused or scheduled.
    var isEngaged: Bool { status == .playing || status == .paused || status == .scheduled }
}

/// What the game set: the values the AVAudioPlayer-style properties read back.
struct PlayerSettings {
    var volume: Float = 1
    var pan: Float = 0
    var rate: Float = 1
    var numberOfLoops = 0
    /// As set, in seconds within the sound.
    var loopRegion: Range<Double>?
    var position: SIMD3<Float>?
    var interruptionPolicy = InterruptionPolicy.resume
    /// The bus it plays through (an index in its engine's bus table): music, or effects for
    /// the deprecated `AudioEngine.playEffect(_:volume:)`.
    var bus: Int32 = Bus.musicIndex
    /// nil: the default for the player's kind.
    var outputLossPolicy: OutputLossPolicy?
    var occlusion: Float = 0
    var obstruction: Float = 0
    var sendLevel: Float = 1
    /// The track's tempo, for transitions on its beats and bars.
    var tempo: MusicalTempo?
    var streamBuffering = StreamBuffering.standard
    var underrunPolicy = UnderrunPolicy.keepTime
}

/// Where a playing stream's queue runs out if nothing more is queued.
struct UnderrunWatch {
    /// The device clock, in nanoseconds, at which the last queued frame has played.
    var dryAt: Int64
    /// The sound frame after the last one queued: where the source stops if it runs dry.
    var stopFrame: Int
    /// The queue offset of the end of the queue.
    var endOffset: Int
}
