import COpenAL

extension AudioContext {
    /// The latency mode its device's stream was asked for (``ContextAttributes/latency``); nil:
    /// none, OpenAL Soft's own periods (about ``LatencyMode/balanced``).
    public var latencyMode: LatencyMode? { attributes.latency }

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
        try resetDevice(member: member) { $0.latency = mode }
    }

    /// How many times the device was reset or reopened in place since the context was made: its
    /// stream was made again (its clock may stand still a while).
    public var resets: Int { resetCount.load(ordering: .relaxed) }

    /// Resets the device (`alcResetDeviceSOFT`) with its attributes as `change` leaves them,
    /// which it keeps: read, reset and kept under the gateway's lock, so two changes at once
    /// (an HRTF switch, a latency step) do not undo each other.
    func resetDevice(member: String, _ change: (inout ContextAttributes) -> Void) throws {
        // A lost device cannot be reset: OpenAL Soft 1.19.1 refuses it with an ALC error.
        guard device.isConnected else {
            throw failure(.invalidState, member, "\(device) is lost (disconnected); ask again once the output is back")
        }
        let raw = device.handle.raw
        try OpenAL.withDevice { _ in
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            var asked = attributes
            change(&asked)
            var list = try Self.attributeList(asked, device: device) { code, reason in failure(code, member, reason) }
            // OpenAL Soft 1.19.1 resets nothing for an empty list on a running device: the
            // frequency it has is asked for again.
            if list.count <= 1 { list = [ALC_FREQUENCY, ALCint(frequency), 0] }
            let reset = try OpenAL.callALC(raw, Self.operationName(member), on: description) {
                PulseLatency.asking(asked.latency?.requestedMilliseconds) { alcResetDeviceSOFT(raw, list) }
            }
            guard reset == ALC_TRUE else { throw failure(.alcInvalidDevice, member, "OpenAL Soft could not reset \(device)") }
            requestedAttributes.withLock { $0 = asked }
            resetCount.add(1, ordering: .relaxed)
        }
    }
}

extension AudioContext {
    /// The mixer's period now, in frames of the output: its frequency over `ALC_REFRESH`, read
    /// now (a reset, or the server, changes it); nil once the device is closed, or on a
    /// loopback device.
    public var periodFrames: Int? {
        let raw = device.handle.raw
        // A loopback device has no period (OpenAL Soft 1.23 takes the question as an error).
        guard device.loopbackFormat == nil else { return nil }
        return OpenAL.withDevice { _ -> Int? in
            guard !handle.isClosed else { return nil }
            var frequency: ALCint = 0, refresh: ALCint = 0
            alcGetIntegerv(raw, ALC_FREQUENCY, 1, &frequency)
            alcGetIntegerv(raw, ALC_REFRESH, 1, &refresh)
            return refresh > 0 ? Int(frequency / refresh) : nil
        }
    }
}
