import Foundation
import Testing
import SoundStage

@Suite("WAV files")
struct WAVReaderTests {
    @Test("the drum sounds load with the frame count and rate soxi reports, and the samples sox decodes",
          arguments: ["snare", "bass", "tambourine", "maraca"])
    func drums(name: String) throws {
        let url = Assets.drums.appendingPathComponent("\(name).wav")
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: url)
        let soxi = try #require(ToolRunner.which("soxi"), "soxi (sox) is needed")
        let frames = try ToolRunner.run(soxi, ["-s", url.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let rate = try ToolRunner.run(soxi, ["-r", url.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(String(buffer.frameCount) == frames && String(buffer.sampleRate) == rate)
        #expect(buffer.channelCount == 1 && buffer.bitsPerSample == 16 && buffer.label == "\(name).wav")
        // sox's own decoding to raw 16-bit: bit-exact.
        let sox = try #require(ToolRunner.which("sox"))
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-\(name)-\(getpid()).raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        #expect(try ToolRunner.run(sox, [url.path, "-t", "raw", "-e", "signed", "-b", "16", raw.path]).status == 0)
        #expect(try Data(contentsOf: raw) == Data(buffer.bytes))
    }

    func expectBad(_ bytes: [UInt8], _ words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scene = try LoopbackRig()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-bad-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        expectError(.decodingFailed, mentioning: [url.path, words], sourceLocation: sourceLocation) {
            _ = try AudioBuffer(context: scene.context, contentsOf: url)
        }
    }

    /// A RIFF/WAVE file with the given fmt fields and data bytes.
    func wav(format: Int = 1, channels: Int = 1, rate: Int = 8_000, bits: Int = 16, data: [UInt8] = [0, 0, 0, 0], dataSize: Int? = nil) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let align = channels * bits / 8
        let fmt = le(format, 2) + le(channels, 2) + le(rate, 4) + le(rate * align, 4) + le(align, 2) + le(bits, 2)
        return Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le(16, 4) + fmt + Array("data".utf8) + le(dataSize ?? data.count, 4) + data
    }

    @Test("bad WAV files give a typed error naming the file and the reason")
    func badFiles() throws {
        try expectBad([], "empty")
        try expectBad(Array("hello, this is not audio at all".utf8), "not a WAV, AIFF, CAF or Ogg Vorbis")
        try expectBad(wav(channels: 0), "0 channels")
        try expectBad(wav(channels: 3, data: [0, 0, 0, 0, 0, 0]), "3 channels")
        try expectBad(wav(rate: 0), "sample rate of 0")
        try expectBad(wav(format: 0x55, bits: 16), "not one SoundStage reads")   // MP3 in WAV
        try expectBad(wav(format: 2, bits: 4), "too small for MS ADPCM")
        try expectBad(Array(wav().prefix(30)), "too short")
    }

    @Test("a lying data size and a truncated file keep only the whole frames present")
    func truncated() throws {
        let scene = try LoopbackRig()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-trunc-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(wav(data: [1, 0, 2, 0, 3], dataSize: 1_000_000_000)).write(to: url)
        let buffer = try AudioBuffer(context: scene.context, contentsOf: url)
        #expect(buffer.frameCount == 2 && buffer.bytes == [1, 0, 2, 0])
    }
}
