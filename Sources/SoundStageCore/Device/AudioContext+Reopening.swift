import COpenAL

extension AudioContext {
    /// Whether the context's device can move its output in place (`ALC_SOFT_reopen_device`,
    /// OpenAL Soft 1.22 and later): sources, buffers and effects stay where they are.
    package var canReopenDevice: Bool { device.isExtensionPresent("ALC_SOFT_reopen_device") }

    /// Moves the device's output to the device named `name` (nil: the default) in place with
    /// `alcReopenDeviceSOFT`, asking for the context's attributes again; returns the name of
    /// the output it plays to now. OpenAL Soft stops mixing, opens the new output and starts
    /// again: what the old output had not played yet is not heard.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without the
    ///   extension, ``SoundStageError/Code-swift.struct/alcInvalidDevice`` when OpenAL Soft
    ///   could not open the new output (the device then plays on where it was).
    package func reopenDevice(on name: String?) throws -> String {
        let member = "reopenDevice(on:)"
        guard canReopenDevice else {
            throw failure(.extensionMissing, member, "moving an output in place needs ALC_SOFT_reopen_device, which \(device) lacks")
        }
        let list = try Self.attributeList(attributes, device: device) { code, reason in failure(code, member, reason) }
        let raw = device.handle.raw
        // A round trip to the server, made without the gateway's lock where the caller holds
        // none (`DeviceRoundTrip`).
        return try DeviceRoundTrip.run(on: raw) {
            guard !handle.isClosed else { throw failure(.deviceClosed, member, "its device was closed") }
            guard let address = alcGetProcAddress(raw, "alcReopenDeviceSOFT") else {
                throw failure(.extensionMissing, member, "alcReopenDeviceSOFT is not exported by this OpenAL")
            }
            typealias Reopen = @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?, UnsafePointer<ALCint>?) -> ALCboolean
            let reopen = unsafeBitCast(address, to: Reopen.self)
            let milliseconds = Self.milliseconds(for: attributes.latency, after: serverLatencyRequest)
            // Resetting until it is counted, the resets for whole periods with it.
            return try resetting {
                let done = try OpenAL.callALC(raw, Self.operationName(member), on: description) { PulseLatency.asking(milliseconds) { reopen(raw, name, list) } }
                guard done == ALC_TRUE else { throw failure(.alcInvalidDevice, member, "OpenAL Soft could not reopen \(device) on \(name ?? "the default output")") }
                let (mode, request) = try Self.keepPeriodsWhole(device, mode: attributes.latency, asked: milliseconds, list: list) { code, reason in failure(code, member, reason) }
                if mode != attributes.latency { requestedAttributes.withLock { $0.latency = mode } }
                latencyRequest.withLock { $0 = request }
                resetCount.add(1, ordering: .relaxed)
                return AudioDevice.outputName(raw) ?? device.name
            }
        }
    }
}
