import SoundStageCore
import SoundStageSession

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
