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
    /// The music player chosen (nil: ``SystemMusicPlayer/shared``, made when first needed).
    var player: SystemMusicPlayer?
    /// The players whose events the session follows (by identity).
    var observed: Set<ObjectIdentifier> = []

    /// Takes in a music player's event: a pause confirmed, a player touched, or gone.
    mutating func note(_ event: MusicPlayerEvent) {
        func touch(_ name: String, pausedNow: Bool) {
            for kind in [\OtherMusicState.pausedForSession, \.pausedForInterruption] {
                guard var paused = self[keyPath: kind][name] else { continue }
                if pausedNow, !paused.confirmed { paused.confirmed = true } else { paused.touched = true }
                self[keyPath: kind][name] = paused
            }
        }
        switch event {
        case .playbackStateChanged(let name, let state): touch(name, pausedNow: state == .paused)
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
/// play when the session becomes active, and resumes them when it becomes inactive; an
/// interruption pauses them, and its end resumes them. Only players the session paused are
/// resumed, and only if nobody touched them since (played, stopped or moved to another item).
/// Everything runs on the session's thread, in order.
extension AudioSession {
    /// The desktop's music player the session acts on; ``SystemMusicPlayer/shared`` unless
    /// set (a game with its own bus, a test).
    public var systemMusicPlayer: SystemMusicPlayer {
        get { state.withLockedValue { $0.otherMusic.player } ?? .shared }
        set { state.withLockedValue { $0.otherMusic.player = newValue } }
    }

    /// Whether the session pauses other applications' music now (see ``Category``).
    public var holdsOtherMusic: Bool { state.withLockedValue { $0.otherMusic.holding } }

    /// Works out again whether the session holds other applications' music back, and pauses
    /// or resumes it when that changed.
    func reconsiderOtherMusic() {
        thread.submit { [self] in
            let change = state.withLockedValue { s -> Bool? in
                let should = s.isActive && s.category.interruptsOthers && !s.options.contains(.mixWithOthers)
                    && s.liveMembers.contains { $0.watchesSystem }
                guard should != s.otherMusic.holding else { return nil }
                s.otherMusic.holding = should
                return should
            }
            switch change {
            case true?: pausePlayingMusic(into: \.pausedForSession)
            case false?: resumePausedMusic(from: \.pausedForSession)
            case nil: break
            }
        }
    }

    /// An interruption began: the music that plays pauses.
    func pauseOtherMusicForInterruption() {
        thread.submit { [self] in pausePlayingMusic(into: \.pausedForInterruption) }
    }

    /// The last interruption ended: with `resume`, the music it paused plays again.
    func endOtherMusicInterruption(resume: Bool) {
        thread.submit { [self] in
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
        let follow = state.withLockedValue { $0.otherMusic.observed.insert(ObjectIdentifier(player)).inserted }
        if follow {
            player.observe { [weak self] event in self?.state.withLockedValue { $0.otherMusic.note(event) } }
        }
        guard case .available = player.waitUntilReady() else { return nil }
        return player
    }

    private func pausePlayingMusic(into kind: WritableKeyPath<OtherMusicState, [String: OtherMusicState.Paused]>) {
        guard let player = reachableMusicPlayer() else { return }
        let playing = player.players.filter { $0.playbackState == .playing }
        guard !playing.isEmpty else { return }
        state.withLockedValue { s in
            for info in playing { s.otherMusic[keyPath: kind][info.busName] = OtherMusicState.Paused(item: info.nowPlayingItem) }
        }
        for info in playing { player.pause(info.busName) }
        post(.otherMusicPaused(playing.map(\.busName)))
    }

    private func resumePausedMusic(from kind: WritableKeyPath<OtherMusicState, [String: OtherMusicState.Paused]>) {
        let paused = state.withLockedValue { s -> [String: OtherMusicState.Paused] in
            defer { s.otherMusic[keyPath: kind].removeAll() }
            return s.otherMusic[keyPath: kind]
        }
        guard !paused.isEmpty, let player = reachableMusicPlayer() else { return }
        let present = Dictionary(player.players.map { ($0.busName, $0) }) { a, _ in a }
        // A pause not yet confirmed may still be on its way (the player's own word of it
        // comes after): the play follows it on the same connection, in order.
        let resumed = paused.filter { name, p in
            guard !p.touched, let now = present[name] else { return false }
            return (now.playbackState == .paused || !p.confirmed) && now.nowPlayingItem == p.item
        }.keys.sorted()
        for name in resumed { player.play(name) }
        if !resumed.isEmpty { post(.otherMusicResumed(resumed)) }
    }
}
