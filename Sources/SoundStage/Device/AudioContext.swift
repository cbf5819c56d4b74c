import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// How a context asks for HRTF (binaural rendering for headphones, `ALC_SOFT_HRTF`).
public enum HRTFRequest: Sendable, Hashable {
    /// Ask for HRTF; it is used if the output is stereo and an HRTF data set is available.
    case on
    /// Never use HRTF.
    case off
    /// Let OpenAL Soft decide (its config, or headphones detected).
    case `default`
}

/// What OpenAL Soft did about HRTF (`ALC_HRTF_STATUS_SOFT`).
public enum HRTFStatus: Sendable, Hashable {
    /// HRTF is off.
    case disabled
    /// HRTF is on.
    case enabled
    /// HRTF is off because the user's config forbids it.
    case denied
    /// HRTF is on because the user's config demands it.
    case required
    /// HRTF is on because headphones were detected.
    case headphonesDetected
    /// HRTF is off because the output is not stereo.
    case unsupportedFormat
    /// The device has no `ALC_SOFT_HRTF`, or reported a status SoundStage does not know.
    case unknown

    init(alc value: Int32) {
        switch value {
        case ALC_HRTF_DISABLED_SOFT: self = .disabled
        case ALC_HRTF_ENABLED_SOFT: self = .enabled
        case ALC_HRTF_DENIED_SOFT: self = .denied
        case ALC_HRTF_REQUIRED_SOFT: self = .required
        case ALC_HRTF_HEADPHONES_DETECTED_SOFT: self = .headphonesDetected
        case ALC_HRTF_UNSUPPORTED_FORMAT_SOFT: self = .unsupportedFormat
        default: self = .unknown
        }
    }

    /// Whether HRTF is being applied.
    public var isActive: Bool { self == .enabled || self == .required || self == .headphonesDetected }
}

/// What to ask of a new context. Every field is optional: nil leaves OpenAL Soft's default.
public struct ContextAttributes: Sendable, Hashable {
    /// Output sample rate in Hz (`ALC_FREQUENCY`). On a loopback device it is the render
    /// format's rate and may be left nil.
    public var frequency: Int?
    /// Mixer updates per second (`ALC_REFRESH`).
    public var refresh: Int?
    /// How many mono sources the context may have at once (`ALC_MONO_SOURCES`).
    public var monoSources: Int?
    /// How many stereo sources (`ALC_STEREO_SOURCES`).
    public var stereoSources: Int?
    /// HRTF on, off, or OpenAL Soft's default.
    public var hrtf: HRTFRequest
    /// A specific HRTF data set, one of ``AudioDevice/availableHRTFs``.
    public var hrtfName: String?
    /// Whether to run the output limiter (`ALC_OUTPUT_LIMITER_SOFT`), nil for the default.
    public var outputLimiter: Bool?

    /// Creates a set of attributes.
    public init(
        frequency: Int? = nil, refresh: Int? = nil, monoSources: Int? = nil, stereoSources: Int? = nil,
        hrtf: HRTFRequest = .default, hrtfName: String? = nil, outputLimiter: Bool? = nil
    ) {
        self.frequency = frequency
        self.refresh = refresh
        self.monoSources = monoSources
        self.stereoSources = stereoSources
        self.hrtf = hrtf
        self.hrtfName = hrtfName
        self.outputLimiter = outputLimiter
    }
}

/// The seven OpenAL distance models: how a source's gain falls off with distance.
public enum DistanceModel: String, Sendable, CaseIterable, Hashable {
    /// No attenuation (`AL_NONE`).
    case none
    /// `ref / (ref + rolloff * (d - ref))` (`AL_INVERSE_DISTANCE`).
    case inverse
    /// Inverse with d clamped to ref...max (`AL_INVERSE_DISTANCE_CLAMPED`), OpenAL's default.
    case inverseClamped
    /// `1 - rolloff * (d - ref) / (max - ref)` (`AL_LINEAR_DISTANCE`).
    case linear
    /// Linear with d clamped to ref...max (`AL_LINEAR_DISTANCE_CLAMPED`).
    case linearClamped
    /// `(d / ref) ^ -rolloff` (`AL_EXPONENT_DISTANCE`).
    case exponent
    /// Exponent with d clamped to ref...max (`AL_EXPONENT_DISTANCE_CLAMPED`).
    case exponentClamped

    var alValue: Int32 {
        switch self {
        case .none: return AL_NONE
        case .inverse: return AL_INVERSE_DISTANCE
        case .inverseClamped: return AL_INVERSE_DISTANCE_CLAMPED
        case .linear: return AL_LINEAR_DISTANCE
        case .linearClamped: return AL_LINEAR_DISTANCE_CLAMPED
        case .exponent: return AL_EXPONENT_DISTANCE
        case .exponentClamped: return AL_EXPONENT_DISTANCE_CLAMPED
        }
    }

    init(al value: Int32) {
        self = DistanceModel.allCases.first { $0.alValue == value } ?? .inverseClamped
    }

    /// The gain this model gives at `distance`, as OpenAL computes it (before min/max gain).
    public func gain(distance: Float, referenceDistance ref: Float, maxDistance max: Float, rolloff: Float) -> Float {
        var d = distance
        switch self {
        case .inverseClamped, .linearClamped, .exponentClamped:
            d = Swift.min(Swift.max(d, ref), max)
        default: break
        }
        switch self {
        case .none: return 1
        case .inverse, .inverseClamped:
            let denom = ref + rolloff * (d - ref)
            return denom > 0 ? ref / denom : 1
        case .linear, .linearClamped:
            guard max != ref else { return 1 }
            return Swift.max(0, 1 - rolloff * (d - ref) / (max - ref))
        case .exponent, .exponentClamped:
            guard d > 0, ref > 0 else { return 1 }
            return powf(d / ref, -rolloff)
        }
    }
}

/// An OpenAL context: one listener and its sources, mixed into a device.
///
/// The context keeps its device alive; sources, buffers and the listener keep their context
/// alive. It is destroyed when the last of them goes away.
public final class AudioContext: Sendable, CustomStringConvertible {
    private static let nextID = Atomic<Int>(1)

    /// The device this context mixes into.
    public let device: AudioDevice
    let handle: CHandle
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

    /// Creates a context on `device`.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for out-of-range
    ///   attributes or an unknown HRTF name; ``SoundStageError/Code-swift.struct/extensionMissing``
    ///   when HRTF or the limiter is asked for without its extension.
    public init(device: AudioDevice, attributes: ContextAttributes = ContextAttributes()) throws {
        let id = AudioContext.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        let object = "new context on \(device)"
        func invalid(_ reason: String) -> SoundStageError {
            SoundStageError(.invalidArgument, operation: "AudioContext.init", object: object, reason: reason)
        }
        var list: [ALCint] = []
        if let format = device.loopbackFormat {
            if let frequency = attributes.frequency, frequency != format.sampleRate {
                throw invalid("frequency \(frequency) differs from the loopback format's \(format.sampleRate) Hz")
            }
            list += [ALC_FORMAT_CHANNELS_SOFT, format.channels.alcValue,
                     ALC_FORMAT_TYPE_SOFT, format.sampleType.alcValue,
                     ALC_FREQUENCY, ALCint(format.sampleRate)]
        } else if let frequency = attributes.frequency {
            guard (8_000...192_000).contains(frequency) else { throw invalid("frequency must be in 8000...192000 Hz, got \(frequency)") }
            list += [ALC_FREQUENCY, ALCint(frequency)]
        }
        if let refresh = attributes.refresh {
            guard (1...1_000).contains(refresh) else { throw invalid("refresh must be in 1...1000 Hz, got \(refresh)") }
            list += [ALC_REFRESH, ALCint(refresh)]
        }
        if let mono = attributes.monoSources {
            guard (0...65_536).contains(mono) else { throw invalid("monoSources must be in 0...65536, got \(mono)") }
            list += [ALC_MONO_SOURCES, ALCint(mono)]
        }
        if let stereo = attributes.stereoSources {
            guard (0...65_536).contains(stereo) else { throw invalid("stereoSources must be in 0...65536, got \(stereo)") }
            list += [ALC_STEREO_SOURCES, ALCint(stereo)]
        }
        let hasHRTF = device.isExtensionPresent("ALC_SOFT_HRTF")
        if attributes.hrtf != .default || attributes.hrtfName != nil {
            guard hasHRTF else {
                throw SoundStageError(.extensionMissing, operation: "AudioContext.init", object: object,
                                      reason: "HRTF needs ALC_SOFT_HRTF, which this device lacks")
            }
            switch attributes.hrtf {
            case .on: list += [ALC_HRTF_SOFT, ALC_TRUE]
            case .off: list += [ALC_HRTF_SOFT, ALC_FALSE]
            case .default: list += [ALC_HRTF_SOFT, ALC_DONT_CARE_SOFT]
            }
            if let hrtfName = attributes.hrtfName {
                let available = device.availableHRTFs
                guard let index = available.firstIndex(of: hrtfName) else {
                    throw invalid("no HRTF named '\(hrtfName)'; available: \(available.joined(separator: ", "))")
                }
                list += [ALC_HRTF_ID_SOFT, ALCint(index)]
            }
        }
        if let limiter = attributes.outputLimiter {
            guard device.isExtensionPresent("ALC_SOFT_output_limiter") else {
                throw SoundStageError(.extensionMissing, operation: "AudioContext.init", object: object,
                                      reason: "the output limiter needs ALC_SOFT_output_limiter, which this device lacks")
            }
            list += [ALC_OUTPUT_LIMITER_SOFT, limiter ? ALC_TRUE : ALC_FALSE]
        }
        list.append(0)

        let raw = device.handle.raw
        let created: (OpaquePointer, [Int32: Int32], [String], String) = try OpenAL.withDevice {
            let context = try OpenAL.callALC(raw, "alcCreateContext", on: object) { alcCreateContext(raw, list) }
            guard let context else {
                throw SoundStageError(.alcInvalidValue, operation: "alcCreateContext", object: object,
                                      reason: "OpenAL Soft could not create the context")
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
            try OpenAL.makeCurrentLocked(CHandle(raw: context))
            let ext = OpenAL.string(alGetString(AL_EXTENSIONS)) ?? ""
            return (context, effect, ext.split(separator: " ").map(String.init), OpenAL.string(alGetString(AL_VERSION)) ?? "")
        }
        self.version = created.3
        self.device = device
        self.handle = CHandle(raw: created.0)
        self.id = id
        self.attributesInEffect = created.1
        self.extensions = created.2
        self.extensionSet = Set(created.2)
        // OpenAL Soft 1.19 grants at least 256 sources in all whatever is asked for; the
        // smaller count the caller asked for is the limit SoundStage enforces.
        let grantedMono = Int(created.1[ALC_MONO_SOURCES] ?? 0)
        let grantedStereo = Int(created.1[ALC_STEREO_SOURCES] ?? 0)
        let requested = (attributes.monoSources ?? grantedMono) + (attributes.stereoSources ?? grantedStereo)
        self.sourceLimit = min(grantedMono + grantedStereo, requested)
    }

    deinit {
        let raw = handle.raw
        OpenAL.withDevice {
            if alcGetCurrentContext() == raw { _ = alcMakeContextCurrent(nil) }
            alcDestroyContext(raw)
        }
    }

    /// For example `context 3`.
    public var description: String { "context \(id)" }

    /// The OpenAL version string, e.g. `1.1 ALSOFT 1.19.1`.
    public let version: String

    /// Whether OpenAL Soft decodes WAV IMA ADPCM as the format defines. Before 1.20 it
    /// drops the first frame of every block (`DecodeIMA4Block` in 1.19.1 writes the block's
    /// header sample without advancing), so SoundStage decodes IMA ADPCM itself there.
    var decodesIMA4Correctly: Bool {
        let parts = version.split(separator: " ")
        guard let at = parts.firstIndex(of: "ALSOFT"), at + 1 < parts.count else { return true }
        let numbers = parts[at + 1].split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return true }
        return (numbers[0], numbers[1]) >= (1, 20)
    }

    /// Whether this context has the AL extension `name` (e.g. `AL_SOFT_source_spatialize`).
    public func isExtensionPresent(_ name: String) -> Bool { extensionSet.contains(name) }

    /// The output sample rate in effect.
    public var frequency: Int { Int(attributesInEffect[ALC_FREQUENCY] ?? 0) }
    /// The mixer refresh rate in effect; 0 on a loopback device, which mixes only when asked
    /// to render.
    public var refresh: Int { Int(attributesInEffect[ALC_REFRESH] ?? 0) }
    /// The mono source count OpenAL Soft granted (see ``sourceLimit`` for the one enforced).
    public var monoSources: Int { Int(attributesInEffect[ALC_MONO_SOURCES] ?? 0) }
    /// The stereo source count OpenAL Soft granted.
    public var stereoSources: Int { Int(attributesInEffect[ALC_STEREO_SOURCES] ?? 0) }
    /// The number of sources alive in this context.
    public var sourceCount: Int { liveSources.load(ordering: .relaxed) }

    /// What OpenAL Soft did about HRTF on this context's device.
    public var hrtfStatus: HRTFStatus {
        guard device.isExtensionPresent("ALC_SOFT_HRTF") else { return .unknown }
        return OpenAL.withDevice { HRTFStatus(alc: device.integerLocked(ALC_HRTF_STATUS_SOFT)) }
    }

    /// The name of the HRTF in use, nil when HRTF is off.
    public var hrtfName: String? {
        guard hrtfStatus.isActive else { return nil }
        return OpenAL.withDevice { OpenAL.string(alcGetString(device.handle.raw, ALC_HRTF_SPECIFIER_SOFT)) }
    }

    /// Whether the output limiter is on (nil without `ALC_SOFT_output_limiter`).
    public var outputLimiter: Bool? {
        guard device.isExtensionPresent("ALC_SOFT_output_limiter") else { return nil }
        return OpenAL.withDevice { device.integerLocked(ALC_OUTPUT_LIMITER_SOFT) != 0 }
    }

    /// The resamplers sources can choose with ``Property/resampler`` (`AL_SOFT_source_resampler`),
    /// by index. Empty without the extension.
    public var resamplers: [String] {
        guard isExtensionPresent("AL_SOFT_source_resampler") else { return [] }
        return (try? OpenAL.withContext(handle) {
            let count = alGetInteger(AL_NUM_RESAMPLERS_SOFT)
            return (0..<max(0, count)).map { OpenAL.string(alGetStringiSOFT(AL_RESAMPLER_NAME_SOFT, $0)) ?? "resampler \($0)" }
        }) ?? []
    }

    /// The index of the resampler new sources use.
    public var defaultResampler: Int {
        guard isExtensionPresent("AL_SOFT_source_resampler") else { return 0 }
        return (try? OpenAL.withContext(handle) { Int(alGetInteger(AL_DEFAULT_RESAMPLER_SOFT)) }) ?? 0
    }

    /// The listener of this context.
    public var listener: Listener { Listener(context: self) }

    /// Reads a context property.
    public func get<V>(_ property: Property<AudioContext, V>) -> V { readProperty(property) }

    /// Writes a context property after validating it.
    public func set<V>(_ property: Property<AudioContext, V>, to value: V) throws {
        try writeProperty(property, value)
    }
}

extension AudioContext: PropertyOwner {
    var owningContext: AudioContext { self }
    var propertyObjectName: ALuint { 0 }
    var objectDescription: String { description }
}

extension Property where Owner == AudioContext, Value == DistanceModel {
    /// The distance model of the context (`alDistanceModel`). Default ``DistanceModel/inverseClamped``.
    public static var distanceModel: Self {
        Property("distanceModel", AL_DISTANCE_MODEL,
                 read: { _, p in DistanceModel(al: alGetInteger(p)) },
                 write: { _, _, v in alDistanceModel(v.alValue) })
    }
}

extension Property where Owner == AudioContext, Value == Float {
    /// The Doppler factor (`alDopplerFactor`), at least 0; 0 turns Doppler off. Default 1.
    public static var dopplerFactor: Self {
        Property("dopplerFactor", AL_DOPPLER_FACTOR,
                 read: { _, p in alGetFloat(p) },
                 write: { _, _, v in alDopplerFactor(v) },
                 validate: ALValue.atLeastZero)
    }

    /// The speed of sound in units per second (`alSpeedOfSound`), above 0. Default 343.3.
    public static var speedOfSound: Self {
        Property("speedOfSound", AL_SPEED_OF_SOUND,
                 read: { _, p in alGetFloat(p) },
                 write: { _, _, v in alSpeedOfSound(v) },
                 validate: { v, _ in v > 0 && v.isFinite ? nil : "speedOfSound must be finite and above 0, got \(v)" })
    }
}

extension Property where Owner == AudioContext, Value == Bool {
    /// Whether each source's own ``Property/distanceModel`` is used instead of the context's
    /// (`alEnable(AL_SOURCE_DISTANCE_MODEL)`, `AL_EXT_source_distance_model`). Default false.
    public static var perSourceDistanceModel: Self {
        Property("perSourceDistanceModel", AL_SOURCE_DISTANCE_MODEL, extension: "AL_EXT_source_distance_model",
                 read: { _, p in alIsEnabled(p) != 0 },
                 write: { _, p, v in if v { alEnable(p) } else { alDisable(p) } })
    }
}
