import SoundStageCore

extension AudioSession {
    /// How the game's sound behaves beside other applications and the system, after
    /// `AVAudioSession.Category`. On Linux every stream mixes at the sound server:
    /// SoundStage cannot silence other applications, and their sound does not silence
    /// SoundStage. The categories differ in what SoundStage reacts to:
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

        /// The name, e.g. `soloAmbient`.
        public var description: String { rawValue }
    }
}
