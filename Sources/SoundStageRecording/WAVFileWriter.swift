import SoundStageCore
import SoundStageSession

/// Writes a RIFF WAVE file whose RIFF and data sizes are rewritten after every block, so the
/// file on disk always holds every block written, whole.
final class WAVFileWriter: AudioFileWriter {
    private let file: OutputFile
    private let channels: Int
    private let bits: Int
    private(set) var framesWritten = 0
    private var dataBytes = 0

    /// Starts `path` for `channels` at `sampleRate`, `bits` 16, 24 (integers) or 32 (float).
    init(path: String, sampleRate: Int, channels: Int, bits: Int, policy: OutputFile.Policy = .any) throws {
        file = try OutputFile(path: path, policy: policy)
        self.channels = channels
        self.bits = bits
        let bytesPerSample = bits / 8
        var header = Bytes.ascii("RIFF") + Bytes.le32(36) + Bytes.ascii("WAVE")
        header += Bytes.ascii("fmt ") + Bytes.le32(16) + Bytes.le16(bits == 32 ? 3 : 1) + Bytes.le16(channels) + Bytes.le32(sampleRate)
        header += Bytes.le32(sampleRate * channels * bytesPerSample) + Bytes.le16(channels * bytesPerSample) + Bytes.le16(bits)
        header += Bytes.ascii("data") + Bytes.le32(0)
        try file.append(header)
    }

    /// The most data a RIFF file's 32-bit sizes can count.
    static let maxDataBytes = Int(UInt32.max) - 64

    func append(_ samples: [Float]) throws {
        let bytes = Bytes.pcm(samples, bits: bits, bigEndian: false)
        guard dataBytes + bytes.count <= Self.maxDataBytes else {
            throw SoundStageError(.fileAccess, operation: "Recorder.write", object: file.path,
                                  reason: "a WAV file holds at most 4 GiB of audio; record long takes to CAF")
        }
        try file.append(bytes)
        dataBytes += bytes.count
        framesWritten += samples.count / channels
        // The sizes follow the data only once it is written: a failed write leaves them as they were.
        try file.overwrite(Bytes.le32(36 + dataBytes), at: 4)
        try file.overwrite(Bytes.le32(dataBytes), at: 40)
    }

    func finish() throws {
        // An odd-sized data chunk (24-bit mono) gets its pad byte, which the RIFF size counts.
        if dataBytes % 2 == 1 {
            try file.append([0])
            try file.overwrite(Bytes.le32(36 + dataBytes + 1), at: 4)
        }
        file.sync()
    }
}
