import SoundStageCore
import SoundStageSession

/// Where a recorder is.
enum RecorderPhase: Sendable, Equatable {
    /// Made, or prepared (device capturing, file started), not recording yet.
    case idle
    case recording
    case paused
    /// ``Recorder/stop()`` asked: the capture thread reads what came before the stop, then
    /// completes the file.
    case stopping
    /// The capture thread completes the file and tells of it.
    case finishing
    /// Finished; ``Recorder/record()`` starts a new recording.
    case stopped
}

/// A stretch of the recording, in clock seconds (``Recorder/deviceCurrentTime``): frames
/// captured from `start` until `end` are written, at most `limit` of them.
struct RecordedSpan {
    var start: Double
    var end: Double?
    var limit: Int?
    var written = 0

    /// Whether it wrote all it was asked for.
    var isComplete: Bool { limit.map { written >= $0 } ?? false }
}

/// A recorder's shared state (under OpenAL's lock; the file itself is the capture thread's
/// alone, so no disk write happens under the lock).
struct RecorderState {
    var phase = RecorderPhase.idle
    var spans: [RecordedSpan] = []
    /// Frames captured so far, from every device the recording used.
    var capturedFrames = 0
    /// Where the current device's frames start in that count, and how many it gave.
    var deviceFirstFrame = 0
    var deviceFrames = 0
    /// The clock time the current device's first frame was taken, as closely as the reads
    /// tell (the earliest of each read's time less the frames read until then); nil before
    /// any frame.
    var origin: Double?
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
    /// What an interruption or the session's deactivation paused, to resume at its end.
    var pausedBySession = false
    var interruptionPolicy = InterruptionPolicy.resume
    /// Whether the recorder joined its session.
    var joined = false
    /// When ``Recorder/stop()`` asked (clock seconds).
    var stopAskedAt: Double?

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

    /// The clock time capture frame `frame` was taken (nil before the device gave any).
    func time(ofFrame frame: Int, rate: Int) -> Double? {
        origin.map { $0 + Double(frame - deviceFirstFrame) / Double(rate) }
    }

    /// Of the frames `first..<first+count` just read, the ranges (relative to `first`) to
    /// write, counted against their spans' limits; a span that reaches its limit ends there.
    mutating func take(first: Int, count: Int, rate: Int) -> [Range<Int>] {
        guard count > 0, let t0 = time(ofFrame: first, rate: rate) else { return [] }
        let step = 1 / Double(rate)
        /// The first index at or after clock time `t`.
        func index(_ t: Double) -> Int { max(0, min(count, Int(((t - t0) / step).rounded(.up)))) }
        var ranges: [Range<Int>] = []
        for k in spans.indices where !spans[k].isComplete {
            let lo = index(spans[k].start), hi = spans[k].end.map(index) ?? count
            guard lo < hi else { continue }
            let n = min(hi - lo, (spans[k].limit ?? Int.max) - spans[k].written)
            ranges.append(lo..<(lo + n))
            spans[k].written += n
            if spans[k].isComplete { spans[k].end = t0 + Double(lo + n) * step }
        }
        return ranges
    }

    /// Whether the last span asked for a duration and has it all.
    var reachedLimit: Bool { spans.last?.isComplete ?? false }

    /// Whether a stopping recording still waits for frames taken before the stop (for at
    /// most `limit` seconds after it was asked).
    func awaitsFrames(now: Double, limit: Double, rate: Int) -> Bool {
        guard let asked = stopAskedAt, now - asked < limit, let end = spans.last?.end, !reachedLimit else { return false }
        guard let newest = time(ofFrame: capturedFrames, rate: rate) else { return true }
        return newest < end
    }
}
