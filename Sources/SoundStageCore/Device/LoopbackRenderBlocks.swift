/// How a loopback device's renders are cut into blocks OpenAL Soft 1.19.1's reverb can mix.
///
/// When a reverb's settings change (its slot loaded, the device reset), the reverb
/// cross-fades over its next 128 frames, in steps rounded down to a multiple of 4 where a
/// block ends inside the fade. A block shorter than the fade and not a multiple of 4 leaves
/// the fade's count off the multiples of 4, and a later block then gets a step of 0 frames,
/// which the reverb repeats for ever or runs past its buffers with: a render of 51 frames
/// after a reverb was set, then one of 2,400, died by SIGSEGV in `alcRenderSamplesSOFT` (the
/// API fuzzer's find). So while a fade may run, a render of under 128 frames that are not a
/// multiple of 4 mixes up to 3 frames more, and the next render hands those out first: the
/// device runs at most 3 frames (63 µs at 48 kHz) ahead of what was handed out, and only
/// then (a player started there is heard that much late). Blocks of 128 frames or more, or
/// of a multiple of 4, are mixed as asked.
struct LoopbackRenderBlocks: Sendable {
    /// The frames of a reverb's cross-fade.
    static let fadeFrames = 128
    /// How many frames a reverb may still be cross-fading for: ``fadeFrames`` from a change,
    /// counted down as frames are mixed.
    private(set) var fading = 0
    /// The frames mixed past the end of the last render (at most 3), in the device's format.
    private(set) var ahead: [UInt8] = []

    /// A reverb's settings may have changed: its fade starts with the next frames mixed.
    mutating func fadeStarts() { fading = Self.fadeFrames }

    /// How many frames to mix for `frames` asked: `frames`, or up to 3 more while a fade may
    /// run and `frames` is under ``fadeFrames`` and not a multiple of 4.
    func framesToMix(_ frames: Int) -> Int {
        guard fading > 0, frames < Self.fadeFrames, frames % 4 != 0 else { return frames }
        return (frames + 3) / 4 * 4
    }

    /// `frames` were mixed: the fade is that much further on.
    mutating func mixed(_ frames: Int) { fading = max(0, fading - frames) }

    /// Copies the frames mixed ahead into `buffer`, at most `frames` of them; returns how many.
    mutating func hand(into buffer: UnsafeMutableRawPointer, frames: Int, frameBytes: Int) -> Int {
        let count = min(ahead.count / frameBytes, frames)
        guard count > 0 else { return 0 }
        ahead.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count * frameBytes) }
        ahead.removeFirst(count * frameBytes)
        return count
    }

    /// Of `mixed`, the first `handing` frames go into `buffer` and the rest is kept for the
    /// next render.
    mutating func keep(_ mixed: [UInt8], handing frames: Int, into buffer: UnsafeMutableRawPointer, frameBytes: Int) {
        mixed.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: frames * frameBytes) }
        ahead = Array(mixed[(frames * frameBytes)...])
    }
}
