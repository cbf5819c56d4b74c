import COpenAL

extension AudioDevice {
    /// Whether the device can stop and restart its mixing (`ALC_SOFT_pause_device`).
    public var canPause: Bool { isExtensionPresent("ALC_SOFT_pause_device") }

    /// Stops the device's mixing (`alcDevicePauseSOFT`): nothing more is rendered or sent to
    /// the sound server until ``resume()``, and the sources keep their state and offsets.
    /// `alcSuspendContext` alone does not do this in OpenAL Soft; it only defers updates.
    /// Pausing a paused device does nothing.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without
    ///   `ALC_SOFT_pause_device`, ``SoundStageError/Code-swift.struct/invalidState`` for a
    ///   loopback device, which mixes only when asked to render.
    public func pause() throws { try pauseOrResume("pause()", alcDevicePauseSOFT) }

    /// Restarts mixing after ``pause()``. Resuming a device that is not paused does nothing.
    ///
    /// - Throws: as ``pause()``.
    public func resume() throws { try pauseOrResume("resume()", alcDeviceResumeSOFT) }

    private func pauseOrResume(_ member: String, _ call: (OpaquePointer?) -> Void) throws {
        guard canPause else {
            throw failure(.extensionMissing, member, "pausing a device needs ALC_SOFT_pause_device, which this OpenAL lacks")
        }
        guard loopbackFormat == nil else {
            throw failure(.invalidState, member, "a loopback device mixes only when asked to render; it has nothing to pause")
        }
        let raw = handle.raw
        try OpenAL.withDevice { _ in
            guard !isClosed else { throw closedError(member) }
            try OpenAL.callALC(raw, Self.operationName(member), on: description) { call(raw) }
        }
    }
}

extension AudioContext {
    /// Defers the context's updates (`alcSuspendContext`) until ``process()``; it does not
    /// stop the mixer (see ``AudioDevice/pause()``).
    public func suspend() throws { try suspendOrProcess("suspend()", alcSuspendContext) }

    /// Applies the updates deferred since ``suspend()`` (`alcProcessContext`).
    public func process() throws { try suspendOrProcess("process()", alcProcessContext) }

    private func suspendOrProcess(_ member: String, _ call: (OpaquePointer?) -> Void) throws {
        let raw = handle.raw, device = self.device.handle.raw
        try OpenAL.withDevice { _ in
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            try OpenAL.callALC(device, Self.operationName(member), on: description) { call(raw) }
        }
    }
}
