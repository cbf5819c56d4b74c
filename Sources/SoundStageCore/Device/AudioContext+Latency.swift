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
    public func switchLatency(to mode: LatencyMode) throws {
        var asked = attributes
        asked.latency = mode
        try resetDevice(asking: asked, member: "switchLatency(to:)")
    }

    /// Resets the device with `asked` (`alcResetDeviceSOFT`), which it keeps as its attributes.
    func resetDevice(asking asked: ContextAttributes, member: String) throws {
        // A lost device cannot be reset: OpenAL Soft 1.19.1 refuses it with an ALC error.
        guard device.isConnected else {
            throw failure(.invalidState, member, "\(device) is lost (disconnected); ask again once the output is back")
        }
        let list = try Self.attributeList(asked, device: device) { code, reason in failure(code, member, reason) }
        let raw = device.handle.raw
        let reset = try OpenAL.withDevice { _ in
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            return try OpenAL.callALC(raw, Self.operationName(member), on: description) {
                PulseLatency.asking(asked.latency?.requestedMilliseconds) { alcResetDeviceSOFT(raw, list) }
            }
        }
        guard reset == ALC_TRUE else { throw failure(.alcInvalidDevice, member, "OpenAL Soft could not reset \(device)") }
        requestedAttributes.withLock { $0 = asked }
    }
}

extension AudioContext {
    /// The mixer's period now, in frames of the output: its frequency over `ALC_REFRESH`, read
    /// now (a reset, or the server, changes it); nil once the device is closed.
    public var periodFrames: Int? {
        let raw = device.handle.raw
        return OpenAL.withDevice { _ -> Int? in
            guard !handle.isClosed else { return nil }
            var frequency: ALCint = 0, refresh: ALCint = 0
            alcGetIntegerv(raw, ALC_FREQUENCY, 1, &frequency)
            alcGetIntegerv(raw, ALC_REFRESH, 1, &refresh)
            return refresh > 0 ? Int(frequency / refresh) : nil
        }
    }
}
