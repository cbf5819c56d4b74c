import SoundStageCore
import SoundStageSession

/// Writes a Core Audio Format file whose data chunk size is rewritten after every block (as
/// the WAV writer does), so the file on disk always holds every block written, whole. (CAF
/// allows a size of -1 for a data chunk still being written, but libsndfile 1.2, which sox
/// reads CAF through, refuses such files.)
final class CAFFileWriter: AudioFileWriter {
    private let file: OutputFile
    private let channels: Int
    private let bits: Int
    private(set) var framesWritten = 0
    private var dataBytes = 0
    private let dataSizeOffset: Int

    /// Starts `path` for `channels` at `sampleRate`, `bits` 16, 24 (integers) or 32 (float).
    init(path: String, sampleRate: Int, channels: Int, bits: Int, policy: OutputFile.Policy = .any) throws {
        file = try OutputFile(path: path, policy: policy)
        self.channels = channels
        self.bits = bits
        let bytesPerFrame = channels * bits / 8
        // 'desc': rate, 'lpcm', flags (float, little-endian), bytes and frames per packet,
        // channels, bits.
        let flags = (bits == 32 ? 1 : 0) | 2
        var header = Bytes.ascii("caff") + [0, 1, 0, 0]
        header += Bytes.ascii("desc") + Bytes.be64(32) + Bytes.beDouble(Double(sampleRate)) + Bytes.ascii("lpcm")
        header += Bytes.be32(flags) + Bytes.be32(bytesPerFrame) + Bytes.be32(1) + Bytes.be32(channels) + Bytes.be32(bits)
        header += Bytes.ascii("data")
        dataSizeOffset = header.count
        header += Bytes.be64(4) + Bytes.be32(0)   // the size counts the edit count that follows
        try file.append(header)
    }

    func append(_ samples: [Float]) throws {
        let bytes = Bytes.pcm(samples, bits: bits, bigEndian: false)
        try file.append(bytes)
        dataBytes += bytes.count
        framesWritten += samples.count / channels
        // The size follows the data only once it is written: a failed write leaves it as it was.
        try file.overwrite(Bytes.be64(Int64(4 + dataBytes)), at: dataSizeOffset)
    }

    func finish() throws { file.sync() }
}
