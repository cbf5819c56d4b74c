import Foundation
import SoundStageCore
import SoundStageSession

/// The output's latency: the mode asked of the sound server (``LatencyMode``), what the
/// device reports, and the step back to a safer mode when the machine does not hold one.
extension AudioEngine {
    /// How many underruns within ``underrunWindow`` make the engine step back to a safer mode.
    public static let underrunsBeforeSteppingBack = 2
    /// The window underruns are counted in, in seconds.
    public static let underrunWindow = 10.0

    /// The latency mode the output was asked for; nil: none (OpenAL Soft's own periods, about
    /// ``LatencyMode/balanced``), as ``ContextAttributes/latency`` left it.
    public var latencyMode: LatencyMode? { context.latencyMode }

    /// The output's latency as its device reports it (`ALC_DEVICE_LATENCY_SOFT`: what is mixed
    /// and not yet played, the sound server's buffer included), in seconds; nil without
    /// `ALC_SOFT_device_clock`, offline, or before the server has said.
    public var outputLatency: Double? {
        guard !isOffline, let nanoseconds = device.latencyNanoseconds, nanoseconds > 0 else { return nil }
        return Double(nanoseconds) * 1e-9
    }

    /// The latency the sound server gave the output's stream, as the server says it: on
    /// PipeWire its `node.latency` (``ServerNodeLatency``), read by the session's monitor; nil
    /// on PulseAudio, offline, without a session, or before the server has shown the stream.
    public var serverNodeLatency: ServerNodeLatency? {
        guard !isOffline else { return nil }
        return session?.outputNodeLatency
    }

    /// Where the sound server's floor, not the latency mode, set the output's latency: the
    /// period the mode asked and what the server gave, read from the server (on PipeWire, its
    /// `pulse.min.quantum`: `the server's floor: 144 frames asked, PipeWire gave the stream
    /// 256/48000 (5.3 ms), its pulse.min.quantum`); nil where the mode was met, with no mode,
    /// on PulseAudio, or before the server has shown the stream.
    public var latencyFloorNote: String? {
        guard let request = context.serverLatencyRequest, let given = serverNodeLatency else { return nil }
        return given.floorNote(asked: request)
    }

    /// How many underruns the watch saw in the last ``underrunWindow`` seconds, since it last
    /// started over (the output moved, paused, or its stream was made again): watched for an
    /// engine with a latency mode, on a real device with `ALC_SOFT_device_clock`.
    public var recentUnderruns: Int {
        let now = currentTime
        return state.withLockedValue { $0.underrunWatch.count(within: Self.underrunWindow, before: now) }
    }

    /// Every underrun the watch saw since the engine started, in any mode, across moves and
    /// resets: what a game shows or logs to tell whether the machine holds its mode (zero on a
    /// machine that does). Watched as for ``recentUnderruns``.
    public var outputUnderruns: Int {
        state.withLockedValue { $0.outputUnderruns }
    }

    /// Moves the output to another latency mode while everything plays (see
    /// ``AudioContext/switchLatency(to:)``); reported as ``EngineEvent/latencyChanged(_:)``.
    /// The engine steps back from it by itself when the machine does not hold it.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` offline, after shutdown,
    ///   while the output is lost, and when the process set `PULSE_LATENCY_MSEC` itself.
    public func setLatencyMode(_ mode: LatencyMode) throws {
        guard !isOffline else { throw failure(.invalidState, "setLatencyMode(_:)", "an offline engine has no sound server to ask") }
        guard !isShutDown else { throw failure(.invalidState, "setLatencyMode(_:)", "the engine was shut down") }
        try changeLatency(LatencyStep(mode: mode, from: nil, reason: .asked, underruns: 0))
        deliverEvents()
    }

    /// Watches the output's clock at a tick, and steps back to the next safer mode when the
    /// machine does not hold this one. Only for a mode asked (with none, OpenAL Soft's own
    /// periods are not SoundStage's to change).
    ///
    /// Returns the step back to take, which the caller takes once it lets go of the gateway's
    /// lock (``changeLatency(_:)``: a reset waits on the sound server).
    func watchOutputClock(_ held: borrowing LockHeld) -> LatencyStep? {
        let (device, context) = output.withLock { ($0.device, $0.context) }
        let wall = currentTime
        // A reset made on another thread outside the gateway's lock (a game's HRTF switch or
        // latency change) runs beside this tick: the clock reads as last read meanwhile.
        let (paused, resets) = (state.withLockedValue(held) { $0.devicePaused || $0.silent != nil || $0.lost != nil } || context.isResetting,
                                context.resets)
        let restarted = state.withLockedValue(held) { s -> Bool in
            // A move, a pause, a silent output or a reset (running or done) makes the stream
            // again (its clock may stand still a while, and the new stream starts with a
            // gap the server may hear): the watch starts over.
            guard s.watchedDevice != ObjectIdentifier(device) || s.watchedPaused != paused || s.watchedResets != resets || paused else { return false }
            s.watchedDevice = ObjectIdentifier(device)
            s.watchedPaused = paused
            s.watchedResets = resets
            s.underrunWatch.restart(at: wall)
            return true
        }
        if let step = takeHeardDropouts(held, context) { return step }
        guard !restarted, context.latencyMode != nil, context.followsLatencyModes, let clock = device.clockNanoseconds else { return nil }
        // The server's buffer absorbs a late mixer up to its length: the mode's, or what the
        // device reports if it gave more (a server with a larger quantum), at least a period.
        let period = Double(context.periodFrames ?? 1_024) / Double(max(context.frequency, 1))
        let buffer = max(period, Double(context.latencyMode?.requestedMilliseconds ?? 0) / 1_000, outputLatency ?? 0)
        let underrun = state.withLockedValue(held) { s -> Bool in
            let seen = s.underrunWatch.observe(wall: wall, device: Double(clock) * 1e-9, slack: buffer)
            if seen { s.outputUnderruns += 1 }
            return seen
        }
        guard underrun, let safer = context.latencyMode?.safer else { return nil }
        let count = state.withLockedValue(held) { $0.underrunWatch.count(within: Self.underrunWindow, before: wall) }
        guard count >= Self.underrunsBeforeSteppingBack else { return nil }
        return LatencyStep(mode: safer, from: context.latencyMode, reason: .underruns, underruns: count)
    }

    /// Reports the dropouts the sound server heard since the last tick, each an underrun, and
    /// steps back to the next safer mode at the first (a listener heard it): returns the step
    /// back, if it is one. Not within a second of a change of mode (what the old stream played
    /// as it went is not the new one's), and not for one heard as the stream was made again
    /// (``OutputDropout/streamRemade``), which is reported and not counted.
    private func takeHeardDropouts(_ held: borrowing LockHeld, _ context: AudioContext) -> LatencyStep? {
        let wall = currentTime
        let mode = context.latencyMode
        // Those of the machine falling behind (counted here or by the clocks already).
        let late = state.withLockedValue(held) { s -> [Double] in
            let heard = s.underrunWatch.takeHeard(at: wall)
            s.outputUnderruns += heard.filter(\.counted).count
            for dropout in heard {
                s.outbox.append(.engine(.outputDropout(OutputDropout(seconds: dropout.seconds, heardAt: wall, mode: mode,
                                                                     streamRemade: dropout.streamRemade))))
            }
            return heard.filter { !$0.streamRemade }.map(\.seconds)
        }
        // Nor while a reset runs on another thread: the mode is changing.
        guard !late.isEmpty, mode != nil, context.followsLatencyModes, !context.isResetting, let safer = mode?.safer,
              wall - state.withLockedValue(held, { $0.latencyChangedAt }) > OutputUnderrunWatch.settling else { return nil }
        return LatencyStep(mode: safer, from: mode, reason: .dropouts, underruns: late.count)
    }

    /// Takes `step`: the device reset, then the change noted and reported. The reset waits on
    /// the sound server, up to libpulse's 30 s for one that is stopped: made with no gateway
    /// lock held (`DeviceRoundTrip`), so the game's calls go on while the server answers.
    func changeLatency(_ step: LatencyStep) throws {
        let context = self.context
        let from = step.from ?? context.latencyMode
        if let stepFrom = step.from {
            // A step back a tick decided on: not over a mode the game asked for meanwhile.
            guard try context.stepLatency(from: stepFrom, to: step.mode) else { return }
        } else {
            try context.switchLatency(to: step.mode)
        }
        OpenAL.lock.withLock { held in noteLatencyChange(held, context, from: from, to: step.mode, reason: step.reason, underruns: step.underruns) }
    }

    /// ``changeLatency(_:)`` for the service thread: an error is reported as the service's.
    func stepLatency(_ step: LatencyStep) {
        do {
            try changeLatency(step)
        } catch {
            OpenAL.lock.withLock { held in reportServiceError(held, error, player: nil) }
        }
    }

    /// Notes a latency change `context` made from `from` to `mode` (asked) and reports it.
    private func noteLatencyChange(_ held: borrowing LockHeld, _ context: AudioContext, from: LatencyMode?, to mode: LatencyMode,
                                   reason: LatencyChange.Reason, underruns: Int) {
        // The mode the context holds: a safer one than asked where the server's periods near
        // it were not whole (AudioContext.periodFrames).
        let holding = context.latencyMode ?? mode
        let now = currentTime
        state.withLockedValue(held) { s in
            s.latencyChangedAt = now
            s.outbox.append(.engine(.latencyChanged(LatencyChange(from: from, to: holding, reason: reason, underruns: underruns,
                                                                   requestedSeconds: Double(holding.requestedMilliseconds) / 1_000))))
        }
    }
}

/// A change of latency mode decided under the gateway's lock and made after it: the mode, why,
/// and the underruns that led to it.
struct LatencyStep: Sendable {
    let mode: LatencyMode
    /// The mode a step back is taken from (nil: one the game asked for, taken whatever holds).
    let from: LatencyMode?
    let reason: LatencyChange.Reason
    let underruns: Int
}
