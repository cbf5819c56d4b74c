import COpenAL
import Synchronization

/// An OpenAL device: a real output (through a sound server or a sound card) or a loopback
/// device that renders into memory, faster than real time, for offline renders and tests.
///
/// A device is closed when the last reference to it goes away (contexts keep their device
/// alive), or at once by ``close()``, which destroys its contexts with it.
public final class AudioDevice: Sendable, CustomStringConvertible {
    /// What kind of device this is.
    public enum Kind: Sendable, Hashable {
        /// A real output device.
        case output
        /// A loopback device rendering in the given format (`ALC_SOFT_loopback`).
        case loopback(RenderFormat)
    }

    package let handle: CHandle
    /// The device's name as OpenAL reports it.
    public let name: String
    /// Output or loopback.
    public let kind: Kind
    /// The ALC extensions this device supports.
    public let extensions: [String]
    private let extensionSet: Set<String>
    /// The last clock and latency read (``clockNanoseconds``, ``latencyNanoseconds``): what a
    /// read gives while a round trip runs (`DeviceRoundTrip`).
    private let lastClock = Atomic<Int64>(0), lastLatency = Atomic<Int64>(0)
    /// Whether the device was connected when last asked (``isConnected``).
    private let lastConnected = Atomic<Bool>(true)
    /// Its integers, HRTF sets and HRTF name as last read (`readUnlessRoundTrip(_:keep:last:)`).
    let lastRead = LockedBox(LastDeviceRead())
    /// Whether it is closed, and the contexts to destroy first when it is.
    let life: DeviceLife
    /// How a loopback device's renders are cut into blocks OpenAL Soft's reverb can mix.
    let renderBlocks = Mutex(LoopbackRenderBlocks())

    /// `life` is made where the device is opened, under the same hold of the lock, so the
    /// exit handler never misses a device.
    private init(handle: CHandle, kind: Kind, life: DeviceLife) {
        self.handle = handle
        self.kind = kind
        self.life = life
        let (name, extensions) = OpenAL.withDevice { _ -> (String, [String]) in
            let name = Self.outputName(handle.raw) ?? "unnamed"
            let ext = OpenAL.string(alcGetString(handle.raw, ALC_EXTENSIONS)) ?? ""
            return (name, ext.split(separator: " ").map(String.init))
        }
        self.name = name
        self.extensions = extensions
        self.extensionSet = Set(extensions)
    }

    /// The name OpenAL gives the output an open device plays on (its full name where
    /// `ALC_ENUMERATE_ALL_EXT` gives one); call with the gateway held.
    static func outputName(_ raw: OpaquePointer?) -> String? {
        OpenAL.string(alcGetString(raw, ALC_ALL_DEVICES_SPECIFIER)) ?? OpenAL.string(alcGetString(raw, ALC_DEVICE_SPECIFIER))
    }

    deinit {
        let life = self.life, description = self.description
        OpenAL.withDevice { held in life.close(held, Self.operationName("deinit"), object: description) }
    }

    /// Whether the device was closed (``close()``, ``AudioEngine/shutdown()``).
    public var isClosed: Bool { OpenAL.withDevice { _ in life.isClosed } }

    /// Closes the device now, whoever still holds it: its contexts are destroyed first (the
    /// writes left unchecked in them checked), every source, buffer and effect in them goes
    /// with them, and the sound server's stream is closed. What is left of them refuses
    /// calls with ``SoundStageError/Code-swift.struct/deviceClosed``; releasing them is safe.
    /// Closing twice does nothing. ``AudioEngine/shutdown()`` closes its device this way.
    public func close() {
        OpenAL.withDevice { held in life.close(held, Self.operationName("close()"), object: description) }
    }

    /// The error a call on a closed device gets.
    func closedError(_ member: String) -> SoundStageError {
        failure(.deviceClosed, member, "the device was closed (AudioEngine.shutdown() or close()); open another")
    }

    /// For example `device 'ALSA Default'` or `loopback device (48000 Hz stereo float32)`.
    public var description: String {
        switch kind {
        case .output: return "device '\(name)'"
        case .loopback(let format): return "loopback device (\(format))"
        }
    }

    /// The render format of a loopback device, nil for a real output.
    public var loopbackFormat: RenderFormat? {
        if case .loopback(let format) = kind { return format }
        return nil
    }

    // MARK: - Enumeration

    /// Whether OpenAL has the ALC extension `name` without a device (e.g. `ALC_SOFT_loopback`).
    public static func isExtensionPresent(_ name: String) -> Bool {
        OpenAL.withDevice { _ in alcIsExtensionPresent(nil, name) != ALC_FALSE }
    }

    /// The ALC extensions available without a device.
    public static var extensions: [String] {
        OpenAL.withDevice { _ in
            (OpenAL.string(alcGetString(nil, ALC_EXTENSIONS)) ?? "").split(separator: " ").map(String.init)
        }
    }

    /// How SoundStage configured OpenAL Soft for this process, e.g. `streams kept on their
    /// device ([pulse] allow-moves = false, in ALSOFT_CONF=/proc/self/fd/3)` (README: a sink
    /// that goes away is a lost device on every OpenAL Soft release).
    package static var configuration: String {
        OpenAL.withDevice { _ in OpenAL.configuration.description }
    }

    private static var enumerateAll: Bool {
        alcIsExtensionPresent(nil, "ALC_ENUMERATE_ALL_EXT") != ALC_FALSE
    }

    /// The names of the output devices OpenAL can see (`ALC_ALL_DEVICES_SPECIFIER` where
    /// `ALC_ENUMERATE_ALL_EXT` is present, `ALC_DEVICE_SPECIFIER` otherwise).
    public static var outputDevices: [String] {
        OpenAL.withDevice { _ in
            OpenAL.stringList(alcGetString(nil, enumerateAll ? ALC_ALL_DEVICES_SPECIFIER : ALC_DEVICE_SPECIFIER))
        }
    }

    /// The names of the capture (input) devices.
    public static var captureDevices: [String] {
        OpenAL.withDevice { _ in OpenAL.stringList(alcGetString(nil, ALC_CAPTURE_DEVICE_SPECIFIER)) }
    }

    /// The default output device's name, nil when there is none.
    public static var defaultOutputDevice: String? {
        OpenAL.withDevice { _ in
            let s = OpenAL.string(alcGetString(
                nil, enumerateAll ? ALC_DEFAULT_ALL_DEVICES_SPECIFIER : ALC_DEFAULT_DEVICE_SPECIFIER))
            return (s?.isEmpty ?? true) ? nil : s
        }
    }

    /// The default capture device's name, nil when there is none.
    public static var defaultCaptureDevice: String? {
        OpenAL.withDevice { _ in
            let s = OpenAL.string(alcGetString(nil, ALC_CAPTURE_DEFAULT_DEVICE_SPECIFIER))
            return (s?.isEmpty ?? true) ? nil : s
        }
    }

    // MARK: - Opening

    /// What to do when no output device opens, for error messages.
    static let noDeviceAdvice = "start a sound server (PulseAudio or PipeWire), choose OpenAL Soft's backend with ALSOFT_DRIVERS (ALSOFT_DRIVERS=null gives a silent device), or render offline with AudioDevice.openLoopback(format:)"

    /// Opens the default output device, or the one named `name` (one of ``outputDevices``).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/deviceNotFound`` for a name that is not
    ///   listed, ``SoundStageError/Code-swift.struct/noOutputDevice`` when no device opens; the
    ///   error names the ways out. SoundStage never substitutes a null or offline device on
    ///   its own: ask for ``openLoopback(format:)`` when that is what you want.
    public static func openOutput(named name: String? = nil) throws -> AudioDevice {
        let object = name.map { "device '\($0)'" } ?? "the default output device"
        let available = outputDevices
        if let name, !available.contains(name) {
            throw failure(.deviceNotFound, "openOutput(named:)", object: object,
                          "no such output device; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))")
        }
        if available.isEmpty {
            throw failure(.noOutputDevice, "openOutput(named:)", object: object, "OpenAL lists no output device: \(noDeviceAdvice)")
        }
        let opened: DeviceLife? = OpenAL.withDevice { held in
            guard let device = alcOpenDevice(name) else {
                _ = alcGetError(nil)
                return nil
            }
            return DeviceLife(held, raw: device, isCapture: false)
        }
        guard let opened else {
            throw failure(.noOutputDevice, "openOutput(named:)", object: object,
                          "alcOpenDevice failed (no sound server or sound card answered): \(noDeviceAdvice)")
        }
        return AudioDevice(handle: CHandle(raw: opened.raw), kind: .output, life: opened)
    }

    /// Opens a loopback device that renders `format` into memory when asked
    /// (``render(frames:)``), as fast as the CPU allows. Needs `ALC_SOFT_loopback`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/extensionMissing`` without the extension,
    ///   ``SoundStageError/Code-swift.struct/unsupportedFormat`` for a format OpenAL Soft
    ///   cannot render (the sample rate must be 8000...192000 Hz).
    public static func openLoopback(format: RenderFormat = RenderFormat()) throws -> AudioDevice {
        let object = "loopback device (\(format))"
        guard isExtensionPresent("ALC_SOFT_loopback") else {
            throw failure(.extensionMissing, "openLoopback(format:)", object: object,
                          "this OpenAL has no ALC_SOFT_loopback; offline rendering needs OpenAL Soft")
        }
        guard Limits.outputSampleRates.contains(format.sampleRate) else {
            throw failure(.unsupportedFormat, "openLoopback(format:)", object: object,
                          "sample rate must be in \(Limits.outputSampleRates) Hz, got \(format.sampleRate)")
        }
        guard let channels = format.channels.alcValue else {
            throw failure(.unsupportedFormat, "openLoopback(format:)", object: object,
                          "a device cannot output the \(format.channels.rawValue) layout; use one of \(ChannelLayout.outputLayouts.map(\.rawValue).joined(separator: ", "))")
        }
        let result: Result<DeviceLife, SoundStageError> = OpenAL.withDevice { held in
            guard let raw = alcLoopbackOpenDeviceSOFT(nil) else {
                _ = alcGetError(nil)
                return .failure(failure(.noOutputDevice, "openLoopback(format:)", object: object,
                                        "alcLoopbackOpenDeviceSOFT: OpenAL Soft could not open a loopback device"))
            }
            let ok = alcIsRenderFormatSupportedSOFT(
                raw, ALCsizei(format.sampleRate), channels, format.sampleType.alcValue)
            if ok == ALC_FALSE {
                _ = alcCloseDevice(raw)
                return .failure(failure(.unsupportedFormat, "openLoopback(format:)", object: object,
                                        "OpenAL Soft cannot render this format (alcIsRenderFormatSupportedSOFT)"))
            }
            return .success(DeviceLife(held, raw: raw, isCapture: false))
        }
        let opened = try result.get()
        return AudioDevice(handle: CHandle(raw: opened.raw), kind: .loopback(format), life: opened)
    }

    // MARK: - Queries

    /// Whether this device has the ALC extension `name`.
    public func isExtensionPresent(_ name: String) -> Bool { extensionSet.contains(name) }

    /// The HRTF data sets this device can use (`ALC_SOFT_HRTF`), by name. Empty without the
    /// extension.
    public var availableHRTFs: [String] {
        guard isExtensionPresent("ALC_SOFT_HRTF") else { return [] }
        return OpenAL.withDevice { _ in
            guard !isClosed else { return [] }
            // While a reset waits on the server, the sets read last (OpenAL Soft lists them
            // under its device's lock, which the reset holds).
            return readUnlessRoundTrip({
                var count: ALCint = 0
                alcGetIntegerv(handle.raw, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
                return (0..<max(0, count)).compactMap { OpenAL.string(alcGetStringiSOFT(handle.raw, ALC_HRTF_SPECIFIER_SOFT, $0)) }
            }, keep: { $0.hrtfs = $1 }, last: \.hrtfs)
        }
    }

    /// Whether the device is still connected (`ALC_EXT_disconnect`); always true without the
    /// extension. A lost output device (unplugged, sound server gone) reads false, and so
    /// does a closed one.
    public var isConnected: Bool {
        guard isExtensionPresent("ALC_EXT_disconnect") else { return !isClosed }
        return OpenAL.withDevice { _ in
            guard !isClosed else { return false }
            // While a reset waits on the server, what was read last (OpenAL Soft 1.23 answers
            // under its device's lock, which the reset holds: DeviceRoundTrip).
            guard let connected = DeviceRoundTrip.unlessRunning(on: handle.raw, { () -> Bool in
                var value: ALCint = 1
                alcGetIntegerv(handle.raw, ALC_CONNECTED, 1, &value)
                return value != 0
            }) else { return lastConnected.load(ordering: .relaxed) }
            lastConnected.store(connected, ordering: .relaxed)
            return connected
        }
    }

    /// The device's clock in nanoseconds: how much audio it has mixed since it opened
    /// (`ALC_DEVICE_CLOCK_SOFT`), so it reads the time at which the next mix begins; nil
    /// without `ALC_SOFT_device_clock` or once the device is closed.
    public var clockNanoseconds: Int64? { deviceClockValue(ALC_DEVICE_CLOCK_SOFT) }

    /// How far the device's output runs behind its mixer, in nanoseconds: what it has mixed
    /// and not yet played, the sound server's buffer included (`ALC_DEVICE_LATENCY_SOFT`);
    /// nil without `ALC_SOFT_device_clock` or once closed. PulseAudio reports none for a stream's first few
    /// hundred milliseconds (OpenAL Soft then reads about 1 ms).
    public var latencyNanoseconds: Int64? { deviceClockValue(ALC_DEVICE_LATENCY_SOFT) }

    /// One 64-bit value of `ALC_SOFT_device_clock`; nil without the extension.
    ///
    /// While a round trip to the sound server runs on this device (a reset, `DeviceRoundTrip`), the
    /// last value read: OpenAL Soft reads the clock under its device's lock, which the reset
    /// holds until the server answers, and the engine's service thread reads it under the
    /// gateway's lock every tick (measured: a server stopped 5 s in an HRTF switch held the
    /// service thread here, and every game call behind it, 5.0 s). The clock stands still
    /// through a reset anyway.
    private func deviceClockValue(_ param: Int32) -> Int64? {
        guard isExtensionPresent("ALC_SOFT_device_clock") else { return nil }
        return OpenAL.withDevice { _ -> Int64? in
            guard !isClosed else { return nil }
            let clock = param == ALC_DEVICE_CLOCK_SOFT
            let read = DeviceRoundTrip.unlessRunning(on: handle.raw) { () -> Int64 in
                var value: ALCint64SOFT = 0
                alcGetInteger64vSOFT(handle.raw, param, 1, &value)
                return value
            }
            if let read {
                if clock { lastClock.store(read, ordering: .relaxed) } else { lastLatency.store(read, ordering: .relaxed) }
                return read
            }
            return clock ? lastClock.load(ordering: .relaxed) : lastLatency.load(ordering: .relaxed)
        }
    }

    /// Reads one ALC integer of this device; 0 once it is closed. While a reset waits on the
    /// server, the value read last (0 if none was): OpenAL Soft 1.23 answers every integer
    /// under its device's lock, which the reset holds (`LastDeviceRead`).
    func integer(_ held: borrowing LockHeld, _ param: Int32) -> Int32 {
        guard !isClosed else { return 0 }
        return readUnlessRoundTrip({
            var value: ALCint = 0
            alcGetIntegerv(handle.raw, param, 1, &value)
            return value
        }, keep: { $0.integers[param] = $1 }, last: { $0.integers[param] ?? 0 })
    }
}

extension AudioDevice: ErrorNaming {
    package var errorObject: String { description }
}
