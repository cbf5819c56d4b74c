/// How OpenAL Soft's mixer steps a source through its sound, so that a playhead kept
/// without a source (a virtual voice) lands where a source would have.
///
/// The mixer moves a playing source by a fixed-point increment each output frame: the
/// sound's rate over the output's, times the pitch, worked out in `Float` and rounded to
/// the nearest 1/2^``fractionBits`` of a frame (`voice->Step` in OpenAL Soft 1.19's
/// `ALu.c`, `mStep` in 1.23's `alu.cpp`). A 44.1 kHz sound on a 48 kHz output steps
/// 3763/4096 of a frame, not 0.91875; a playhead that advanced by the exact ratio drifts
/// from the source by 150 frames a minute. A playhead kept in the mixer's own units, and
/// given to a new source with its fraction (`AL_SAMPLE_OFFSET` in double precision), does
/// not drift at all.
package struct MixerStepping: Sendable, Hashable {
    /// Bits of a frame's fraction: 12 up to OpenAL Soft 1.22, 16 from 1.23.
    package let fractionBits: Int
    /// The largest step, in whole frames per output frame: 255 up to 1.20, 10 from 1.21.
    let maxPitch: Int

    /// One frame in the mixer's fixed point.
    package var one: Int64 { 1 << Int64(fractionBits) }

    /// The stepping of OpenAL Soft `release`.
    package init(_ release: OpenALSoftVersion) {
        fractionBits = release >= OpenALSoftVersion(major: 1, minor: 23) ? 16 : 12
        maxPitch = release >= OpenALSoftVersion(major: 1, minor: 21) ? 10 : 255
    }

    /// The sound's rate over the output's, as the mixer works it out (in `Float`).
    package static func rateRatio(soundRate: Int, outputRate: Int) -> Float {
        Float(soundRate) / Float(max(1, outputRate))
    }

    /// The increment per output frame, in 1/``one`` of a sound frame, of a source playing at
    /// `pitch` a sound whose rate over the output's is `ratio`: exactly the mixer's.
    package func increment(ratio: Float, pitch: Float) -> Int64 {
        let step = ratio * pitch
        guard step <= Float(maxPitch) else { return Int64(maxPitch) << Int64(fractionBits) }
        return max(1, Int64((step * Float(one)).rounded(.toNearestOrEven)))
    }

    /// Offsets below this many frames reach the mixer with their whole fraction: OpenAL Soft
    /// takes a source's offset as a `Float` (`alSourcedSOFT` too: 1.19 and 1.23 both
    /// narrow the double), whose 24 bits leave a fraction of ``fractionBits`` only below
    /// 2^(24 - fractionBits) frames (4,096 frames in 1.19, 256 in 1.23).
    package var exactOffsetFrames: Int { 1 << (24 - fractionBits) }

    /// A fixed-point position as frames (for a source's `AL_SAMPLE_OFFSET` in double
    /// precision, which OpenAL Soft splits back into the same whole and fraction).
    package func frames(_ position: Int64) -> Double {
        Double(position >> Int64(fractionBits)) + Double(position & (one - 1)) / Double(one)
    }
}
