import Foundation

/// A decoded sound file, independent of any device: what it is, and its samples.
///
/// Reads WAV (PCM 8 to 32 bit, float32 and float64, u-law, a-law, IMA and MS ADPCM; RIFF
/// and WAVE_FORMAT_EXTENSIBLE), AIFF and AIFC (PCM, 'sowt', floats, u-law, a-law, 'ima4'),
/// CAF (linear PCM in either byte order, 'ima4', u-law, a-law), Ogg Vorbis, Ogg Opus (at
/// 48 kHz), FLAC (up to 24-bit) and MP3 (gapless). Formats OpenAL Soft plays natively are kept as they are, so G.711 and WAV ADPCM
/// stay compressed.
public struct SoundFile: Sendable {
    /// The container format.
    public enum Container: String, Sendable {
        /// RIFF WAVE.
        case wav = "WAV"
        /// Ogg.
        case ogg = "Ogg"
        /// AIFF or AIFC.
        case aiff = "AIFF"
        /// Core Audio Format.
        case caf = "CAF"
        /// Free Lossless Audio Codec.
        case flac = "FLAC"
        /// MPEG audio layer III.
        case mp3 = "MP3"
    }

    /// The container.
    public let container: Container
    /// The encoding in the file, e.g. `pcm-u8`, `pcm-s16`, `pcm-s24`, `float32`, `float64`,
    /// `mu-law`, `a-law`, `ima-adpcm`, `ms-adpcm`, `ima4`, `vorbis`, `opus`, `flac` or `mp3`.
    public let encoding: String
    /// The channel layout.
    public let channels: ChannelLayout
    /// Frames per second.
    public let sampleRate: Int
    /// The number of frames.
    public let frameCount: Int
    /// What did not decode of what the file states (damaged data skipped, data that ends
    /// early); nil for a file that decoded whole. What decoded is kept in any case.
    public let damage: DecodeDamage?
    /// The samples in ``format``, as a buffer takes them.
    let samples: SampleBytes
    var bytes: [UInt8] { samples.array }
    /// The format of the samples held: as stored where OpenAL Soft plays it, else linear PCM.
    public let format: BufferFormat

    /// The length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// Decodes a file.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when it cannot be read,
    ///   ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the reason.
    public static func decode(contentsOf url: URL) throws -> SoundFile {
        try SoundFile(try decoder(contentsOf: url, keepNative: true, wholeFile: true))
    }

    /// Decodes a sound held in memory; `name` identifies it in errors.
    public static func decode(_ data: Data, name: String) throws -> SoundFile {
        try SoundFile(try decoder(data, name: name, keepNative: true))
    }

    /// Reads everything a decoder has left.
    init(_ decoder: any AudioDecoder) throws {
        // A PCM file as stored is kept where it was read, not copied. Else one read takes
        // everything a PCM file has; Ogg may hold more than it states.
        let samples: SampleBytes
        if let pcm = decoder as? PCMDecoder, let stored = try pcm.readStoredWhole() {
            samples = stored
        } else {
            var bytes = try decoder.read(maxFrames: .max)
            while true {
                let chunk = try decoder.read(maxFrames: .max)
                if chunk.isEmpty { break }
                bytes += chunk
            }
            samples = SampleBytes(bytes)
        }
        let format = decoder.outputFormat
        // Compressed streams may hold more or less than they state: what decoded counts.
        let counted = decoder.container == .ogg || decoder.container == .flac || decoder.container == .mp3
        if counted, samples.isEmpty {
            let name = (decoder as? any NamedDecoder)?.name ?? ""
            throw Self.failure(.decodingFailed, "decode(\(decoder.container.rawValue))", object: name,
                               "the stream holds no audio (a file cut inside its first audio frame)")
        }
        self.container = decoder.container
        self.encoding = decoder.encoding
        self.channels = decoder.channels
        self.sampleRate = decoder.sampleRate
        self.frameCount = counted ? samples.count / format.bytesPerBlock : decoder.frameCount
        self.samples = samples
        self.format = format
        damage = DecodeDamage(of: decoder, delivered: frameCount)
    }

    /// The samples as interleaved Float32 in -1...1 (G.711 and ADPCM decoded in Swift).
    public func floatSamples() -> [Float] { samples.withUnsafeBytes { format.floatSamples($0) } }
}

extension SoundFile: ErrorNaming {
    package var errorObject: String { "\(container.rawValue) file" }
}
