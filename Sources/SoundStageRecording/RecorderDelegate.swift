import SoundStageCore
import SoundStageSession

/// AVAudioRecorderDelegate in Swift form. Called on the recorder's capture thread, never
/// with a lock held, so a delegate may call back into the recorder. Held weakly; it need not
/// be `Sendable` (as ``PlayerDelegate``).
public protocol RecorderDelegate: AnyObject {
    /// The recording ended; `successfully` is false after an error or a lost device.
    func recorderDidFinishRecording(_ recorder: Recorder, successfully: Bool)
    /// Writing the file failed.
    func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError)
    /// The capture device went away; the recording is paused (see ``RecorderEvent/deviceLost(_:)``).
    func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError)
}

extension RecorderDelegate {
    /// Does nothing: implement it to hear of the end.
    public func recorderDidFinishRecording(_ recorder: Recorder, successfully: Bool) {}
    /// Does nothing: implement it to hear of encode errors.
    public func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError) {}
    /// Does nothing: implement it to hear of a lost device.
    public func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError) {}
}
