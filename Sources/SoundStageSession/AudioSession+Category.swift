import SoundStageCore

extension AudioSession {
    /// How the game's sound behaves beside other applications and the system, after
    /// `AVAudioSession.Category`. On Linux every stream mixes at the sound server, so what a
    /// category does to other applications SoundStage does through them: when the session
    /// becomes active (it is active and a real-time engine has joined), every category but
    /// ``ambient`` pauses the desktop's music players that are playing (MPRIS, through
    /// ``AudioSession/systemMusicPlayer``), unless ``CategoryOptions/mixWithOthers`` is set,
    /// and resumes them when it becomes inactive (deactivated, or its last engine shut down):
    /// only those it paused, and only those nobody touched since. The categories also differ
    /// in what SoundStage reacts to:
    ///
    /// | category | calls interrupt | Ctrl-Z and sleep interrupt | follows the default output | music pauses when its device goes |
    /// |---|---|---|---|---|
    /// | ``ambient`` | no | yes | yes | no |
    /// | ``soloAmbient`` (default) | yes | yes | yes | yes |
    /// | ``playback`` | yes | yes | yes | yes |
    /// | ``playAndRecord`` | yes | yes | yes | yes |
    /// | ``record`` | yes | yes | yes | yes |
    ///
    /// Only ``record`` and ``playAndRecord`` let a ``Recorder`` record (as AVAudioRecorder
    /// needs); for players they behave as ``playback`` (SoundStage cannot silence the
    /// sound server's other streams for ``record``).
    public enum Category: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Background sound that goes along with whatever else plays: a call does not
        /// interrupt it, and it keeps playing when its device goes (on the new one).
        case ambient
        /// The default: the game's own sound, interrupted by calls.
        case soloAmbient
        /// Sound that is the point of the app (music, a game played for its sound).
        case playback
        /// Playing and recording (voice chat).
        case playAndRecord
        /// Recording (players behave as in ``playback``).
        case record

        /// Whether another application's call (a "phone" stream on the sound server)
        /// interrupts the session.
        public var isInterruptedByCalls: Bool { self != .ambient }

        /// Whether recorders may record.
        public var canRecord: Bool { self == .record || self == .playAndRecord }

        /// Whether players whose policy asks for it pause when their output device goes
        /// away (Apple's rule for unplugged headphones).
        public var pausesWhenOutputLost: Bool { self != .ambient }

        /// Whether the category, without options, pauses other applications' music when the
        /// session becomes active (every one but ``ambient``, as on iOS).
        public var interruptsOthers: Bool { self != .ambient }

        /// The name, e.g. `soloAmbient`.
        public var description: String { rawValue }
    }

    /// How the game's sound goes along with other applications', after
    /// `AVAudioSession.CategoryOptions`.
    public struct CategoryOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
        /// The bits.
        public let rawValue: Int
        /// Options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Other applications' music plays on beside the game's sound (as under ``Category/ambient``).
        public static let mixWithOthers = CategoryOptions(rawValue: 1)
        /// Other applications play on, lowered by ``AudioSession/duckingDepth`` dB while the
        /// session is active with a real-time engine, and each gets its exact volume back when
        /// it becomes inactive, unless the user changed it meanwhile. Implies
        /// ``mixWithOthers``, as on iOS. It acts through the sound server, so it needs
        /// ``AudioSession/WatchedEvents/soundServer`` watched (the default).
        public static let duckOthers = CategoryOptions(rawValue: 2)

        /// e.g. `[mixWithOthers]`.
        public var description: String {
            "[" + [(Self.mixWithOthers, "mixWithOthers"), (Self.duckOthers, "duckOthers")].filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
        }
    }
}
