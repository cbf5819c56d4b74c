import Foundation
import SoundStageCore
import SoundStageSession

/// One tick of a recorder's capture thread: it reads what the device captured, writes the
/// frames that fall in a recorded span (up to the duration asked for), meters them, and ends
/// the recording when asked, when the duration is reached, or when the file cannot be
/// written. A lost device pauses the recording. The device and the file are the thread's
/// alone while it runs; it holds the recorder weakly (a recorder let go mid-recording stops
/// and completes its file).
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
        takeOverNextDevice()
        guard let device, let writer else { return false }
        let channels = settings.channels, rate = settings.sampleRate
        var samples: [Float] = []
        if !parts.withLockedValue({ $0.deviceLost }) {
            do { samples = try device.read() } catch {
                deviceWentAway(device, error as? SoundStageError ?? device.failure(.deviceLost, "read(maxFrames:)", "\(error)"))
            }
        }
        let now = (ContinuousClock.now - made).seconds
        let chunks = state.withLockedValue { s -> [ArraySlice<Float>] in
            let first = s.capturedFrames, count = samples.count / channels
            s.noteRead(frames: count, at: now, rate: rate)
            return s.take(first: first, count: count, rate: rate).map { samples[($0.lowerBound * channels)..<($0.upperBound * channels)] }
        }
        var failed: SoundStageError?
        for chunk in chunks where failed == nil {
            do { try writer.append(Array(chunk)) } catch { failed = error as? SoundStageError }
        }
        let done = state.withLockedValue { s -> Bool in
            s.framesWritten = writer.framesWritten
            if s.isMetering { for chunk in chunks { s.accumulate(chunk, channels: channels) } }
            if failed != nil { return true }
            switch s.phase {
            case .idle, .recording, .paused: return s.reachedLimit
            case .stopping:
                // What was captured before the stop comes some time after it: read on for it.
                return !s.awaitsFrames(now: now, limit: Recorder.drainSeconds, rate: rate) || parts.withLockedValue { $0.deviceLost }
            default: return true
            }
        }
        guard done else { return true }
        finish(device, writer, failed: failed)
        return false
    }

    /// Moves to the device ``Recorder/switchDevice(named:)`` opened, if any.
    private func takeOverNextDevice() {
        guard let next = parts.withLockedValue({ p -> CaptureDevice? in
            defer { p.nextDevice = nil }
            if let next = p.nextDevice {
                p.deviceLost = false
                p.device = next
            }
            return p.nextDevice
        }) else { return }
        device?.stop()
        device = next
        next.start()
        state.withLockedValue { $0.deviceChanged() }
    }

    /// The device is gone: what was recorded stays, the recording pauses, and the game hears
    /// of it.
    private func deviceWentAway(_ device: CaptureDevice, _ error: SoundStageError) {
        device.stop()
        parts.withLockedValue { $0.deviceLost = true }
        let now = (ContinuousClock.now - made).seconds
        let (delegate, streams) = state.withLockedValue { s in
            if s.phase == .recording, let last = s.spans.indices.last, s.spans[last].end == nil {
                s.spans[last].end = now
                s.phase = .paused
            }
            return (s.delegate, s.subscribers.all)
        }
        deliver([.deviceLost(error)], delegate: delegate, streams: streams)
    }

    /// Ends the recording: the device stops, the file is completed, the events go out, and
    /// then the recorder reads as stopped.
    private func finish(_ device: CaptureDevice, _ writer: any AudioFileWriter, failed: SoundStageError?) {
        var failed = failed
        let (delegate, streams) = state.withLockedValue { s in
            s.phase = .finishing
            return (s.delegate, s.subscribers.all)
        }
        device.stop()
        do { try writer.finish() } catch { failed = failed ?? error as? SoundStageError }
        var events: [RecorderEvent] = []
        if let failed { events.append(.encodeError(failed)) }
        if state.withLockedValue({ !$0.spans.isEmpty }) || failed != nil { events.append(.finished(successfully: failed == nil)) }
        deliver(events, delegate: delegate, streams: streams)
        // Ended on its own: nobody joins the thread, so it lets itself go.
        let mine = parts.withLockedValue { p -> WorkerThread? in
            p.device = nil
            p.writer = nil
            p.nextDevice = nil
            p.deviceLost = false
            defer { p.thread = nil }
            return p.thread
        }
        mine?.joinOrDetach()
        state.withLockedValue { $0.phase = .stopped }
    }

    /// Tells the delegate and the streams, with no lock held.
    private func deliver(_ events: [RecorderEvent], delegate: (any RecorderDelegate)?, streams: EventDelivery<RecorderEvent>) {
        for event in events {
            streams.yield(event)
            guard let delegate, let recorder else { continue }
            switch event {
            case .finished(let ok): delegate.recorderDidFinishRecording(recorder, successfully: ok)
            case .encodeError(let error): delegate.recorderEncodeErrorDidOccur(recorder, error: error)
            case .deviceLost(let error): delegate.recorderDeviceWasLost(recorder, error: error)
            }
        }
    }
}
