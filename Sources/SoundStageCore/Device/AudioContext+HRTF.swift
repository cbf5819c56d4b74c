import COpenAL

extension AudioContext {
    /// The attributes the context was made with, with the HRTF request it switched to since.
    public var attributes: ContextAttributes { requestedAttributes.withLock { $0 } }

    /// Switches HRTF on or off, or to another data set by name (``AudioDevice/availableHRTFs``),
    /// while everything plays: OpenAL Soft resets its device (`alcResetDeviceSOFT`) and its
    /// sources go on where they were. Read what came of it in ``hrtfStatus`` and ``hrtfName``
    /// (on a non-stereo output HRTF stays off, `unsupportedFormat`; OpenAL Soft may use a data
    /// set made for the output's rate instead of the one named: measured, default-44100 asked
    /// for on a 48 kHz device gives default-48000).
    ///
    /// The device is shared: every context on it hears the change.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without
    ///   `ALC_SOFT_HRTF`, ``SoundStageError/Code-swift.struct/invalidArgument`` for an HRTF name
    ///   the device does not have (the message lists those it has),
    ///   ``SoundStageError/Code-swift.struct/invalidState`` while the device is lost.
    public func switchHRTF(_ request: HRTFRequest, named name: String? = nil) throws {
        let member = "switchHRTF(_:named:)"
        guard device.isExtensionPresent("ALC_SOFT_HRTF") else {
            throw failure(.extensionMissing, member, "switching HRTF needs ALC_SOFT_HRTF, which \(device) lacks")
        }
        // A lost device cannot be reset: OpenAL Soft 1.19.1 refuses it with an ALC error.
        guard device.isConnected else {
            throw failure(.invalidState, member, "\(device) is lost (disconnected); switch HRTF once the output is back")
        }
        var asked = attributes
        asked.hrtf = request
        asked.hrtfName = name
        let list = try Self.attributeList(asked, device: device) { code, reason in failure(code, member, reason) }
        let raw = device.handle.raw
        let reset = try OpenAL.withDevice { _ in
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            return try OpenAL.callALC(raw, Self.operationName(member), on: description) { alcResetDeviceSOFT(raw, list) }
        }
        guard reset == ALC_TRUE else { throw failure(.alcInvalidDevice, member, "OpenAL Soft could not reset \(device)") }
        requestedAttributes.withLock { $0 = asked }
    }
}
