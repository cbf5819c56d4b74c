import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("WAVDecoder: WAV files and codecs")
struct WAVDecoderTests {
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

    private func expectBad(_ bytes: [UInt8], _ words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let scene = try LoopbackRig()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-bad-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        expectError(.decodingFailed, mentioning: [url.path, words], sourceLocation: sourceLocation) {
            _ = try AudioBuffer(context: scene.context, contentsOf: url)
        }
    }

    /// A RIFF/WAVE file with the given fmt fields and data bytes.
    private func wav(format: Int = 1, channels: Int = 1, rate: Int = 8_000, bits: Int = 16, data: [UInt8] = [0, 0, 0, 0], dataSize: Int? = nil) -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let align = channels * bits / 8
        let fmt = le(format, 2) + le(channels, 2) + le(rate, 4) + le(rate * align, 4) + le(align, 2) + le(bits, 2)
        return Array("RIFF".utf8) + le(36 + data.count, 4) + Array("WAVE".utf8)
            + Array("fmt ".utf8) + le(16, 4) + fmt + Array("data".utf8) + le(dataSize ?? data.count, 4) + data
    }

    @Test("bad WAV files give a typed error naming the file and the reason")
    func badFiles() throws {
        try expectBad([], "empty")
        try expectBad(Array("hello, this is not audio at all".utf8), "not a WAV, AIFF, CAF, Ogg Vorbis, Ogg Opus, FLAC or MP3")
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

    private func soxWAV(_ options: [String], _ folder: TemporaryFolder) throws -> (URL, [Float]) {
        let sox = try #require(ToolRunner.which("sox"))
        let src = folder.file("src.wav"), file = folder.file("x.wav"), raw = folder.file("ref.f32")
        #expect(try ToolRunner.run(sox, ["-n", "-r", "44100", "-c", "2", "-b", "16", src.path, "synth", "0.5", "sine", "440", "sine", "660", "gain", "-3"]).status == 0)
        let made = try ToolRunner.run(sox, [src.path] + options + [file.path])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try ToolRunner.run(sox, [file.path, "-t", "raw", "-e", "floating-point", "-b", "32", raw.path]).status == 0)
        return (file, try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) })
    }

    @Test("PCM, float and G.711 WAV decode to sox's samples", arguments: [
        ("pcm-u8", ["-b", "8"], Float(0)), ("pcm-s24", ["-b", "24"], 0), ("pcm-s32", ["-b", "32"], 1e-7),
        ("float32", ["-e", "floating-point", "-b", "32"], 0), ("float64", ["-e", "floating-point", "-b", "64"], 1e-7),
        ("mu-law", ["-e", "u-law"], 0), ("a-law", ["-e", "a-law"], 0),
    ])
    func samples(encoding: String, options: [String], tolerance: Float) throws {
        let folder = try TemporaryFolder()
        let (file, theirs) = try soxWAV(options, folder)
        let sound = try SoundFile.decode(contentsOf: file)
        #expect(sound.encoding == encoding && sound.channels == .stereo && sound.sampleRate == 44_100)
        let ours = sound.floatSamples()
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= tolerance, "\(encoding): largest difference \(worst)")
        // G.711 stays compressed in the buffer: one byte a sample.
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: file)
        if encoding == "mu-law" || encoding == "a-law" { #expect(buffer.byteCount == ours.count) }
    }

    @Test("IMA and MS ADPCM stay compressed, decode in Swift exactly as sox does, and play as sox decodes them (rendered, >= 60 dB SNR)",
          arguments: [("ima-adpcm", "ima-adpcm"), ("ms-adpcm", "ms-adpcm")])
    func adpcm(encoding: String, soxEncoding: String) throws {
        let folder = try TemporaryFolder()
        let (file, theirs) = try soxWAV(["-e", soxEncoding], folder)
        let sound = try SoundFile.decode(contentsOf: file)
        #expect(sound.encoding == encoding)
        // SoundStage's own ADPCM decoding (for metering, conversion and streaming) is sox's, sample for sample.
        let ours = sound.floatSamples()
        #expect(ours.count >= theirs.count - 2 * 2_048 && ours.count <= theirs.count + 2 * 2_048)
        let mismatches = zip(ours, theirs).filter { $0 != $1 }.count
        #expect(mismatches == 0, "\(encoding): \(mismatches) of \(min(ours.count, theirs.count)) samples differ from sox")
        let scene = try LoopbackRig(format: RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32))
        let buffer = try AudioBuffer(context: scene.context, contentsOf: file)
        if encoding == "ima-adpcm" && scene.context.version.contains("ALSOFT 1.19") {
            // OpenAL Soft 1.19 drops the first frame of every IMA block, so SoundStage uploads its own decoding.
            #expect(buffer.format.encoding == .int16 && buffer.frameCount == sound.frameCount)
        } else {
            #expect(buffer.byteCount * 3 < theirs.count * 2, "kept compressed: \(buffer.byteCount) bytes for \(theirs.count) samples")
        }
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(buffer)
        try source.set(.directChannels, to: true)
        try source.play()
        let rendered = try scene.device.render(frames: theirs.count / 2).samples
        // Compare where both have audio (sox may pad the last block).
        let n = min(rendered.count, theirs.count, buffer.frameCount * 2)
        let snr = Measure.snrDB(rendered, against: theirs, count: n)
        #expect(snr >= 60, "\(encoding): SNR \(snr) dB against sox over \(n / 2) frames")
    }
}
