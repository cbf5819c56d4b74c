/// Tells the output's underruns from its clock: the device's clock (`ALC_DEVICE_CLOCK_SOFT`,
/// what the mixer has mixed) keeps pace with the wall clock while the sound server is fed. When
/// the server runs dry, it plays silence and waits for its buffer to fill again (the modes ask
/// for a start threshold, `prebuf`), and the mixer, waiting with it, falls behind the wall
/// clock by the time lost. So the wall clock less the device's clock steps up by each gap.
///
/// The server's buffer absorbs a mixer late by less than its length (the mixer also works a
/// period or more at a time), and the clocks drift slowly apart (the device's and the
/// system's differ by parts per million): compared with its least over the last ``window``
/// seconds, a step larger than the buffer (`slack`) and ``margin`` is an underrun.
struct OutputUnderrunWatch: Sendable {
    /// How long the least is kept (seconds).
    static let window = 2.0
    /// What a step must exceed beyond a period (seconds): the scheduling of the threads that read the clocks.
    static let margin = 0.004

    /// (wall seconds, wall less device seconds) of the last ``window`` seconds.
    private var readings: [(at: Double, lag: Double)] = []
    /// How long underruns are kept for counting (seconds).
    static let kept = 60.0

    /// How long after the device's clock first moves the readings start (seconds): as a
    /// stream starts, the mixer fills the server's buffer and the server waits for its start
    /// threshold, and the lag settles (measured: 10 ms of creep in the first half second).
    static let settling = 1.0

    /// The device's clock at the last reading, until it is seen to move: a stream's clock
    /// stands still until the server starts it (0.3 to 1.8 s after it opens or is reset, on
    /// PulseAudio with OpenAL Soft 1.19.1), which is no underrun.
    private var waitingFrom: Double? = -1
    /// When the readings start (wall seconds), once the clock moved.
    private var settledAt = Double.infinity
    /// When underruns were seen (wall seconds).
    private(set) var underruns: [Double] = []
    /// Dropouts the sound server heard (their seconds of silence) and the next tick has not
    /// taken yet; at most ``heardKept`` (the oldest go first).
    private var heard: [Double] = []
    /// How many dropouts heard wait for a tick at most.
    static let heardKept = 64

    /// Takes a reading: `wall` and `device` clocks in seconds, `slack` how late the mixer may
    /// be without the server running dry (its buffer, at least a period), in seconds. Returns
    /// whether it shows an underrun since the last.
    mutating func observe(wall: Double, device: Double, slack: Double) -> Bool {
        if let from = waitingFrom {
            waitingFrom = device > from && from >= 0 ? nil : device
            if waitingFrom != nil { return false }
            if settledAt == .infinity { settledAt = wall + Self.settling }
        }
        guard wall >= settledAt else { return false }
        underruns.removeAll { wall - $0 > Self.kept }
        let lag = wall - device
        readings.removeAll { wall - $0.at > Self.window }
        guard let least = readings.map(\.lag).min(), lag - least > slack + Self.margin else {
            readings.append((wall, lag))
            return false
        }
        underruns.append(wall)
        clockSeen = wall
        // The lag from now on is measured from here, once the clock moves again: a clock that
        // stands still through a gap is one underrun, not one a tick.
        readings.removeAll()
        waitingFrom = device
        return true
    }

    /// The sound server heard the output run dry for `seconds` (any thread; taken by the next
    /// tick, ``takeHeard(at:)``).
    mutating func serverHeard(seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        if heard.count >= Self.heardKept { heard.removeFirst() }
        heard.append(seconds)
    }

    /// A dropout the server heard, as the next tick takes it (``takeHeard(at:)``).
    struct Heard: Equatable {
        /// How long the server played silence.
        var seconds: Double
        /// Whether it counts as an underrun (not the one the clocks showed already, nor the
        /// stream's remaking).
        var counted: Bool
        /// Whether it was heard while the stream was being made again or as it started (a
        /// reset, a move, a pause; ``takeHeard(at:)``): that stream's start, not the machine late.
        var streamRemade: Bool
    }

    /// The dropouts the server heard since the last call, each now counted as an underrun at
    /// `wall` (they are the ones a listener heard, whatever the clocks showed), unless the
    /// clocks showed it already (the first heard within ``sameGap`` seconds of an underrun the
    /// clocks showed is that one) or the stream was made again (``restart(at:)``) and has not
    /// yet started: its clock has not moved and settled, within ``longestRemaking`` seconds,
    /// and ``sameGap`` at least. Neither is `counted`.
    mutating func takeHeard(at wall: Double) -> [Heard] {
        defer { heard.removeAll() }
        underruns.removeAll { wall - $0 > Self.kept }
        // The stream's start lasts until its clock moved and settled (``settling``), or
        // ``longestRemaking`` where it is not watched; a second at least.
        let remaking = max(restartedAt + Self.sameGap, min(settledAt, restartedAt + Self.longestRemaking))
        return heard.map { seconds in
            if wall <= remaking {
                return Heard(seconds: seconds, counted: false, streamRemade: true)
            }
            if let seen = clockSeen, wall - seen <= Self.sameGap {
                clockSeen = nil
                return Heard(seconds: seconds, counted: false, streamRemade: false)
            }
            underruns.append(wall)
            return Heard(seconds: seconds, counted: true, streamRemade: false)
        }
    }

    /// When the stream was last seen being made again (wall seconds, ``restart(at:)``).
    private var restartedAt = -Double.infinity
    /// How long after a stream is made again a dropout heard is still its start at most
    /// (seconds): its clock stands still up to 1.8 s (``waitingFrom``), then settles for
    /// ``settling``.
    static let longestRemaking = 3.0

    /// When the clocks last showed an underrun the server's report has not matched yet.
    private var clockSeen: Double?
    /// How far apart the clocks' sight of a gap and the server's report of it can be (seconds):
    /// the server's report comes a fragment of its monitor stream (20 ms) and a tick later.
    static let sameGap = 1.0

    /// How many underruns in the `seconds` before `wall`.
    func count(within seconds: Double, before wall: Double) -> Int {
        underruns.filter { $0 <= wall && wall - $0 <= seconds }.count
    }

    /// Starts over at `wall`: the output was paused, moved, or reset (its stream is made again,
    /// its clock starts again), or is being so now.
    mutating func restart(at wall: Double) {
        restartedAt = wall
        readings.removeAll()
        underruns.removeAll()
        waitingFrom = -1
        settledAt = .infinity
    }
}
