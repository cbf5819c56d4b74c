/// How OpenAL Soft's mixer smooths what would click: a gain change, a stop, a source's end.
///
/// OpenAL Soft 1.19 ramps a gain change across the whole of the next mix, cuts a source
/// stopped or paused at the next mix, and gives silence from the frame after a source's last
/// one. From 1.20 (measured on 1.23.1) it ramps a gain change over 64 output frames, fades a
/// source stopped or paused out over the next 64, and a source that runs out holds its last
/// sample to the end of the mix (up to an update, 1,024 frames at 48 kHz) before fading it
/// out over 64 frames: `LoadBufferStatic` fills the rest of the mix with the last sample
/// loaded ("Ideally it should have ended with silence").
///
/// SoundStage works with either: it ends every sound with a block of silence where the mixer
/// holds the last sample (``AudioBuffer/silence(like:)``), so a sound is silent from its
/// last frame on, and a curve set once a tick (fades, ducking) aims where the mix will be
/// heard: the tick's end when the ramp spans the mix, its middle when the change is a step.
/// The fade on a stop is the mixer's to keep.
package struct MixerSmoothing: Sendable, Hashable {
    /// Whether a gain change ramps across the whole of the next mix (false: over 64 frames,
    /// a step at the scale of a tick).
    package let rampsGainAcrossMix: Bool
    /// Whether a source that runs out holds its last sample until the end of the mix.
    package let holdsLastSample: Bool
    /// The output frames over which a stopped or paused source fades out (0: cut).
    package let stopFadeFrames: Int

    /// The smoothing of OpenAL Soft `release`.
    package init(_ release: OpenALSoftVersion) {
        let fades = release >= OpenALSoftVersion(major: 1, minor: 20)
        rampsGainAcrossMix = !fades
        holdsLastSample = fades
        stopFadeFrames = fades ? 64 : 0
    }

    /// How far into a tick of `seconds` a value set at its start should be taken from a
    /// curve, so that what is heard over the tick follows the curve: its end where the gain
    /// ramps across the mix, its middle where it steps.
    package func aim(tickSeconds seconds: Double) -> Double {
        rampsGainAcrossMix ? seconds : seconds / 2
    }
}
