import COpenAL

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


    /// Whether HRTF is being applied.
    public var isActive: Bool { self == .enabled || self == .required || self == .headphonesDetected }
}

extension HRTFStatus: ALEnumeration {
    static let alValues: [(HRTFStatus, Int32)] = [
        (.disabled, ALC_HRTF_DISABLED_SOFT), (.enabled, ALC_HRTF_ENABLED_SOFT), (.denied, ALC_HRTF_DENIED_SOFT),
        (.required, ALC_HRTF_REQUIRED_SOFT), (.headphonesDetected, ALC_HRTF_HEADPHONES_DETECTED_SOFT),
        (.unsupportedFormat, ALC_HRTF_UNSUPPORTED_FORMAT_SOFT),
    ]
    static var fallback: HRTFStatus { .unknown }
}
