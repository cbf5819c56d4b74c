import Foundation
import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Whether an engine opened on the default device moves to the new default when the
    /// sound server's default output changes (the session watches it). True by default.
    public var followsDefaultOutput: Bool {
        get { state.withLockedValue { $0.followsDefaultOutput } }
        set { state.withLockedValue { $0.followsDefaultOutput = newValue } }
    }

    /// Pauses or resumes the device for the session, as the interruption and the activation
    /// together ask.
    ///
    /// The device pauses before its sources do and resumes after they play again, so that
    /// OpenAL Soft takes up each source's pause with its resume in one mix. From 1.20 a paused
    /// source is faded out over the 64 frames after the offset it keeps, and if the mixer ran
    /// between the two, those frames would be heard twice (faded, then again on resuming).
    private func updateDevicePause(_ held: borrowing LockHeld) {
        let change = state.withLockedValue(held) { s -> Bool? in
            let pause = s.sessionInterrupted || s.sessionInactive
            guard pause != s.devicePaused else { return nil }
            s.devicePaused = pause
            return pause
        }
        guard let pause = change else { return }
        let (device, context) = output.withLock { ($0.device, $0.context) }
        if pause {
            pauseDevice(held, device, context, true)
            holdVoices(held)
        } else {
            holdVoices(held)
            pauseDevice(held, device, context, false)
        }
    }
}

// The session calls these on its own thread (or, for a suspend, the watcher's): what they
// post for players and the engine's subscribers is delivered by the next service tick, on
// the thread that runs the service loop, as every other event.
extension AudioEngine: SessionMember {
    package var watchesSystem: Bool { !isOffline }
    package var isRecordingForSession: Bool { false }

    // The device pauses before the players do and resumes after they play again (see
    // `updateDevicePause`): nothing is heard twice across an interruption or a Ctrl-Z.
    package func sessionInterruptionBegan() {
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { $0.sessionInterrupted = true }
            updateDevicePause(held)
            interrupt()
        }
    }

    package func sessionInterruptionEnded(shouldResume: Bool) {
        OpenAL.lock.withLock { held in
            resumeAfterInterruption(shouldResume)
            state.withLockedValue(held) { $0.sessionInterrupted = false }
            updateDevicePause(held)
        }
    }

    package func sessionActivated(_ active: Bool) {
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { $0.sessionInactive = !active }
            updateDevicePause(held)
        }
    }

    package func sessionDefaultOutputChanged() {
        guard !isOffline, case .defaultDevice = requestedOutput,
              state.withLockedValue({ $0.followsDefaultOutput && $0.lost == nil }) else { return }
        if Self.movesByReopening, context.canReopenDevice {
            OpenAL.lock.withLock { held in reopenOnDefault(held) }
            return
        }
        // Opened, and its stream started, outside the gateway lock: round trips to the sound
        // server, while the old device plays on.
        let opened: AudioDevice, prepared: AudioContext
        do {
            opened = try Self.open(.defaultDevice)
            prepared = try prepareOutput(on: opened)
        } catch {
            OpenAL.lock.withLock { held in reportServiceError(held, error, player: nil) }
            return
        }
        OpenAL.lock.withLock { held in
            // A device lost meanwhile is the loss path's to replace (at the next tick), with
            // the playheads its last tick heard.
            guard state.withLockedValue(held, { $0.lost == nil }), device.isConnected else { return }
            do {
                let change = try moveOutput(held, to: opened, context: prepared, requested: .defaultDevice, reason: .defaultChanged, lostAt: nil)
                report(held, change)
            } catch {
                reportServiceError(held, error, player: nil)
            }
        }
    }

    /// Whether a move to the new default output reopens the device in place
    /// (`alcReopenDeviceSOFT`) where it can, instead of carrying everything to a new device:
    /// `SOUNDSTAGE_MOVE_BY_REOPEN=1`, an experiment (README: the two measured; the rebuild
    /// skips less and is the default).
    static let movesByReopening = getenv("SOUNDSTAGE_MOVE_BY_REOPEN").map { String(cString: $0) == "1" } ?? false

    /// Moves the output to the default one in place (see ``movesByReopening``).
    private func reopenOnDefault(_ held: borrowing LockHeld) {
        guard state.withLockedValue(held, { $0.lost == nil }), device.isConnected else { return }
        let began = ContinuousClock.now
        let previous = device.name
        do {
            let current = try context.reopenDevice(on: nil)
            report(held, RouteChange(reason: .defaultChanged, previous: previous, current: current,
                                     moveSeconds: (ContinuousClock.now - began).seconds, gapSeconds: nil))
        } catch {
            reportServiceError(held, error, player: nil)
        }
    }

    package func sessionOutputMayBeBack() {
        state.withLockedValue { s in s.lost?.nextAttempt = .now }
    }

    package func sessionServerLost() {
        state.withLockedValue { $0.serverLostAt = .now }
    }

    package func sessionCategoryChanged(_ category: AudioSession.Category) {
        state.withLockedValue { $0.category = category }
    }

    // Taken up, reported and acted on by the next tick (``watchOutputClock(_:)``).
    package func sessionOutputDropout(seconds: Double) {
        guard !isOffline else { return }
        state.withLockedValue { $0.underrunWatch.serverHeard(seconds: seconds) }
    }
}
