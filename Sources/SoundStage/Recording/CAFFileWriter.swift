/// Writes a Core Audio Format file: its data chunk is the last one with the size -1 (CAF's
/// "still being written") while recording, so every block written is readable at once, and
/// the real size is written when the recording finishes.
final class CAFFileWriter: AudioFileWriter {
    private let file: OutputFile
    private let channels: Int
    private let bits: Int
    private(set) var framesWritten = 0
    private var dataBytes = 0
    private let dataSizeOffset: Int

    /// Starts `path` for `channels` at `sampleRate`, `bits` 16, 24 (integers) or 32 (float).
    init(path: String, sampleRate: Int, channels: Int, bits: Int) throws {
        file = try OutputFile(path: path)
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
        header += Bytes.be64(-1) + Bytes.be32(0)   // size unknown, then the edit count
        try file.append(header)
    }

    func append(_ samples: [Float]) throws {
        let bytes = Bytes.pcm(samples, bits: bits, bigEndian: false)
        try file.append(bytes)
        dataBytes += bytes.count
        framesWritten += samples.count / channels
    }

    func finish() throws {
        try file.overwrite(Bytes.be64(Int64(4 + dataBytes)), at: dataSizeOffset)
        file.sync()
    }
}
