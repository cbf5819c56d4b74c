import Foundation
import SoundStageCore

/// Ducking (`AVAudioSession.CategoryOptions.duckOthers`): while the session is active with a
/// real-time engine, other applications' streams on the sound server play ``duckingDepth`` dB
/// lower, and each gets its exact volume back when the session becomes inactive (deactivated,
/// or its last engine shut down), unless the user changed it meanwhile.
extension AudioSession {
    /// How much lower other applications play while the session ducks them, in dB; 12 until
    /// set.
    public var duckingDepth: Double { state.withLockedValue { $0.duckingDepth } }

    /// Sets how much lower other applications play while the session ducks them, from the next
    /// time it begins to.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` unless `decibels` is
    ///   over 0 and at most 60.
    public func setDuckingDepth(_ decibels: Double) throws {
        guard decibels.isFinite, decibels > 0, decibels <= 60 else {
            throw SoundStageError(.invalidArgument, operation: "AudioSession.setDuckingDepth(\(decibels))", object: "audio session \(name)",
                                  reason: "the depth is a number of dB over 0 and at most 60")
        }
        state.withLockedValue { $0.duckingDepth = decibels }
    }

    /// Whether the session lowers other applications now.
    public var ducksOthers: Bool { state.withLockedValue { $0.ducking } }

    /// Whether the session should duck now: asked for, active, with a real-time engine
    /// (`watching`: whether one of its members plays to a real device, read outside the lock).
    func shouldDuck(_ s: SessionState, watching: Bool) -> Bool {
        s.isActive && s.options.contains(.duckOthers) && watching
    }

    /// Begins or ends the ducking as the session's state asks. On the session's thread.
    func reconsiderDucking() {
        // Only through the sound server's monitor: without it (not watched, or no libpulse)
        // the session does not duck, and says nothing of it.
        let watching = members.contains { $0.watchesSystem }
        let change = state.withLockedValue { s -> (duck: Bool, depth: Double, monitor: SoundServerMonitor)? in
            guard let monitor = s.watchers?.soundServer else { return nil }
            let should = shouldDuck(s, watching: watching)
            guard should != s.ducking else { return nil }
            s.ducking = should
            return (should, s.duckingDepth, monitor)
        }
        guard let change else { return }
        if change.duck {
            if Self.giveBackAtExit.register(change.monitor) { atexit { AudioSession.giveBackAtExit.giveBack() } }
            guard change.monitor.startDucking(depth: change.depth) else {
                // The monitor is not running (no libpulse, or it could not start).
                state.withLockedValue { $0.ducking = false }
                return
            }
            post(.otherAudioDucked(depth: change.depth))
        } else {
            post(.otherAudioRestored(change.monitor.stopDucking()))
        }
    }

    /// The monitors that may hold other applications lowered, given back when the process
    /// exits (returning from `main`, or `exit`) without its sessions becoming inactive. A
    /// process killed leaves its record for the next session, or for one that still ducks
    /// beside it, when that one ends (``DuckingRecord``).
    static let giveBackAtExit = ExitGiveBack<SoundServerMonitor> { monitors in
        for monitor in monitors { monitor.stopDucking(timeout: .milliseconds(500)) }
    }
}
