import SoundStageCore

/// An output the engine moved away from while it played, kept until it has played what it had
/// mixed before the move: its device's clock, less what the sound server still holds, has
/// passed the clock at the move. Not before twice its latency (and 50 ms) as reported then,
/// nor after ``longestSeconds``.
///
/// A wall-clock wait alone may close the device while the server still holds the old
/// stream's tail, on a loaded machine whose server runs late. CI runs on PipeWire beside the
/// ten-minute playlist skipped 208, 305 and 512 frames at one move in ten, the old sink's
/// recording ending that much early; that this was their cause is not proven (it did not
/// fail here, idle or beside a busy loop on each core).
struct PlayingOut {
    /// The most an output is kept: a server that stands still does not hold the device open.
    static let longestSeconds = 2.0

    let output: EngineOutput
    /// Not let go before this.
    let earliest: ContinuousClock.Instant
    /// Let go by this, played out or not.
    let latest: ContinuousClock.Instant
    /// The device's clock at the move (`ALC_DEVICE_CLOCK_SOFT`: what it had mixed), in
    /// nanoseconds; nil without `ALC_SOFT_device_clock`, where the wall clock alone decides.
    let mixedNanoseconds: Int64?

    /// Keeps `output` from `now`: at least twice `latencySeconds` and 50 ms.
    init(_ output: EngineOutput, latencySeconds: Double, now: ContinuousClock.Instant) {
        self.output = output
        earliest = now + .seconds(2 * latencySeconds + 0.05)
        latest = now + .seconds(Self.longestSeconds)
        mixedNanoseconds = output.device.clockNanoseconds
    }

    /// Whether it has played what it had mixed at the move, by `now`. Reads the device (the
    /// gateway lock held).
    func hasPlayedOut(at now: ContinuousClock.Instant) -> Bool {
        if now >= latest { return true }
        guard now >= earliest else { return false }
        guard let mixed = mixedNanoseconds, let clock = output.device.clockNanoseconds,
              let latency = output.device.latencyNanoseconds else { return true }
        return clock - latency >= mixed
    }
}
