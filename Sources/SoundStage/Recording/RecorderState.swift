import Foundation

/// Where a recorder is.
enum RecorderPhase: Sendable, Equatable {
    /// Made, or prepared (device capturing, file started), not recording yet.
    case idle
    case recording
    case paused
    /// ``Recorder/stop()`` asked: the capture thread finishes the file and ends.
    case stopping
    /// Finished; ``Recorder/record()`` starts a new recording.
    case stopped
}

/// A recorder's shared state (under OpenAL's lock; the file itself is the capture thread's
/// alone, so no disk write happens under the lock).
struct RecorderState {
    var phase = RecorderPhase.idle
    /// The capture frames recorded: each span from a start to an end (nil: open), in the
    /// device's frame count.
    var spans: [(start: Int, end: Int?)] = []
    /// Frames to record at most (``Recorder/record(forDuration:)``).
    var limitFrames: Int?
    /// Frames captured so far, from every device the recording used.
    var capturedFrames = 0
    /// Where the current device's frames start in that count, and how many it gave.
    var deviceFirstFrame = 0
    var deviceFrames = 0
    /// The clock time the current device's first frame was taken, as closely as the reads
    /// tell (the earliest of each read's time less the frames read until then); nil before
    /// any frame. A call at a clock time is placed in the capture frames by it.
    var origin: Double?
    /// What an interruption or the session's deactivation paused, to resume at its end.
    var pausedBySession = false
    var interruptionPolicy = InterruptionPolicy.resume
    /// Whether the recorder joined its session.
    var joined = false
    /// When ``Recorder/stop()`` asked (clock seconds): the capture thread reads on until the
    /// frames up to the stop have come, for at most ``Recorder/drainSeconds``.
    var stopAskedAt: Double?

    /// Whether a stopping recording still waits for frames captured before the stop.
    func awaitsFrames(now: Double, limit: Double) -> Bool {
        guard let asked = stopAskedAt, now - asked < limit, let end = spans.last?.end else { return false }
        return capturedFrames < end
    }
    var framesWritten = 0
    /// Metering: whether on, what accumulated since the last ``Recorder/updateMeters()``,
    /// and its last reading.
    var isMetering = false
    var meterPeaks: [Float] = []
    var meterSums: [Double] = []
    var meterFrames = 0
    var averageDB: [Float] = []
    var peakDB: [Float] = []
    weak var delegate: (any RecorderDelegate)?
    var subscribers = EventSubscribers<RecorderEvent>()

    /// The capture frame taken at clock time `seconds` (where the current device's frames
    /// start, before it gave any).
    func frame(at seconds: Double, rate: Int) -> Int {
        guard let origin else { return capturedFrames }
        return max(deviceFirstFrame, deviceFirstFrame + Int(((seconds - origin) * Double(rate)).rounded()))
    }

    /// Notes a read of `frames` at clock time `seconds`.
    mutating func noteRead(frames: Int, at seconds: Double, rate: Int) {
        capturedFrames += frames
        deviceFrames += frames
        guard deviceFrames > 0 else { return }
        let candidate = seconds - Double(deviceFrames) / Double(rate)
        origin = min(origin ?? candidate, candidate)
    }

    /// Another device takes over: its frames follow on from those counted so far.
    mutating func deviceChanged() {
        deviceFirstFrame = capturedFrames
        deviceFrames = 0
        origin = nil
    }

    /// Of the capture frames `first..<first+count`, the ranges (relative to `first`) inside
    /// a recorded span.
    func recordedRanges(first: Int, count: Int) -> [Range<Int>] {
        spans.compactMap { span in
            let lo = max(first, span.start), hi = min(first + count, span.end ?? Int.max)
            return lo < hi ? (lo - first)..<(hi - first) : nil
        }
    }
}
