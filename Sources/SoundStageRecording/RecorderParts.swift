import SoundStageCore
import SoundStageSession

/// What a recorder's capture thread works on: the device, the file, and the thread itself.
/// The thread handle is taken exactly once: by ``Recorder/stop()`` to join it, or by the
/// thread to let itself go when the recording ended on its own.
struct RecorderParts {
    var device: CaptureDevice?
    var writer: (any AudioFileWriter)?
    var thread: WorkerThread?
    /// A device to move to (``Recorder/switchDevice(named:)``), taken over at the next tick.
    var nextDevice: CaptureDevice?
    /// Whether the device went away: nothing is read until another takes over.
    var deviceLost = false
}
