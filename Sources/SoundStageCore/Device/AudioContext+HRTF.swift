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
        try resetDevice(member: member) { asked in
            asked.hrtf = request
            asked.hrtfName = name
            return true
        }
    }
}
