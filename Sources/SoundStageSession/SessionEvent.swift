import SoundStageCore

/// Why an interruption began.
public enum InterruptionReason: String, Sendable, Hashable, CustomStringConvertible {
    /// Another application's call: a stream with `media.role` "phone" on the sound server.
    case phoneCall
    /// The process was suspended from its terminal (Ctrl-Z, SIGTSTP).
    case processSuspended
    /// The system is going to sleep (logind's `PrepareForSleep`).
    case systemSleep
    /// The game's own (``AudioSession/beginInterruption()``: a cutscene, voice chat).
    case app

    /// The name, e.g. `phoneCall`.
    public var description: String { rawValue }
}

/// What the audio session saw or did, delivered in order on the session's own thread (see
/// ``AudioSession/events()`` and ``AudioSessionDelegate``).
public enum SessionEvent: Sendable, CustomStringConvertible {
    /// The output was taken: every engine's device paused and its players paused (or stopped,
    /// per their ``InterruptionPolicy``).
    case interruptionBegan(InterruptionReason)
    /// The interruption is over; with `shouldResume` the devices run again and players
    /// resume per their policy.
    case interruptionEnded(shouldResume: Bool)
    /// An engine moved to another output.
    case routeChanged(RouteChange)
    /// No output device could be opened in place of a lost one; the engine keeps its players
    /// and tries again.
    case outputUnavailable(device: String, reason: String)
    /// The session was activated or deactivated.
    case activeChanged(Bool)
    /// The sound server answered: its name and default output.
    case soundServerConnected(server: String, defaultOutput: String?)
    /// No sound server answers (none runs, or it died): calls and default-output changes are
    /// not seen until one does. The rest works.
    case soundServerUnavailable(reason: String)
    /// The sound server died (`AVAudioSession.mediaServicesWereLostNotification`).
    case mediaServicesWereLost
    /// The sound server came back; engines rebuild themselves on it
    /// (`mediaServicesWereResetNotification`).
    case mediaServicesWereReset
    /// The sound server's default output changed.
    case defaultOutputChanged(from: String?, to: String?)
    /// An output device appeared on the sound server.
    case outputAdded(String)
    /// An output device went away from the sound server.
    case outputRemoved(String)
    /// A source of events cannot be watched here (no system bus, no sound server library):
    /// what it is and why.
    case watcherUnavailable(String, reason: String)
    /// The session paused these music players (bus names) of other applications: its
    /// category does not mix with others and it became active, or an interruption began
    /// (see ``AudioSession/CategoryOptions``).
    case otherMusicPaused([String])
    /// The session resumed these music players it had paused, which nobody had touched since.
    case otherMusicResumed([String])
    /// The session began to lower other applications' streams by this many dB
    /// (``AudioSession/CategoryOptions/duckOthers``).
    case otherAudioDucked(depth: Double)
    /// The session stopped lowering other applications; these (application names) got their
    /// volumes back (a stream the user changed meanwhile is left as set, and not named).
    case otherAudioRestored([String])

    /// A one-line description.
    public var description: String {
        switch self {
        case .interruptionBegan(let reason): return "interruptionBegan(\(reason))"
        case .interruptionEnded(let resume): return "interruptionEnded(shouldResume: \(resume))"
        case .routeChanged(let change): return "routeChanged(\(change))"
        case .outputUnavailable(let device, let reason): return "outputUnavailable('\(device)': \(reason))"
        case .activeChanged(let active): return "activeChanged(\(active))"
        case .soundServerConnected(let server, let output): return "soundServerConnected(\(server), default output \(output ?? "none"))"
        case .soundServerUnavailable(let reason): return "soundServerUnavailable(\(reason))"
        case .mediaServicesWereLost: return "mediaServicesWereLost"
        case .mediaServicesWereReset: return "mediaServicesWereReset"
        case .defaultOutputChanged(let from, let to): return "defaultOutputChanged(\(from ?? "none") -> \(to ?? "none"))"
        case .outputAdded(let name): return "outputAdded(\(name))"
        case .outputRemoved(let name): return "outputRemoved(\(name))"
        case .watcherUnavailable(let what, let reason): return "watcherUnavailable(\(what): \(reason))"
        case .otherMusicPaused(let players): return "otherMusicPaused(\(players.joined(separator: ", ")))"
        case .otherMusicResumed(let players): return "otherMusicResumed(\(players.joined(separator: ", ")))"
        case .otherAudioDucked(let depth): return "otherAudioDucked(depth: \(depth) dB)"
        case .otherAudioRestored(let names): return "otherAudioRestored(\(names.joined(separator: ", ")))"
        }
    }
}

/// Receives the session's events on the session's thread, in order, with no lock held; held
/// weakly. Like ``PlayerDelegate``, it need not be `Sendable`: a game's own class, with its
/// mutable state, can be one (it is called on the session's thread, so state it shares with
/// the game loop needs the game's own care).
public protocol AudioSessionDelegate: AnyObject {
    /// An event happened; see ``SessionEvent``.
    func audioSession(_ session: AudioSession, didReceive event: SessionEvent)
}
