import COpenAL
import Synchronization

/// An OpenAL context: one listener and its sources, mixed into a device.
///
/// The context keeps its device alive; sources, buffers and the listener keep their context
/// alive. It is destroyed when the last of them goes away.
public final class AudioContext: Sendable, CustomStringConvertible {
    private static let nextID = Atomic<Int>(1)

    /// The device this context mixes into.
    public let device: AudioDevice
    /// The gateway's handle: the C pointer and the writes not yet checked.
    package let handle: ContextHandle
    /// A small number naming the context in messages.
    public let id: Int
    /// How many sources this context may have at once: the mono plus stereo source counts
    /// asked for in ``ContextAttributes``, or what OpenAL Soft granted if that is fewer (it
    /// grants at least 256 in all). Making more throws
    /// ``SoundStageError/Code-swift.struct/sourceLimitReached``.
    public let sourceLimit: Int
    /// The attributes OpenAL Soft put in effect (frequency, refresh, source counts, HRTF, ...),
    /// keyed by ALC parameter.
    let attributesInEffect: [Int32: Int32]
    /// The AL extensions this context supports.
    public let extensions: [String]
    private let extensionSet: Set<String>
    let liveSources = Atomic<Int>(0)
    /// Resets and reopenings in place (``resets``).
    let resetCount = Atomic<Int>(0)
    /// Resets and reopenings in place running now (``isResetting``).
    let resetsRunning = Atomic<Int>(0)
    /// The period read last (``periodFrames``), 0 before the first read.
    let lastPeriodFrames = Atomic<Int>(0)
    /// What the context was made with (and the HRTF since switched to).
    let requestedAttributes: LockedBox<ContextAttributes>
    /// What the device's stream last asked of the server (``serverLatencyRequest``).
    let latencyRequest: LockedBox<ServerLatencyRequest?>
    /// Auxiliary effect slots alive in the context (``effectSlotLimit`` at most).
    let liveEffectSlots = Atomic<Int>(0)
    /// Slot names released by their ``EffectSlot``s, emptied and kept for the next slots:
    /// OpenAL Soft 1.19.1 crashes in `alcResetDeviceSOFT` (an HRTF switch) after a slot was
    /// deleted and before the mixer ran again, which on a loopback device is the next render.
    /// They go with the context.
    let spareEffectSlots = LockedBox<[ALuint]>([])
    /// The auxiliary effect slots a context may have: OpenAL Soft 1.19 makes 64 (its
    /// `slots` setting), and asking for more is an OpenAL error.
    public let effectSlotLimit = 64
    /// The OpenAL version string, e.g. `1.1 ALSOFT 1.19.1`.
    public let version: String

    /// Creates a context on `device`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for out-of-range
    ///   attributes or an unknown HRTF name; ``SoundStageError/Code-swift.struct/extensionMissing``
    ///   when HRTF or the limiter is asked for without its extension.
    public init(device: AudioDevice, attributes: ContextAttributes = ContextAttributes()) throws {
        let asked = LockedBox(attributes)
        requestedAttributes = asked
        let serverRequest = LockedBox<ServerLatencyRequest?>(nil)
        latencyRequest = serverRequest
        let id = AudioContext.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let object = "new context on \(device)"
        func fail(_ code: SoundStageError.Code, _ reason: String) -> SoundStageError {
            Self.failure(code, "init", object: object, reason)
        }
        let list = try Self.attributeList(attributes, device: device, fail: fail)

        let raw = device.handle.raw
        // Made and noted on its device under one hold of the lock, so a close between the
        // two cannot miss it.
        let created: (ContextHandle, [Int32: Int32]) = try OpenAL.withDevice { held in
            guard !device.isClosed else { throw fail(.deviceClosed, "\(device) was closed; open another") }
            let milliseconds = Self.milliseconds(for: attributes.latency, after: nil)
            // Inside a round trip (DeviceRoundTrip), as every call that asks the server for a
            // latency through the process's environment: a reset on another thread (outside
            // the gateway's lock) sets the same variable, and the two would each put back the
            // other's value before the stream read it.
            let context = try DeviceRoundTrip.run(on: raw) { () throws -> OpaquePointer in
                let made = try OpenAL.callALC(raw, Self.operationName("init"), on: object) { PulseLatency.asking(milliseconds) { alcCreateContext(raw, list) } }
                guard let made else {
                    throw fail(.alcInvalidValue, "OpenAL Soft could not create the context")
                }
                do {
                    let (mode, request) = try Self.keepPeriodsWhole(device, mode: attributes.latency, asked: milliseconds, list: list, fail: fail)
                    if mode != attributes.latency { asked.withLock { $0.latency = mode } }
                    serverRequest.withLock { $0 = request }
                } catch {
                    alcDestroyContext(made)
                    throw error
                }
                return made
            }
            var size: ALCint = 0
            alcGetIntegerv(raw, ALC_ATTRIBUTES_SIZE, 1, &size)
            var values = [ALCint](repeating: 0, count: Int(max(size, 0)) + 1)
            if size > 0 { alcGetIntegerv(raw, ALC_ALL_ATTRIBUTES, size, &values) }
            var effect: [Int32: Int32] = [:]
            var i = 0
            while i + 1 < values.count, values[i] != 0 {
                effect[values[i]] = values[i + 1]
                i += 2
            }
            let handle = ContextHandle(context)
            device.life.adopt(held, handle)
            return (handle, effect)
        }
        let handle = created.0
        // Through the gateway, so that a context made inside another's call (an update
        // batch, say) leaves that call's context current afterwards.
        let strings: (String, String)
        do {
            strings = try OpenAL.withContext(handle) { scope in
                try scope.call(Self.operationName("init"), on: object) {
                    (OpenAL.string(alGetString(AL_EXTENSIONS)) ?? "", OpenAL.string(alGetString(AL_VERSION)) ?? "")
                }
            }
        } catch {
            OpenAL.lock.withLock { held in
                if !handle.isClosed {
                    device.life.release(held, handle)
                    OpenAL.releaseCurrent(held, ifItIs: handle.raw)
                    alcDestroyContext(handle.raw)
                }
                handle.free()
            }
            throw error
        }
        self.version = strings.1
        self.release = OpenALSoftVersion(strings.1)
        self.mixerSmoothing = MixerSmoothing(release ?? .oldest)
        self.mixerStepping = MixerStepping(release ?? .oldest)
        self.device = device
        self.handle = handle
        self.id = id
        self.attributesInEffect = created.1
        // Read on every play and tick: kept, not looked up in the attributes each time.
        self.frequency = Int(created.1[ALC_FREQUENCY] ?? 0)
        self.auxiliarySends = Int(created.1[ALC_MAX_AUXILIARY_SENDS] ?? 0)
        self.extensions = strings.0.split(separator: " ").map(String.init)
        self.extensionSet = Set(extensions)
        // OpenAL Soft 1.19 grants at least 256 sources in all whatever is asked for; the
        // smaller count the caller asked for is the limit SoundStage enforces.
        let grantedMono = Int(created.1[ALC_MONO_SOURCES] ?? 0)
        let grantedStereo = Int(created.1[ALC_STEREO_SOURCES] ?? 0)
        let requested = (attributes.monoSources ?? grantedMono) + (attributes.stereoSources ?? grantedStereo)
        self.sourceLimit = min(grantedMono + grantedStereo, requested)
    }

    deinit {
        let handle = self.handle, device = self.device, id = self.id
        OpenAL.lock.withLock { held in
            // Destroyed already if its device was closed.
            if !handle.isClosed {
                device.life.release(held, handle)
                handle.destroy(held, Self.operationName("deinit"), object: "context \(id)")
            }
            handle.free()
        }
        // Its voices' memory back to the system, not kept by the allocator.
        releaseFreedHeap()
    }

    /// For example `context 3`.
    public var description: String { "context \(id)" }

    /// Checks OpenAL's error state for the property writes made in this context since the
    /// last check.
    ///
    /// Property writes are validated in Swift, then handed to OpenAL without reading
    /// `alGetError` after each (it would double their cost); the next checked call in this
    /// context, the end of an update batch and an engine's service tick check them. Call this
    /// to check at a point of your own choosing, for example once a frame.
    ///
    /// - Throws: the error OpenAL reported, naming how many writes it may come from and the
    ///   first and last of them. SoundStage validates every value first, so this is a bug
    ///   report, not something a game should expect.
    public func checkErrors() throws {
        try OpenAL.withContext(handle) { try $0.checkPending() }
    }

    /// Whether OpenAL Soft decodes WAV IMA ADPCM as the format defines. Before 1.20 it
    /// drops the first frame of every block (`DecodeIMA4Block` in 1.19.1 writes the block's
    /// header sample without advancing), so SoundStage decodes IMA ADPCM itself there.
    var decodesIMA4Correctly: Bool {
        guard let release else { return true }
        return release >= OpenALSoftVersion(major: 1, minor: 20)
    }

    /// The OpenAL Soft release behind this context (from `AL_VERSION`); nil for another
    /// implementation, whose mixer is taken to step and smooth as the oldest release does.
    package let release: OpenALSoftVersion?

    /// How this context's mixer steps a source through its sound (its fixed point depends
    /// on the OpenAL Soft release).
    package let mixerStepping: MixerStepping

    /// How this context's mixer smooths gain changes, stops and ends (see ``MixerSmoothing``).
    package let mixerSmoothing: MixerSmoothing

    /// Whether this context has the AL extension `name` (e.g. `AL_SOFT_source_spatialize`).
    public func isExtensionPresent(_ name: String) -> Bool { extensionSet.contains(name) }

    /// Whether the device has EFX (`ALC_EXT_EFX`): effects, effect slots, filters and sends.
    public var hasEFX: Bool { device.isExtensionPresent("ALC_EXT_EFX") }

    /// The auxiliary effect sends each source has in this context (granted, not asked for).
    public let auxiliarySends: Int

    /// The output sample rate in effect.
    public let frequency: Int
    /// The mixer refresh rate in effect; 0 on a loopback device, which mixes only when asked
    /// to render.
    public var refresh: Int { Int(attributesInEffect[ALC_REFRESH] ?? 0) }
    /// The mono source count OpenAL Soft granted (see ``sourceLimit`` for the one enforced).
    public var monoSources: Int { Int(attributesInEffect[ALC_MONO_SOURCES] ?? 0) }
    /// The stereo source count OpenAL Soft granted.
    public var stereoSources: Int { Int(attributesInEffect[ALC_STEREO_SOURCES] ?? 0) }
    /// The number of sources alive in this context.
    public var sourceCount: Int { liveSources.load(ordering: .relaxed) }

    /// The ALC attribute list for `attributes` on `device` (checked; zero-terminated): for a
    /// new context, and for resetting the device (``switchHRTF(_:named:)``).
    /// `availableHRTFs`: the device's (``AudioDevice/availableHRTFs``) read beforehand, for a
    /// caller that may not take the gateway's lock here (`DeviceRoundTrip`); nil: read here.
    static func attributeList(_ attributes: ContextAttributes, device: AudioDevice, availableHRTFs: [String]? = nil,
                              fail: (SoundStageError.Code, String) -> SoundStageError) throws -> [ALCint] {
        var list: [ALCint] = []
        if let format = device.loopbackFormat, let channels = format.channels.alcValue {
            if let frequency = attributes.frequency, frequency != format.sampleRate {
                throw fail(.invalidArgument, "frequency \(frequency) differs from the loopback format's \(format.sampleRate) Hz")
            }
            list += [ALC_FORMAT_CHANNELS_SOFT, channels,
                     ALC_FORMAT_TYPE_SOFT, format.sampleType.alcValue,
                     ALC_FREQUENCY, ALCint(format.sampleRate)]
        } else if let frequency = attributes.frequency {
            guard Limits.outputSampleRates.contains(frequency) else {
                throw fail(.invalidArgument, "frequency must be in \(Limits.outputSampleRates) Hz, got \(frequency)")
            }
            list += [ALC_FREQUENCY, ALCint(frequency)]
        }
        if let refresh = attributes.refresh {
            guard Limits.refreshRates.contains(refresh) else { throw fail(.invalidArgument, "refresh must be in \(Limits.refreshRates) Hz, got \(refresh)") }
            list += [ALC_REFRESH, ALCint(refresh)]
        }
        if let mono = attributes.monoSources {
            guard Limits.sourceCounts.contains(mono) else { throw fail(.invalidArgument, "monoSources must be in \(Limits.sourceCounts), got \(mono)") }
            list += [ALC_MONO_SOURCES, ALCint(mono)]
        }
        if let sends = attributes.auxiliarySends {
            guard Limits.auxiliarySends.contains(sends) else { throw fail(.invalidArgument, "auxiliarySends must be in \(Limits.auxiliarySends), got \(sends)") }
            guard device.isExtensionPresent("ALC_EXT_EFX") else { throw fail(.extensionMissing, "auxiliary sends need ALC_EXT_EFX, which this device lacks") }
            list += [ALC_MAX_AUXILIARY_SENDS, ALCint(sends)]
        }
        if let stereo = attributes.stereoSources {
            guard Limits.sourceCounts.contains(stereo) else { throw fail(.invalidArgument, "stereoSources must be in \(Limits.sourceCounts), got \(stereo)") }
            list += [ALC_STEREO_SOURCES, ALCint(stereo)]
        }
        if attributes.hrtf != .default || attributes.hrtfName != nil {
            guard device.isExtensionPresent("ALC_SOFT_HRTF") else {
                throw fail(.extensionMissing, "HRTF needs ALC_SOFT_HRTF, which this device lacks")
            }
            switch attributes.hrtf {
            case .on: list += [ALC_HRTF_SOFT, ALC_TRUE]
            case .off: list += [ALC_HRTF_SOFT, ALC_FALSE]
            case .default: list += [ALC_HRTF_SOFT, ALC_DONT_CARE_SOFT]
            }
            if let hrtfName = attributes.hrtfName {
                let available = availableHRTFs ?? device.availableHRTFs
                guard let index = available.firstIndex(of: hrtfName) else {
                    throw fail(.invalidArgument, "no HRTF named '\(hrtfName)'; available: \(available.joined(separator: ", "))")
                }
                list += [ALC_HRTF_ID_SOFT, ALCint(index)]
            }
        }
        if let limiter = attributes.outputLimiter {
            guard device.isExtensionPresent("ALC_SOFT_output_limiter") else {
                throw fail(.extensionMissing, "the output limiter needs ALC_SOFT_output_limiter, which this device lacks")
            }
            list += [ALC_OUTPUT_LIMITER_SOFT, limiter ? ALC_TRUE : ALC_FALSE]
        }
        list.append(0)
        return list
    }

    /// What OpenAL Soft did about HRTF on this context's device.
    public var hrtfStatus: HRTFStatus {
        guard device.isExtensionPresent("ALC_SOFT_HRTF") else { return .unknown }
        let status = OpenAL.withDevice { HRTFStatus(al: device.integer($0, ALC_HRTF_STATUS_SOFT)) }
        // HRTF asked for on an output SoundStage knows is not stereo: OpenAL Soft 1.19 says
        // unsupportedFormat, 1.23 only disabled. The same answer from both.
        if status == .disabled, attributes.hrtf == .on, let channels = device.loopbackFormat?.channels, channels != .stereo {
            return .unsupportedFormat
        }
        return status
    }

    /// The name of the HRTF in use, nil when HRTF is off.
    public var hrtfName: String? {
        guard hrtfStatus.isActive else { return nil }
        return OpenAL.withDevice { _ in
            guard !handle.isClosed else { return nil }
            // While a reset waits on the server, the name read last (LastDeviceRead).
            return device.readUnlessRoundTrip({ OpenAL.string(alcGetString(device.handle.raw, ALC_HRTF_SPECIFIER_SOFT)) },
                                              keep: { $0.hrtfName = $1 }, last: \.hrtfName)
        }
    }

    /// Whether the output limiter is on (nil without `ALC_SOFT_output_limiter`).
    public var outputLimiter: Bool? {
        guard device.isExtensionPresent("ALC_SOFT_output_limiter") else { return nil }
        return OpenAL.withDevice { device.integer($0, ALC_OUTPUT_LIMITER_SOFT) != 0 }
    }

    /// The resamplers sources can choose with ``Property/resampler`` (`AL_SOFT_source_resampler`),
    /// by index. Empty without the extension.
    public var resamplers: [String] {
        guard isExtensionPresent("AL_SOFT_source_resampler") else { return [] }
        return query("resamplers", default: []) {
            let count = alGetInteger(AL_NUM_RESAMPLERS_SOFT)
            return (0..<max(0, count)).map { OpenAL.string(alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT, $0)) ?? "resampler \($0)" }
        }
    }

    /// The index of the resampler new sources use.
    public var defaultResampler: Int {
        guard isExtensionPresent("AL_SOFT_source_resampler") else { return 0 }
        return query("defaultResampler", default: 0) { Int(alGetInteger(AL_DEFAULT_RESAMPLER_SOFT)) }
    }

    /// Runs a read-only query in this context as a checked call; an error (which a valid
    /// query cannot raise) is logged and `fallback` returned.
    func query<R>(_ member: String, default fallback: R, _ body: () -> R) -> R {
        do {
            return try OpenAL.withContext(handle) { scope in try scope.call(Self.operationName(member), on: description, body) }
        } catch {
            Log.report(error)
            return fallback
        }
    }
}

extension AudioContext: ErrorNaming {
    package var errorObject: String { description }
}
