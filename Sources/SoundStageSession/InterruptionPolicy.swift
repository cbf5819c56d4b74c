import SoundStageCore

/// What a player or a recorder does when an interruption begins and ends (``AudioSession``).
public enum InterruptionPolicy: String, Sendable, Hashable {
    /// Pause at the begin; play on from where it was when the interruption ends saying it
    /// may (`shouldResume`). The default, as an iOS app does with AVAudioSession's advice.
    case resume
    /// Pause at the begin and stay paused; the game resumes it.
    case stayPaused
    /// Stop at the begin, so nothing of it comes back (a drum's tail).
    case stop
}
