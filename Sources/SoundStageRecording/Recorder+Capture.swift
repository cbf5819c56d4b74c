import SoundStageCore
import SoundStageSession

extension Recorder {
    /// Starts the device and the capture thread (``CaptureTick`` every 10 ms).
    func startCapture() throws {
        guard let device = parts.withLockedValue({ $0.device }) else { return }
        device.start()
        state.withLockedValue { s in
            s.capturedFrames = 0
            s.deviceChanged()
        }
        let tick = CaptureTick(state: state, parts: parts, settings: settings, made: made, recorder: self)
        do {
            // Stored under the lock the thread's first tick waits for, so the handle is there
            // before the thread could end.
            try parts.withLockedValue { p in p.thread = try CaptureThread.start(name: Self.threadName, period: Self.tickSeconds) { tick.run() } }
        } catch {
            device.stop()
            throw failure(.invalidState, "record()", "cannot start the capture thread (\(error))")
        }
    }
}
