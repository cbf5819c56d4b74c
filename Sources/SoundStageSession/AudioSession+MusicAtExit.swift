import Foundation
import SoundStageCore

/// The music players a session paused are given back as the process exits (returning from
/// `main`, `exit`, or a SIGINT or SIGTERM handler that ends the process with `exit`), whether
/// the session ended before or not: the Play is sent from the exiting thread and its answer
/// waited for, with any resume the session's thread has under way (a session deactivated, or
/// its engine shut down or let go, just before), up to ``musicExitWait`` in all, so a player
/// that hangs never holds the exit back. A process killed (SIGKILL, or a signal left to its
/// default action) leaves its players paused.
///
/// The exit handler is registered as a session first pauses music (``ExitGiveBack``), so it
/// runs while the gateway lock, which every session's and player's state shares, can still be
/// taken.
extension AudioSession {
    /// How long the exit waits for the players to answer, at most, for every session.
    static let musicExitWait: Duration = .seconds(1)

    /// How long of that the session's thread is given to take in what it was told before.
    static let musicExitDrain: Duration = .milliseconds(250)

    /// The sessions that paused music, given back when the process exits, with one deadline
    /// for them all.
    static let resumeMusicAtExit = ExitGiveBack<AudioSession> { sessions in
        let deadline = ContinuousClock.now + AudioSession.musicExitWait
        for session in sessions { session.giveBackOtherMusic(before: deadline) }
    }

    /// Resumes, from the calling thread, every player the session paused (for itself or for
    /// an interruption) that nobody touched since, and waits until each answered, and every
    /// resume under way ended, or until `deadline`. The session pauses nothing afterwards.
    /// No lock is held while it waits.
    func giveBackOtherMusic(before deadline: ContinuousClock.Instant) {
        // A touch the player reported, or a resume being decided, is taken in first, bounded:
        // that thread may be waiting for the bus (and is not waited for from itself).
        _ = thread.waitForJobs(before: min(deadline, ContinuousClock.now + Self.musicExitDrain))
        let paused = state.withLockedValue { s -> [String: OtherMusicState.Paused] in
            s.otherMusic.givenBack = true
            s.otherMusic.holding = false
            var all = s.otherMusic.pausedForSession
            all.merge(s.otherMusic.pausedForInterruption) { kept, _ in kept }
            s.otherMusic.pausedForSession.removeAll()
            s.otherMusic.pausedForInterruption.removeAll()
            if !all.isEmpty { s.otherMusic.resuming += 1 }
            return all
        }
        if !paused.isEmpty {
            // Not waited for: the player that paused these has had its first look at the bus.
            let player = systemMusicPlayer
            if case .available = player.availability { resumeUntouched(paused, on: player) } else { resumeFinished() }
        }
        while state.withLockedValue({ $0.otherMusic.resuming > 0 }), ContinuousClock.now < deadline { usleep(2_000) }
    }
}
