/// The most a compressed stream (Ogg Vorbis, Ogg Opus, FLAC, MP3) may decode to: 4,096 bytes
/// of output for each byte of input, and never more than one buffer takes (2 GiB), as FFmpeg
/// caps a decode by `max_samples`. A stated length past it is not trusted (nothing is
/// reserved for it), and a stream that decodes past it is refused with a typed error, before
/// the output grows further.
///
/// Real streams stay below it. Ten seconds of digital silence, stereo at 48 kHz (measured):
/// in Ogg Vorbis at quality 0, 4,928 bytes decoding to 779 times as many; in Ogg Opus, 3,142
/// bytes, 1,222 times; in FLAC at its default block size with no padding, 1,762 bytes, 1,090
/// times. Only silence in blocks far past FLAC's default comes past it: the same 10 s in
/// blocks of 65,535 frames (`flac --lax`) is 236 bytes, 8,136 times as many decoded, and is
/// refused.
struct DecodeLimit: Sendable {
    /// Bytes of output a byte of input may give.
    static let expansion = 4_096

    /// The most frames the stream may decode to.
    let frames: Int
    /// The bytes of input.
    let inputBytes: Int

    /// The limit for `inputBytes` of a stream decoding to frames of `frameBytes` bytes.
    init(inputBytes: Int, frameBytes: Int) {
        self.inputBytes = max(0, inputBytes)
        let (product, overflow) = self.inputBytes.multipliedReportingOverflow(by: Self.expansion)
        let bytes = min(Limits.bufferBytes, overflow ? Int.max : product)
        frames = bytes / max(1, frameBytes)
    }

    /// A stated length, kept to the limit.
    func capped(_ stated: Int) -> Int { min(max(0, stated), frames) }

    /// Frames a read from `position` may make room for, of `wanted`.
    func room(_ wanted: Int, at position: Int) -> Int { max(0, min(wanted, frames - position)) }

    /// Throws when a stream at `position` that decoded `more` frames there goes past the limit.
    func check(_ position: Int, adding more: Int, format: String, name: String) throws {
        guard more > frames - position else { return }
        throw SoundFile.failure(.decodingFailed, "decode(\(format))", object: name,
                                "it decodes to more than \(frames) frames, \(Self.expansion) times its \(inputBytes) bytes "
                                + "(or 2 GiB), which no real stream of its length does; refused before it takes more memory")
    }
}
