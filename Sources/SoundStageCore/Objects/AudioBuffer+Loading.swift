import Foundation

extension AudioBuffer {
    /// Loads a sound file: WAV, AIFF, CAF or Ogg Vorbis, told apart by their first bytes.
    /// Formats OpenAL Soft plays natively are uploaded as they are in the file.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when the file cannot be
    ///   read, ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the
    ///   reason otherwise.
    public convenience init(context: AudioContext, contentsOf url: URL) throws {
        try self.init(context: context, sound: try SoundFile.decode(contentsOf: url), label: url.lastPathComponent)
    }

    /// Loads a sound from memory: WAV, AIFF, CAF or Ogg Vorbis.
    public convenience init(context: AudioContext, data: Data, label: String?) throws {
        let name = "in-memory data" + (label.map { " (\($0))" } ?? "")
        try self.init(context: context, sound: try SoundFile.decode(data, name: name), label: label)
    }

    /// Uploads a decoded sound (with its ``SoundFile/damage``, if it did not decode whole).
    public convenience init(context: AudioContext, sound: SoundFile, label: String?) throws {
        try self.init(context: context, samples: sound.samples, format: sound.format, sampleRate: sound.sampleRate, label: label, damage: sound.damage)
    }
}
