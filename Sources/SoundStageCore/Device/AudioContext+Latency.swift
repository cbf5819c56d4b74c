import COpenAL

extension AudioContext {
    /// The latency mode its device's stream was asked for (``ContextAttributes/latency``); nil:
    /// none, OpenAL Soft's own periods (about ``LatencyMode/balanced``).
    public var latencyMode: LatencyMode? { attributes.latency }

    /// What the device's stream asked of the sound server when it was last made (its context
    /// created, its device reset or reopened): the milliseconds, whose they were (the latency
    /// mode's or the process's own `PULSE_LATENCY_MSEC`), and what they replaced when the
    /// periods were not whole. Nil on a loopback device and when nothing was asked (no mode,
    /// OpenAL Soft's own periods).
    public var serverLatencyRequest: ServerLatencyRequest? { latencyRequest.withLock { $0 } }

    /// Whether the modes reach the sound server: a real output (a loopback device has no
    /// server), and no `PULSE_LATENCY_MSEC` of the process's own (which then decides).
    public var followsLatencyModes: Bool { device.loopbackFormat == nil && PulseLatency.setByProcess == nil }

    /// Asks the sound server for another latency while everything plays: OpenAL Soft resets its
    /// device (`alcResetDeviceSOFT`), its stream is made again with the new buffer, and its
    /// sources go on where they were (a few milliseconds are not heard). Read what came of it
    /// in ``AudioDevice/latencyNanoseconds``.
    ///
    /// The device is shared: every context on it hears the change.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` while the device is lost.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` while the device is lost,
    ///   on a loopback device, or when the process set `PULSE_LATENCY_MSEC` itself
    ///   (``followsLatencyModes``).
    public func switchLatency(to mode: LatencyMode) throws {
        let member = "switchLatency(to:)"
        guard followsLatencyModes else {
            throw failure(.invalidState, member, device.loopbackFormat != nil
                          ? "a loopback device has no sound server to ask"
                          : "the process set PULSE_LATENCY_MSEC=\(PulseLatency.setByProcess ?? "") itself, which decides")
        }
        try resetDevice(member: member) { $0.latency = mode; return true }
    }

    /// Steps from `from` to `mode` (``switchLatency(to:)``), only if the device's stream still
    /// holds `from` when the reset is made: a step back an engine's tick decided on, which a
    /// change the game made meanwhile on another thread replaces. Returns whether it stepped.
    package func stepLatency(from: LatencyMode, to mode: LatencyMode) throws -> Bool {
        guard followsLatencyModes else { return false }
        // The change is also previewed outside the round trip: what counts is its last call.
        var stepped = false
        try resetDevice(member: "switchLatency(to:)") { asked in
            stepped = asked.latency == from
            guard stepped else { return false }
            asked.latency = mode
            return true
        }
        return stepped
    }

    /// How many times the device was reset or reopened in place since the context was made: its
    /// stream was made again (its clock may stand still a while).
    public var resets: Int { resetCount.load(ordering: .relaxed) }

    /// Whether a reset or a reopening in place of the device runs now, on any thread: its
    /// stream is being made again, and the device's clock reads as last read meanwhile (it
    /// stands still), so a watch of the clock must not take the time for an underrun.
    package var isResetting: Bool { resetsRunning.load(ordering: .relaxed) > 0 }

    /// Runs `body`, a reset or a reopening in place, with ``isResetting`` true meanwhile.
    func resetting<R>(_ body: () throws -> R) rethrows -> R {
        resetsRunning.add(1, ordering: .relaxed)
        defer { resetsRunning.subtract(1, ordering: .relaxed) }
        return try body()
    }

    /// Resets the device (`alcResetDeviceSOFT`) with its attributes as `change` leaves them,
    /// which it keeps: read, reset and kept inside one `DeviceRoundTrip`, so two changes at
    /// once (an HRTF switch, a latency step) do not undo each other. Nothing is reset where
    /// `change` returns false (it found nothing to change). The reset waits on the
    /// sound server; a caller that holds no gateway lock makes it without one, so the game's
    /// other calls go on meanwhile.
    func resetDevice(member: String, _ change: (inout ContextAttributes) -> Bool) throws {
        // A lost device cannot be reset: OpenAL Soft 1.19.1 refuses it with an ALC error.
        guard device.isConnected else {
            throw failure(.invalidState, member, "\(device) is lost (disconnected); ask again once the output is back")
        }
        let raw = device.handle.raw
        // An HRTF by name is looked up under the gateway's lock, which the round trip does not
        // take: read now, and only then (OpenAL Soft lists them under its device's lock).
        var preview = attributes
        _ = change(&preview)
        let hrtfs = preview.hrtfName != nil ? device.availableHRTFs : []
        try DeviceRoundTrip.run(on: raw) {
            // Closing the device happens inside a round trip too: not meanwhile.
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            var asked = attributes
            guard change(&asked) else { return }
            var list = try Self.attributeList(asked, device: device, availableHRTFs: hrtfs) { code, reason in failure(code, member, reason) }
            // OpenAL Soft 1.19.1 resets nothing for an empty list on a running device: the
            // frequency it has is asked for again.
            if list.count <= 1 { list = [ALC_FREQUENCY, ALCint(frequency), 0] }
            let milliseconds = Self.milliseconds(for: asked.latency, after: serverLatencyRequest)
            // Resetting until it is counted, the resets for whole periods with it: a watch of
            // the device's clock that saw the stream made again as running would take its
            // standing clock for an underrun.
            try resetting {
                let reset = try OpenAL.callALC(raw, Self.operationName(member), on: description) {
                    PulseLatency.asking(milliseconds) { alcResetDeviceSOFT(raw, list) }
                }
                guard reset == ALC_TRUE else { throw failure(.alcInvalidDevice, member, "OpenAL Soft could not reset \(device)") }
                // A reset starts every reverb's cross-fade again.
                device.reverbMayFade(release: release)
                let kept = try Self.keepPeriodsWhole(device, mode: asked.latency, asked: milliseconds, list: list) { code, reason in failure(code, member, reason) }
                asked.latency = kept.0
                requestedAttributes.withLock { $0 = asked }
                latencyRequest.withLock { $0 = kept.1 }
                resetCount.add(1, ordering: .relaxed)
            }
        }
    }
}

extension AudioContext {
    /// Whether OpenAL Soft 1.19.1's reverb can mix in periods of `frames`. When a reverb's
    /// settings change (a preset, a zone), it cross-fades over 128 frames, in steps rounded down
    /// to a multiple of 4 when a period ends inside the fade. A period shorter than the fade
    /// and not a multiple of 4 leaves it a step of 0 frames, which it repeats for ever or
    /// runs past its buffers with: at 110 frames (PulseAudio's period for 10 ms asked at
    /// 44.1 kHz) a plain C program that changes a reverb hangs or crashes within seconds.
    static func periodHoldsReverb(_ frames: Int) -> Bool { frames % 4 == 0 || frames >= 128 }

    /// What to ask next when the server gave `mode` periods the reverb cannot mix in: the
    /// milliseconds nearest the mode's first (the server's period follows them), then the
    /// safer modes'.
    static func periodAsks(after mode: LatencyMode) -> [(mode: LatencyMode, milliseconds: Int)] {
        let near = periodAsks(near: mode.requestedMilliseconds).prefix(6).map { (mode, $0) }
        let safer = sequence(first: mode, next: \.safer).dropFirst().map { ($0, $0.requestedMilliseconds) }
        return near + safer
    }

    /// What to ask next in place of `milliseconds` (the process's own `PULSE_LATENCY_MSEC`)
    /// when the periods they gave are ones the reverb cannot mix in: the milliseconds nearest
    /// first, then the modes' above them.
    static func periodAsks(near milliseconds: Int) -> [Int] {
        let near = [-1, 1, -2, 2, -3, 3].map { milliseconds + $0 }.filter { $0 > 0 }
        return near + LatencyMode.allCases.map(\.requestedMilliseconds).filter { $0 > milliseconds + 3 }
    }

    /// The milliseconds to ask of the server when the device's stream is made again for
    /// `mode`, after `last` (``serverLatencyRequest``): the mode's; with the process's own
    /// `PULSE_LATENCY_MSEC`, the milliseconds asked in its place if they were, else nothing
    /// (libpulse reads the process's).
    static func milliseconds(for mode: LatencyMode?, after last: ServerLatencyRequest?) -> Int? {
        guard PulseLatency.setByProcess != nil else { return mode?.requestedMilliseconds }
        guard let last, last.origin == .process, last.replaced != nil else { return nil }
        return last.milliseconds
    }

    /// Checks the periods the server gave the device's stream, just made for `mode` with
    /// `asked` milliseconds (``milliseconds(for:after:)``; created, reset or reopened), and
    /// asks again (``periodAsks(after:)``, ``periodAsks(near:)``, `alcResetDeviceSOFT` with
    /// `list`) until the reverb can mix in them (``periodHoldsReverb(_:)``). Returns the mode
    /// in effect (`mode`, or a safer one when no milliseconds near it gave whole periods) and
    /// what the stream asked of the server. The process's own `PULSE_LATENCY_MSEC` is checked
    /// the same way, and replaced only when its periods are not whole. Inside a
    /// `DeviceRoundTrip` (a reset), or under the gateway's lock (a context made).
    static func keepPeriodsWhole(_ device: AudioDevice, mode: LatencyMode?, asked: Int?, list: [ALCint],
                                 fail: (SoundStageError.Code, String) -> SoundStageError) throws -> (LatencyMode?, ServerLatencyRequest?) {
        let raw = device.handle.raw
        // A loopback device has no period and asks no server.
        guard device.loopbackFormat == nil else { return (mode, nil) }
        let origin: ServerLatencyRequest.Origin, first: Int
        if PulseLatency.setByProcess != nil {
            // A value libpulse does not read as milliseconds asks nothing.
            guard let own = PulseLatency.processMilliseconds else { return (mode, nil) }
            (origin, first) = (.process, own)
        } else if let mode {
            (origin, first) = (.mode, mode.requestedMilliseconds)
        } else {
            // Nothing asked: OpenAL Soft's own periods, 1,024 frames.
            return (nil, nil)
        }
        func request(_ milliseconds: Int, _ frames: Int?) -> ServerLatencyRequest {
            ServerLatencyRequest(milliseconds: milliseconds, origin: origin, replaced: milliseconds == first ? nil : first, periodFrames: frames,
                                 sampleRate: Int(frequency(raw)))
        }
        let now = asked ?? first
        let given = period(raw)
        guard let given, !periodHoldsReverb(given) else { return (mode, request(now, given)) }
        // OpenAL Soft 1.19.1 resets nothing for an empty list on a running device.
        let list = list.count > 1 ? list : [ALC_FREQUENCY, frequency(raw), 0]
        let asks: [(mode: LatencyMode?, milliseconds: Int)] = origin == .mode
            ? periodAsks(after: mode!).map { ($0.mode, $0.milliseconds) }
            : periodAsks(near: first).map { (mode, $0) }
        var last = (milliseconds: now, frames: given)
        for ask in asks where ask.milliseconds != now {
            let reset = try OpenAL.callALC(raw, "alcResetDeviceSOFT", on: "the device's periods") {
                PulseLatency.asking(ask.milliseconds) { alcResetDeviceSOFT(raw, list) }
            }
            guard reset == ALC_TRUE else { throw fail(.alcInvalidDevice, "OpenAL Soft could not reset the device for whole periods") }
            let frames = period(raw)
            if let frames, periodHoldsReverb(frames) {
                if origin == .process {
                    Log.warn("PULSE_LATENCY_MSEC=\(first) (the process's own) gave periods of \(given) frames, which OpenAL Soft 1.19.1's reverb hangs in: \(ask.milliseconds) ms asked in its place (\(frames) frames)")
                }
                return (ask.mode, request(ask.milliseconds, frames))
            }
            last = (ask.milliseconds, frames ?? last.frames)
        }
        return (origin == .mode ? .safe : mode, request(last.milliseconds, last.frames))
    }

    /// The device's frequency (`ALC_FREQUENCY`). Under the gateway's lock.
    private static func frequency(_ raw: OpaquePointer?) -> ALCint {
        var frequency: ALCint = 0
        alcGetIntegerv(raw, ALC_FREQUENCY, 1, &frequency)
        return frequency
    }

    /// The device's period in frames: its frequency over `ALC_REFRESH` (exact below the square
    /// root of the frequency, 210 frames at 44.1 kHz, where ``periodHoldsReverb(_:)`` looks).
    /// Under the gateway's lock.
    private static func period(_ raw: OpaquePointer?) -> Int? {
        var refresh: ALCint = 0
        alcGetIntegerv(raw, ALC_REFRESH, 1, &refresh)
        return refresh > 0 ? Int(frequency(raw) / refresh) : nil
    }

    /// The mixer's period now, in frames of the output: its frequency over `ALC_REFRESH`, read
    /// now (a reset, or the server, changes it); nil once the device is closed, or on a
    /// loopback device.
    ///
    /// With a latency mode, a period under 128 frames is a multiple of 4: OpenAL Soft 1.19.1's
    /// reverb hangs or crashes in other short periods (its cross-fade steps are rounded down
    /// to 4 frames, and one becomes 0). When the server gives such periods, the context asks
    /// again with the milliseconds nearest the mode's, then with the safer modes', and
    /// ``latencyMode`` says which it holds.
    ///
    /// While a device reset waits on the sound server (`DeviceRoundTrip`), the period read
    /// last: OpenAL Soft 1.23 answers under its device's lock, which the reset holds.
    public var periodFrames: Int? {
        let raw = device.handle.raw
        // A loopback device has no period (OpenAL Soft 1.23 takes the question as an error).
        guard device.loopbackFormat == nil else { return nil }
        return OpenAL.withDevice { _ -> Int? in
            guard !handle.isClosed else { return nil }
            guard let read = DeviceRoundTrip.unlessRunning(on: raw, { Self.period(raw) }) else {
                let last = lastPeriodFrames.load(ordering: .relaxed)
                return last > 0 ? last : nil
            }
            lastPeriodFrames.store(read ?? 0, ordering: .relaxed)
            return read
        }
    }
}
