/// The ranges SoundStage checks values against before OpenAL sees them, in one place.
package enum Limits {
    /// Sample rates a buffer or a decoded file may have, in Hz (`alBufferData` takes any
    /// positive rate; 384 kHz is the highest a real file uses).
    static let bufferSampleRates = 1...384_000
    /// Output sample rates a device or context may be asked for, in Hz (OpenAL Soft 1.19's
    /// `MIN_OUTPUT_RATE`...`MAX_OUTPUT_RATE`).
    package static let outputSampleRates = 8_000...192_000
    /// Mixer updates per second a context may be asked for (`ALC_REFRESH`).
    static let refreshRates = 1...1_000
    /// Mono or stereo source counts a context may be asked for.
    package static let sourceCounts = 0...65_536
    /// Auxiliary sends per source that OpenAL Soft allows (`ALC_MAX_AUXILIARY_SENDS`).
    static let auxiliarySends = 0...16
    /// The most bytes one `alBufferData` takes.
    static let bufferBytes = Int(Int32.max)
    /// A generated tone's frequency, in Hz.
    package static let toneFrequencies: ClosedRange<Float> = Float.leastNonzeroMagnitude...20_000
    /// A generated tone's length, in seconds.
    package static let toneSeconds: ClosedRange<Double> = Double.leastNonzeroMagnitude...600
}
