import Foundation
import SoundStageCore

/// The music players of other applications the session paused, and what became of them.
struct OtherMusicState {
    /// One player the session paused.
    struct Paused {
        /// What it played when paused: it is resumed only on the same item.
        var item: MusicItem?
        /// It reported the pause.
        var confirmed = false
        /// Someone (the user) played, stopped or moved it since: it is left as they set it.
        var touched = false
    }

    /// The session holds the music back: its category does not mix, and it is active with a
    /// real-time engine.
    var holding = false
    var pausedForSession: [String: Paused] = [:]
    var pausedForInterruption: [String: Paused] = [:]
    /// Resumes taken from the records above whose players have not all answered their Play
    /// yet (or whose Play is not sent yet): the exit waits for them (``AudioSession/giveBackOtherMusic(before:)``).
    var resuming = 0
    /// The process is exiting and the music was given back: the session pauses nothing more.
    var givenBack = false
    /// The music player chosen (nil: ``SystemMusicPlayer/shared``, made when first needed).
    var player: SystemMusicPlayer?
    /// The player whose events the session follows.
    weak var observed: SystemMusicPlayer?

    /// Takes in a music player's event: a pause confirmed, a player touched, or gone.
    mutating func note(_ event: MusicPlayerEvent) {
        func touch(_ name: String, _ state: MusicPlaybackState) {
            for kind in [\OtherMusicState.pausedForSession, \.pausedForInterruption] {
                guard var paused = self[keyPath: kind][name] else { continue }
                if !paused.confirmed {
                    // Before the pause is confirmed, "playing" is the state it was taken from
                    // (an event posted before the pause was sent): not a touch.
                    if state == .paused { paused.confirmed = true } else if state == .stopped { paused.touched = true }
                } else {
                    paused.touched = true
                }
                self[keyPath: kind][name] = paused
            }
        }
        switch event {
        case .playbackStateChanged(let name, let state): touch(name, state)
        case .nowPlayingItemChanged(let name, _):
            for kind in [\OtherMusicState.pausedForSession, \.pausedForInterruption] where self[keyPath: kind][name]?.confirmed == true {
                self[keyPath: kind][name]?.touched = true
            }
        case .playerVanished(let name):
            pausedForSession[name] = nil
            pausedForInterruption[name] = nil
        default: break
        }
    }
}

/// What the session does to other applications' music (the desktop's MPRIS players), as iOS
/// categories do to other apps' audio: a category that does not mix pauses the players that
/// play when the session becomes active, and resumes them when it becomes inactive; a call or
/// the game's own interruption pauses them, and its end resumes them. Only players the session paused are
/// resumed, and only if nobody touched them since (played, stopped or moved to another item).
/// Everything runs on the session's thread, in order.
extension AudioSession {
    /// The desktop's music player the session acts on; ``SystemMusicPlayer/shared`` unless
    /// set (a game with its own bus, a test).
    public var systemMusicPlayer: SystemMusicPlayer {
        get { state.withLockedValue { $0.otherMusic.player } ?? .shared }
        set {
            // The one replaced is released after the lock: its release joins its thread.
            let old = state.withLockedValue { s in
                defer { s.otherMusic.player = newValue }
                return s.otherMusic.player
            }
            withExtendedLifetime(old) {}
        }
    }

    /// Whether the session pauses other applications' music now (see ``Category``).
    public var holdsOtherMusic: Bool { state.withLockedValue { $0.otherMusic.holding } }

    /// Works out again whether the session holds other applications' music back, and pauses
    /// or resumes it when that changed.
    func reconsiderOtherMusic() {
        thread.submit { [self] in
            reconsiderDucking()
            let watching = members.contains { $0.watchesSystem }
            let change = state.withLockedValue { s -> Bool? in
                guard !s.otherMusic.givenBack else { return nil }
                let should = s.isActive && s.category.interruptsOthers && s.options.isDisjoint(with: [.mixWithOthers, .duckOthers])
                    && watching
                guard should != s.otherMusic.holding else { return nil }
                s.otherMusic.holding = should
                return should
            }
            switch change {
            case true?: pausePlayingMusic(into: \.pausedForSession)
            case false?:
                // Let go during an interruption: what the session paused waits for its end.
                let interrupted = state.withLockedValue { s -> Bool in
                    guard !s.interruptions.isEmpty else { return false }
                    s.otherMusic.pausedForInterruption.merge(s.otherMusic.pausedForSession) { kept, _ in kept }
                    s.otherMusic.pausedForSession.removeAll()
                    return true
                }
                if !interrupted { resumePausedMusic(from: \.pausedForSession) }
            case nil: break
            }
        }
    }

    /// An interruption began: the music that plays pauses, for a call or the game's own.
    /// Not for Ctrl-Z or sleep: the process stops (or the system sleeps) before a pause could
    /// reach the player, and the user's music is theirs while the game is stopped.
    /// Only for a session a real-time engine or recorder joined: one that renders offline (a
    /// test, a tool) is no game the user plays.
    func pauseOtherMusicForInterruption(_ reason: InterruptionReason) {
        guard reason == .phoneCall || reason == .app, members.contains(where: \.watchesSystem) else { return }
        thread.submit { [self] in pausePlayingMusic(into: \.pausedForInterruption) }
    }

    /// The last interruption ended: with `resume`, the music it paused plays again, unless the
    /// session holds music back now (it is kept paused, as the session's).
    func endOtherMusicInterruption(resume: Bool) {
        thread.submit { [self] in
            let keep = state.withLockedValue { s -> Bool in
                guard s.otherMusic.holding else { return false }
                s.otherMusic.pausedForSession.merge(s.otherMusic.pausedForInterruption) { kept, _ in kept }
                s.otherMusic.pausedForInterruption.removeAll()
                return true
            }
            if keep { return }
            if resume {
                resumePausedMusic(from: \.pausedForInterruption)
            } else {
                state.withLockedValue { $0.otherMusic.pausedForInterruption.removeAll() }
            }
        }
    }

    /// The music player to act on, following its events; nil when it cannot be reached.
    /// Waits (on the session's thread) for its first look at the bus, bounded.
    private func reachableMusicPlayer() -> SystemMusicPlayer? {
        let player = systemMusicPlayer
        let follow = state.withLockedValue { s -> Bool in
            guard s.otherMusic.observed !== player else { return false }
            s.otherMusic.observed = player
            return true
        }
        if follow {
            // Noted on this session's thread, in order with the pauses and resumes, whichever
            // thread the player delivers on.
            player.observe { [weak self] event in
                self?.thread.submit { [weak self] in self?.state.withLockedValue { $0.otherMusic.note(event) } }
            }
        }
        guard case .available = player.waitUntilReady() else { return nil }
        return player
    }

    private func pausePlayingMusic(into kind: WritableKeyPath<OtherMusicState, [String: OtherMusicState.Paused]>) {
        guard let player = reachableMusicPlayer() else { return }
        let playing = player.players.filter { $0.playbackState == .playing }
        guard !playing.isEmpty else { return }
        // Given back as the process exits, should the session not end before (see
        // AudioSession+MusicAtExit.swift).
        if Self.resumeMusicAtExit.register(self) { atexit { AudioSession.resumeMusicAtExit.giveBack() } }
        // Not once the exit gave the music back: a pause now would outlive the process.
        let recorded = state.withLockedValue { s -> Bool in
            guard !s.otherMusic.givenBack else { return false }
            for info in playing { s.otherMusic[keyPath: kind][info.busName] = OtherMusicState.Paused(item: info.nowPlayingItem) }
            return true
        }
        guard recorded else { return }
        let forInterruption = kind == \OtherMusicState.pausedForInterruption
        for info in playing {
            // A player that refuses the pause (or does not answer) is not the session's to resume.
            let name = info.busName
            player.send(.pause, to: name) { [weak self] error in
                guard error != nil else { return }
                self?.thread.submit { [weak self] in
                    self?.state.withLockedValue { s in
                        if forInterruption { s.otherMusic.pausedForInterruption[name] = nil } else { s.otherMusic.pausedForSession[name] = nil }
                    }
                }
            }
        }
        post(.otherMusicPaused(playing.map(\.busName)))
    }

    private func resumePausedMusic(from kind: WritableKeyPath<OtherMusicState, [String: OtherMusicState.Paused]>) {
        // Taken and counted as one resume under way in one hold of the lock: an exit from
        // here on waits for its Play (the exit's own give-back finds the records gone).
        let paused = state.withLockedValue { s -> [String: OtherMusicState.Paused] in
            defer { s.otherMusic[keyPath: kind].removeAll() }
            if !s.otherMusic[keyPath: kind].isEmpty { s.otherMusic.resuming += 1 }
            return s.otherMusic[keyPath: kind]
        }
        guard !paused.isEmpty else { return }
        guard let player = reachableMusicPlayer() else { return resumeFinished() }
        resumeUntouched(paused, on: player)
    }

    /// Sends Play to each player of `paused` still as the session left it, and ends the
    /// resume under way (`resuming`) once every one of them answered or failed (each call is
    /// bounded by the player's ``SystemMusicPlayer/answerTimeout``). The players that
    /// answered are posted as resumed. Any thread: nothing here waits.
    func resumeUntouched(_ paused: [String: OtherMusicState.Paused], on player: SystemMusicPlayer) {
        let present = Dictionary(player.players.map { ($0.busName, $0) }) { a, _ in a }
        // A pause not yet confirmed may still be on its way (the player's own word of it
        // comes after): the play follows it on the same connection, in order.
        let resumed = paused.filter { name, p in
            guard !p.touched, let now = present[name] else { return false }
            let state = now.playbackState == .paused || (!p.confirmed && now.playbackState == .playing)
            return state && Self.sameItem(now.nowPlayingItem, p.item)
        }.keys.sorted()
        guard !resumed.isEmpty else { return resumeFinished() }
        let answers = LockedBox<(left: Int, played: [String])>((resumed.count, []))
        for name in resumed {
            player.send(.play, to: name) { [self] error in
                let done = answers.withLock { a -> [String]? in
                    a.left -= 1
                    if error == nil { a.played.append(name) }
                    return a.left == 0 ? a.played.sorted() : nil
                }
                guard let done else { return }
                if !done.isEmpty { post(.otherMusicResumed(done)) }
                resumeFinished()
            }
        }
    }

    /// A resume under way ended: its players answered, or it had none to send to.
    func resumeFinished() {
        state.withLockedValue { $0.otherMusic.resuming -= 1 }
    }

    /// Whether two items are the same track: by the player's track id when both have one,
    /// else by title and file (a player may fill in its art or length later).
    static func sameItem(_ a: MusicItem?, _ b: MusicItem?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if let x = a.trackID, let y = b.trackID { return x == y }
        return a.title == b.title && a.assetURL == b.assetURL
    }
}
