/// What a ``Recorder`` tells, by its ``Recorder/delegate`` and ``Recorder/events()``.
public enum RecorderEvent: Sendable {
    /// The recording ended: by ``Recorder/stop()`` or its duration (successfully), or by an
    /// encode error (not); the file holds what was recorded either way.
    case finished(successfully: Bool)
    /// Writing the file failed (a full disk, a removed folder); the recording ends.
    case encodeError(SoundStageError)
    /// The capture device went away mid-recording: the recording pauses, its file whole up
    /// to there; ``Recorder/switchDevice(named:)`` and ``Recorder/record()`` go on with
    /// another device, ``Recorder/stop()`` completes the file.
    case deviceLost(SoundStageError)
}

/// AVAudioRecorderDelegate in Swift form. Called on the recorder's capture thread, never
/// with a lock held, so a delegate may call back into the recorder.
public protocol RecorderDelegate: AnyObject, Sendable {
    /// The recording ended; `successfully` is false after an error or a lost device.
    func recorderDidFinishRecording(_ recorder: Recorder, successfully: Bool)
    /// Writing the file failed.
    func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError)
    /// The capture device went away; the recording is paused (see ``RecorderEvent/deviceLost(_:)``).
    func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError)
}

extension RecorderDelegate {
    public func recorderDidFinishRecording(_ recorder: Recorder, successfully: Bool) {}
    public func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError) {}
    public func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError) {}
}
