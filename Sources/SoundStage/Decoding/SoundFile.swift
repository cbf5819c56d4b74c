import Foundation

/// A decoded sound file, independent of any device: what it is, and its samples.
///
/// Reads WAV (PCM 8 to 32 bit, float32 and float64, u-law, a-law, IMA and MS ADPCM; RIFF
/// and WAVE_FORMAT_EXTENSIBLE), AIFF and AIFC (PCM, 'sowt', floats, u-law, a-law) and Ogg
/// Vorbis.
public struct SoundFile: Sendable {
    /// The container format.
    public enum Container: String, Sendable {
        /// RIFF WAVE.
        case wav = "WAV"
        /// Ogg.
        case ogg = "Ogg"
        /// AIFF or AIFC.
        case aiff = "AIFF"
    }

    enum Payload: Sendable {
        case pcm(bytes: [UInt8], format: BufferFormat)
        case float([Float])
    }

    /// The container.
    public let container: Container
    /// The encoding in the file, e.g. `pcm-u8`, `pcm-s16`, `pcm-s24`, `float32`, `float64`,
    /// `mu-law`, `a-law` or `vorbis`.
    public let encoding: String
    /// The channel layout.
    public let channels: ChannelLayout
    /// Frames per second.
    public let sampleRate: Int
    /// The number of frames.
    public let frameCount: Int
    let payload: Payload

    /// The length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// Decodes a file.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when it cannot be read,
    ///   ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the reason.
    public static func decode(contentsOf url: URL) throws -> SoundFile {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SoundStageError(.fileAccess, operation: "SoundFile.decode", object: url.path,
                                  reason: "cannot read the file (\(error.localizedDescription))")
        }
        return try decode(data, name: url.path)
    }

    /// Decodes a sound held in memory; `name` identifies it in errors.
    public static func decode(_ data: Data, name: String) throws -> SoundFile {
        let head = [UInt8](data.prefix(12))
        if head.count >= 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WAVE".utf8) {
            let wav = try WAVReader.decode(data, name: name)
            return SoundFile(container: .wav, encoding: wav.encoding, channels: wav.format.channels, sampleRate: wav.sampleRate,
                             frameCount: wav.bytes.count / wav.format.bytesPerBlock * wav.format.framesPerBlock,
                             payload: .pcm(bytes: wav.bytes, format: wav.format))
        }
        if head.count >= 12, head[0..<4].elementsEqual("FORM".utf8),
           head[8..<12].elementsEqual("AIFF".utf8) || head[8..<12].elementsEqual("AIFC".utf8) {
            let aiff = try AIFFReader.decode(data, name: name)
            return SoundFile(container: .aiff, encoding: aiff.encoding, channels: aiff.format.channels, sampleRate: aiff.sampleRate,
                             frameCount: aiff.bytes.count / aiff.format.bytesPerBlock, payload: .pcm(bytes: aiff.bytes, format: aiff.format))
        }
        if head.count >= 4, head[0..<4].elementsEqual("OggS".utf8) {
            let ogg = try VorbisReader.decode(data, name: name)
            return SoundFile(container: .ogg, encoding: "vorbis", channels: ogg.channels, sampleRate: ogg.sampleRate,
                             frameCount: ogg.samples.count / ogg.channels.channelCount, payload: .float(ogg.samples))
        }
        throw SoundStageError(.decodingFailed, operation: "SoundFile.decode", object: name,
                              reason: data.isEmpty ? "the file is empty" : "not a WAV, AIFF or Ogg Vorbis file (CAF is not read yet)")
    }

    /// The samples as interleaved Float32 in -1...1; nil for IMA and MS ADPCM, which
    /// SoundStage keeps compressed for OpenAL Soft to decode and cannot expand in Swift yet.
    public func floatSamples() -> [Float]? {
        switch payload {
        case .float(let samples): return samples
        case .pcm(let bytes, let format):
            switch format.encoding {
            case .muLaw, .aLaw: return G711.floatSamples(bytes, format.encoding)
            default: return format.encoding.floatSamples(bytes)
            }
        }
    }
}

extension AudioBuffer {
    /// Loads a sound file: linear-PCM WAV (8-bit, 16-bit or float32) or Ogg Vorbis, told
    /// apart by their first bytes. PCM is uploaded as it is in the file.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when the file cannot be
    ///   read, ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the
    ///   reason otherwise.
    public convenience init(context: AudioContext, contentsOf url: URL) throws {
        try self.init(context: context, sound: try SoundFile.decode(contentsOf: url), label: url.lastPathComponent)
    }

    /// Loads a sound from memory: linear-PCM WAV or Ogg Vorbis.
    public convenience init(context: AudioContext, data: Data, label: String?) throws {
        let name = "in-memory data" + (label.map { " (\($0))" } ?? "")
        try self.init(context: context, sound: try SoundFile.decode(data, name: name), label: label)
    }

    /// Uploads a decoded sound.
    public convenience init(context: AudioContext, sound: SoundFile, label: String?) throws {
        switch sound.payload {
        case .pcm(let bytes, let format):
            try self.init(context: context, bytes: bytes, format: format, sampleRate: sound.sampleRate, label: label)
        case .float(let samples):
            try self.init(context: context, samples: samples, channels: sound.channels, sampleRate: sound.sampleRate, label: label)
        }
    }
}
