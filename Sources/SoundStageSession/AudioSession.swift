import Foundation
import SoundStageCore

/// The process's audio session, after `AVAudioSession`: how the game's sound lives beside
/// other applications and the system on Linux. Every real-time ``AudioEngine`` joins
/// ``shared`` as it is made.
///
/// ```swift
/// let session = AudioSession.shared
/// try session.setCategory(.playback)
/// try session.setActive(true)
/// for await event in session.events() { print(event) }   // interruptions, route changes
/// ```
///
/// What it reacts to (see ``Category`` for which category reacts to what):
/// - **Interruptions** (``SessionEvent/interruptionBegan(_:)`` then
///   ``SessionEvent/interruptionEnded(shouldResume:)``): another application's call, the
///   process suspended from its terminal, the system going to sleep, and the game's own
///   (``beginInterruption()``). At the begin every engine's players pause (or stop, per their
///   ``InterruptionPolicy``), its context is suspended and its device paused
///   (`alcDevicePauseSOFT`; `alcSuspendContext` alone does not stop OpenAL Soft's mixer); at
///   the end the device runs again and, when the end says so, players resume.
/// - **Route changes** (``SessionEvent/routeChanged(_:)``): the default output changing, the
///   device in use going away, the sound server dying and coming back. Engines move to a new
///   device with everything carried across (``AudioEngine/switchOutput(to:)``).
///
/// Events are delivered in order on the session's own thread, with no lock held, to the
/// ``delegate`` and to every ``events()`` stream.
public final class AudioSession: Sendable {
    /// The process's session.
    public static let shared = AudioSession(name: "shared session")

    let state = LockedState(SessionState())
    /// Where the session acts on what it saw and delivers its events.
    let thread = SerialThread(name: "SoundStage ses")
    /// Held while members are told of an interruption or join: a member that joins as the
    /// last interruption ends is then told of both in order, never left interrupted.
    private let telling = NSRecursiveLock()
    /// Names the session in messages.
    let name: String

    /// A session; the process has ``shared``, tests make their own.
    init(name: String) { self.name = name }

    // MARK: - Category and activation

    /// The category; ``Category/soloAmbient`` until set.
    public var category: Category { state.withLockedValue { $0.category } }

    /// Sets the category; its rules apply from now on (see ``Category``).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` for a category that
    ///   cannot record while a recorder records (as `AVAudioSession.setCategory` fails).
    public func setCategory(_ category: Category) throws {
        try setCategory(category, options: [])
    }

    /// Sets the category and its options (see ``CategoryOptions``); both apply from now on.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` for a category that
    ///   cannot record while a recorder records.
    public func setCategory(_ category: Category, options: CategoryOptions) throws {
        if !category.canRecord, members.contains(where: \.isRecordingForSession) {
            throw SoundStageError(.invalidState, operation: "AudioSession.setCategory(\(category))", object: "audio session \(name)",
                                  reason: "a recorder is recording, and \(category) cannot record; stop it first")
        }
        let members = state.withLockedValue { s -> [WeakMember] in
            s.options = options
            guard s.category != category else { return [] }
            s.category = category
            return s.members
        }.live
        for member in members { member.sessionCategoryChanged(category) }
        reconsiderOtherMusic()
    }

    /// The category's options; none until set.
    public var categoryOptions: CategoryOptions { state.withLockedValue { $0.options } }

    /// Whether the session is active: engines play. Deactivated, every engine's device is
    /// paused and its context suspended, players keeping their state.
    public var isActive: Bool { state.withLockedValue { $0.isActive } }

    /// Activates or deactivates the session. Asking for the state it is in does nothing.
    ///
    /// - Throws: nothing yet; kept throwing as `AVAudioSession.setActive` is.
    public func setActive(_ active: Bool) throws {
        let members = state.withLockedValue { s -> [WeakMember]? in
            guard s.isActive != active else { return nil }
            s.isActive = active
            return s.members
        }?.live
        guard let members else { return }
        for member in members { member.sessionActivated(active) }
        post(.activeChanged(active))
        reconsiderOtherMusic()
    }

    // MARK: - Interruptions

    /// Whether an interruption holds the output.
    public var isInterrupted: Bool { state.withLockedValue { !$0.interruptions.isEmpty } }

    /// The interruptions under way (several can overlap: a call while suspended).
    public var interruptions: Set<InterruptionReason> { state.withLockedValue { $0.interruptions } }

    /// Begins the game's own interruption (a cutscene with its own audio, voice chat):
    /// the same as a call's. Beginning it again does nothing.
    public func beginInterruption() { begin(.app) }

    /// Ends the game's own interruption; players resume per their policy when
    /// `shouldResume`. Ending one that did not begin does nothing.
    public func endInterruption(shouldResume: Bool = true) { end(.app, shouldResume: shouldResume) }

    /// Begins an interruption for `reason`; the first of overlapping ones pauses the output
    /// and is reported. Runs on the calling thread (a suspend must pause before the process
    /// stops).
    func begin(_ reason: InterruptionReason) {
        telling.lock()
        defer { telling.unlock() }
        let members = state.withLockedValue { s -> [WeakMember]? in
            if reason == .phoneCall && !s.category.isInterruptedByCalls { return nil }
            guard s.interruptions.insert(reason).inserted, s.interruptions.count == 1 else { return nil }
            return s.members
        }?.live
        guard let members else { return }
        for member in members { member.sessionInterruptionBegan() }
        post(.interruptionBegan(reason))
        pauseOtherMusicForInterruption(reason)
    }

    /// Ends the interruption for `reason`; the last of overlapping ones restarts the output
    /// and is reported, resuming players only if every one of them said `shouldResume`.
    package func end(_ reason: InterruptionReason, shouldResume: Bool) {
        telling.lock()
        defer { telling.unlock() }
        let ending = state.withLockedValue { s -> ([WeakMember], Bool)? in
            guard s.interruptions.remove(reason) != nil else { return nil }
            s.resumeAfterInterruptions = s.resumeAfterInterruptions && shouldResume
            guard s.interruptions.isEmpty else { return nil }
            defer { s.resumeAfterInterruptions = true }
            return (s.members, s.resumeAfterInterruptions)
        }
        guard let (entries, resume) = ending else { return }
        for member in entries.live { member.sessionInterruptionEnded(shouldResume: resume) }
        post(.interruptionEnded(shouldResume: resume))
        endOtherMusicInterruption(resume: resume)
    }

    // MARK: - Members

    /// An engine joins: it follows the session's state from now on (paused if the session is
    /// inactive or interrupted).
    package func join(_ member: any SessionMember) {
        // On the session's thread: connecting to a system bus that does not answer can take
        // seconds, which an engine's init must not wait for.
        if member.watchesSystem { thread.submit { [self] in startWatching() } }
        telling.lock()
        defer { telling.unlock() }
        let gone = state.withLockedValue { $0.members }.gone()
        let (category, active, interrupted) = state.withLockedValue { s in
            s.members.removeAll { gone.contains($0.serial) }
            s.members.append(WeakMember(member))
            return (s.category, s.isActive, !s.interruptions.isEmpty)
        }
        member.sessionCategoryChanged(category)
        if !active { member.sessionActivated(false) }
        if interrupted { member.sessionInterruptionBegan() }
        if member.watchesSystem { reconsiderOtherMusic() }
    }

    /// A member leaves (an engine shut down): the session tells it nothing more.
    package func leave(_ member: any SessionMember) {
        let gone = state.withLockedValue { $0.members }.gone(leaving: member)
        state.withLockedValue { s in s.members.removeAll { gone.contains($0.serial) } }
        reconsiderOtherMusic()
    }

    /// A member went without leaving (an engine let go without ``AudioEngine/shutdown()``,
    /// from its deinit, where it can no longer be named): the session works out again what
    /// it holds without it, as ``leave(_:)`` does.
    package func memberGone() {
        let gone = state.withLockedValue { $0.members }.gone()
        state.withLockedValue { s in s.members.removeAll { gone.contains($0.serial) } }
        reconsiderOtherMusic()
    }

    /// The engines that joined and are alive.
    var members: [any SessionMember] { state.withLockedValue { $0.members }.live }

    // MARK: - Events

    /// Receives the session's events on its thread; held weakly.
    public var delegate: (any AudioSessionDelegate)? {
        get { state.withLockedValue { $0.delegate } }
        set { state.withLockedValue { $0.delegate = newValue } }
    }

    /// A stream of the session's events from now on; each call makes a new subscriber.
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<SessionEvent> { EventSubscribers.subscribe(state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { state.withLockedValue { $0.subscribers.dropped } }

    /// Delivers `event` on the session's thread, after the events posted before it.
    package func post(_ event: SessionEvent) {
        thread.submit { [self] in
            let (delegate, streams) = state.withLockedValue { ($0.delegate, $0.subscribers.all) }
            delegate?.audioSession(self, didReceive: event)
            streams.yield(event)
        }
    }

    /// Whether the calling thread is the session's, where its events are delivered.
    public var isSessionThread: Bool { thread.isCurrent }
}

/// Everything about a session that changes, in one locked box.
struct SessionState {
    var category = AudioSession.Category.soloAmbient
    var options: AudioSession.CategoryOptions = []
    /// The music players of other applications the session paused.
    var otherMusic = OtherMusicState()
    /// The session lowers other applications' streams now (``AudioSession/CategoryOptions/duckOthers``).
    var ducking = false
    /// How much lower, in dB.
    var duckingDepth = 12.0
    var isActive = true
    var interruptions: Set<InterruptionReason> = []
    /// Whether every interruption under way ended (so far) saying the players may resume.
    var resumeAfterInterruptions = true
    var members: [WeakMember] = []
    weak var delegate: (any AudioSessionDelegate)?
    var subscribers = EventSubscribers<SessionEvent>()
    var watched = AudioSession.WatchedEvents.all
    /// Other applications' phone streams playing on the sound server.
    var phoneStreams = 0
    /// The watchers, once started (nil before the first real-time engine joins).
    var watchers: Watchers?

}
