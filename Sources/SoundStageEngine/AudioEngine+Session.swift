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
    private func updateDevicePause(_ held: borrowing LockHeld) {
        let change = state.withLockedValue(held) { s -> Bool? in
            let pause = s.sessionInterrupted || s.sessionInactive
            guard pause != s.devicePaused else { return nil }
            s.devicePaused = pause
            return pause
        }
        guard let pause = change else { return }
        let (device, context) = output.withLock { ($0.device, $0.context) }
        pauseDevice(held, device, context, pause)
        holdVoices(held)
    }
}

// The session calls these on its own thread (or, for a suspend, the watcher's): what they
// post for players and the engine's subscribers is delivered by the next service tick, on
// the thread that runs the service loop, as every other event.
extension AudioEngine: SessionMember {
    package var watchesSystem: Bool { !isOffline }
    package var isRecordingForSession: Bool { false }

    package func sessionInterruptionBegan() {
        interrupt()
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { $0.sessionInterrupted = true }
            updateDevicePause(held)
        }
    }

    package func sessionInterruptionEnded(shouldResume: Bool) {
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { $0.sessionInterrupted = false }
            updateDevicePause(held)
        }
        resumeAfterInterruption(shouldResume)
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

    package func sessionOutputMayBeBack() {
        state.withLockedValue { s in s.lost?.nextAttempt = .now }
    }

    package func sessionServerLost() {
        state.withLockedValue { $0.serverLostAt = .now }
    }

    package func sessionCategoryChanged(_ category: AudioSession.Category) {
        state.withLockedValue { $0.category = category }
    }
}
