import Foundation
import SoundStageCore
import SoundStageSession

// A recorder follows its audio session: an interruption or the session's deactivation
// pauses it, and their end resumes it per its interruption policy; it moves to another
// capture device when asked (after its device was lost, or to change microphones).
extension Recorder: SessionMember {
    /// What the recorder does when an interruption begins and ends: ``InterruptionPolicy/resume``
    /// by default (pause, and record on when it ends saying it may),
    /// ``InterruptionPolicy/stayPaused``, or ``InterruptionPolicy/stop`` (the file is completed).
    public var interruptionPolicy: InterruptionPolicy {
        get { state.withLockedValue { $0.interruptionPolicy } }
        set { state.withLockedValue { $0.interruptionPolicy = newValue } }
    }

    /// The name of the capture device in use (nil before ``prepareToRecord()``).
    public var deviceName: String? { parts.withLockedValue { $0.nextDevice?.name ?? $0.device?.name } }

    /// Moves the recording to the capture device named `name` (the default when nil), in
    /// the recorder's format: after ``RecorderEvent/deviceLost(_:)``, or to change
    /// microphones mid-recording. Recording goes on where it was (paused stays paused); the
    /// file is the same. Returns once the new device delivers audio (at most
    /// ``startSeconds``).
    ///
    /// - Throws: what ``CaptureDevice/open(named:format:bufferSeconds:)`` throws;
    ///   ``SoundStageError/Code-swift.struct/invalidState`` before ``prepareToRecord()``.
    public func switchDevice(named name: String?) throws {
        let format = RenderFormat(sampleRate: settings.sampleRate, channels: settings.channels == 1 ? .mono : .stereo, sampleType: .float32)
        guard parts.withLockedValue({ $0.thread != nil }) else {
            throw failure(.invalidState, "switchDevice(named:)", "nothing is prepared or recording; name the device in the settings")
        }
        let device = try CaptureDevice.open(named: name, format: format)
        parts.withLockedValue { $0.nextDevice = device }
        // The capture thread takes it over at its next tick; as prepareToRecord(), this returns
        // once the device delivers audio, or after startSeconds.
        let deadline = ContinuousClock.now + .seconds(Self.startSeconds)
        while ContinuousClock.now < deadline,
              parts.withLockedValue({ $0.nextDevice != nil && $0.thread != nil }) || state.withLockedValue({ $0.deviceFrames == 0 }) {
            Thread.sleep(forTimeInterval: Self.tickSeconds)
        }
    }

    package var watchesSystem: Bool { true }
    package var isRecordingForSession: Bool { isRecording }

    package func sessionInterruptionBegan() {
        switch interruptionPolicy {
        case .stop: if isRecording { stop() }
        case .resume, .stayPaused: pause(bySession: true)
        }
    }

    package func sessionInterruptionEnded(shouldResume: Bool) {
        let resume = state.withLockedValue { s in s.pausedBySession && s.phase == .paused && s.interruptionPolicy == .resume }
        if resume && shouldResume { resumeForSession() }
    }

    package func sessionActivated(_ active: Bool) {
        if !active {
            pause(bySession: true)
        } else if state.withLockedValue({ $0.pausedBySession && $0.phase == .paused }), !session.isInterrupted {
            resumeForSession()
        }
    }

    /// Records on after the session let it; a failure (the device went meanwhile) is logged,
    /// as there is no caller to throw to.
    private func resumeForSession() {
        do { try record() } catch { Log.report(error) }
    }

    package func sessionDefaultOutputChanged() {}
    package func sessionServerLost() {}
    package func sessionOutputMayBeBack() {}
    package func sessionCategoryChanged(_ category: AudioSession.Category) {}
}
