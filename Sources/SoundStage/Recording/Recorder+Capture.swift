#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// What the capture thread works on: the device, the file, and the thread itself (joined by
/// ``Recorder/stop()``). The file is written by the capture thread alone, outside the lock.
struct RecorderParts {
    var device: CaptureDevice?
    var writer: (any AudioFileWriter)?
    var thread: WorkerThread?
    /// A device to move to (``Recorder/switchDevice(named:)``), taken over at the next tick.
    var nextDevice: CaptureDevice?
    /// Whether the device went away: nothing is read until another takes over.
    var deviceLost = false
}

// The capture thread: every 10 ms it reads what the device captured, writes the frames that
// fall in a recorded span (up to the duration asked for), meters them, and ends the
// recording when asked, when the duration is reached, when the file cannot be written or
// when the device goes. It holds the recorder weakly: a recorder let go mid-recording stops
// and completes its file.
extension Recorder {
    /// Starts the device and the capture thread.
    func startCapture() throws {
        let (state, parts, settings, made) = (self.state, self.parts, self.settings, self.made)
        guard let device = parts.withLockedValue({ $0.device }) else { return }
        device.start()
        state.withLockedValue { s in
            s.capturedFrames = 0
            s.deviceChanged()
        }
        let thread: WorkerThread
        do {
            let tick = CaptureTick(state: state, parts: parts, settings: settings, made: made, recorder: self)
            thread = try CaptureThread.start(name: Self.threadName, period: Self.tickSeconds) { tick.run() }
        } catch {
            device.stop()
            throw failure(.invalidState, "record()", "cannot start the capture thread (error \(error.code))")
        }
        parts.withLockedValue { $0.thread = thread }
    }
}

/// One tick of a recorder's capture thread (see the extension above). The device and the
/// file are the thread's alone while it runs.
final class CaptureTick: @unchecked Sendable {
    private let state: LockedState<RecorderState>
    private let parts: LockedState<RecorderParts>
    private let settings: RecorderSettings
    private let made: ContinuousClock.Instant
    private weak var recorder: Recorder?
    private var device: CaptureDevice?
    private let writer: (any AudioFileWriter)?

    init(state: LockedState<RecorderState>, parts: LockedState<RecorderParts>, settings: RecorderSettings, made: ContinuousClock.Instant, recorder: Recorder) {
        (self.state, self.parts, self.settings, self.made, self.recorder) = (state, parts, settings, made, recorder)
        (device, writer) = parts.withLockedValue { ($0.device, $0.writer) }
    }

    /// Reads, writes and meters what the device captured; false once the recording ended.
    func run() -> Bool {
        if let next = parts.withLockedValue({ p -> CaptureDevice? in
            defer { p.nextDevice = nil }
            if p.nextDevice != nil { p.deviceLost = false }
            return p.nextDevice
        }) {
            device?.stop()
            device = next
            parts.withLockedValue { $0.device = next }
            next.start()
            state.withLockedValue { $0.deviceChanged() }
        }
        guard let device, let writer else { return false }
        let channels = settings.channels
        let stopping = state.withLockedValue { $0.phase == .stopping }
        var samples: [Float] = []
        if !parts.withLockedValue({ $0.deviceLost }) {
            do { samples = try device.read() } catch {
                // The recording pauses, its file whole; the game may move it to another device.
                deviceWentAway(device, error as? SoundStageError ?? device.failure(.deviceLost, "read(maxFrames:)", "\(error)"))
            }
        }
        let now = (ContinuousClock.now - made).seconds
        let (chunks, reachedLimit) = state.withLockedValue { s -> ([ArraySlice<Float>], Bool) in
            let count = samples.count / channels
            let ranges = s.recordedRanges(first: s.capturedFrames, count: count)
            s.noteRead(frames: count, at: now, rate: settings.sampleRate)
            var left = s.limitFrames.map { $0 - s.framesWritten } ?? Int.max
            var chunks: [ArraySlice<Float>] = []
            for r in ranges where left > 0 {
                let n = min(r.count, left)
                chunks.append(samples[(r.lowerBound * channels)..<((r.lowerBound + n) * channels)])
                left -= n
            }
            return (chunks, s.limitFrames != nil && left <= 0)
        }
        var failed: SoundStageError?
        for chunk in chunks where failed == nil {
            do { try writer.append(Array(chunk)) } catch { failed = error as? SoundStageError }
        }
        state.withLockedValue { s in
            s.framesWritten = writer.framesWritten
            if s.isMetering { for chunk in chunks { s.accumulate(chunk, channels: channels) } }
        }
        guard stopping || reachedLimit || failed != nil else { return true }
        // What was captured before the stop comes some time after it: read on for it.
        let lost = parts.withLockedValue { $0.deviceLost }
        if stopping, !reachedLimit, failed == nil, !lost, state.withLockedValue({ $0.awaitsFrames(now: now, limit: Recorder.drainSeconds) }) { return true }
        finish(device, writer, failed: failed)
        return false
    }

    /// The device is gone: what was recorded stays, the recording pauses, and the game hears
    /// of it.
    private func deviceWentAway(_ device: CaptureDevice, _ error: SoundStageError) {
        device.stop()
        parts.withLockedValue { $0.deviceLost = true }
        let (delegate, streams) = state.withLockedValue { s in
            if s.phase == .recording, let last = s.spans.indices.last {
                s.spans[last].end = s.capturedFrames
                s.phase = .paused
            }
            return (s.delegate, s.subscribers.all)
        }
        deliver([.deviceLost(error)], delegate: delegate, streams: streams)
    }

    /// Ends the recording: the device stops, the file is completed, the events go out.
    private func finish(_ device: CaptureDevice, _ writer: any AudioFileWriter, failed: SoundStageError?) {
        var failed = failed
        device.stop()
        do { try writer.finish() } catch { failed = failed ?? error as? SoundStageError }
        var events: [RecorderEvent] = []
        if let failed { events.append(.encodeError(failed)) }
        let (joined, recorded, delegate, streams) = state.withLockedValue { s in
            let joined = s.phase == .stopping
            s.phase = .stopped
            return (joined, !s.spans.isEmpty, s.delegate, s.subscribers.all)
        }
        if recorded || failed != nil { events.append(.finished(successfully: failed == nil)) }
        let detach = parts.withLockedValue { p -> WorkerThread? in
            p.device = nil
            p.writer = nil
            // Ended by itself: nobody joins the thread, so it lets itself go.
            defer { if !joined { p.thread = nil } }
            return joined ? nil : p.thread
        }
        detach?.joinOrDetach()
        deliver(events, delegate: delegate, streams: streams)
    }

    /// Tells the delegate and the streams, with no lock held.
    private func deliver(_ events: [RecorderEvent], delegate: (any RecorderDelegate)?, streams: [AsyncStream<RecorderEvent>.Continuation]) {
        for event in events {
            for stream in streams { stream.yield(event) }
            guard let delegate, let recorder else { continue }
            switch event {
            case .finished(let ok): delegate.recorderDidFinishRecording(recorder, successfully: ok)
            case .encodeError(let error): delegate.recorderEncodeErrorDidOccur(recorder, error: error)
            case .deviceLost(let error): delegate.recorderDeviceWasLost(recorder, error: error)
            }
        }
    }
}
