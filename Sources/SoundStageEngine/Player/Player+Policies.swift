import SoundStageCore
import SoundStageSession

/// What a player does when its output device goes away (headphones unplugged, the sink
/// removed) and the engine moves to another.
public enum OutputLossPolicy: String, Sendable, Hashable {
    /// Pause on the new device, as Apple recommends for music; the game resumes it. The
    /// default for players of ``AudioEngine/makePlayer(_:)``. Categories that never pause
    /// (``AudioSession/Category/ambient``) keep it playing.
    case pause
    /// Keep playing on the new device, as voices do. The default for the players of the
    /// deprecated `playEffect(_:volume:)`.
    case keepPlaying
}

extension Player {
    /// What the player does at an interruption; ``InterruptionPolicy/resume`` by default.
    public var interruptionPolicy: InterruptionPolicy {
        get { state.withLockedValue { $0.settings.interruptionPolicy } }
        set { state.withLockedValue { $0.settings.interruptionPolicy = newValue } }
    }

    /// What the player does when its output device goes away; ``OutputLossPolicy/pause`` by
    /// default (``OutputLossPolicy/keepPlaying`` for effects).
    public var outputLossPolicy: OutputLossPolicy {
        get { state.withLockedValue { $0.settings.outputLossPolicy ?? (isEffect ? .keepPlaying : .pause) } }
        set { state.withLockedValue { $0.settings.outputLossPolicy = newValue } }
    }
}
