import Foundation
import SoundStage
@testable import SoundStageCore
import Testing
import SoundStageTestSupport

/// The most a compressed stream decodes to (``DecodeLimit``: 4,096 bytes out for a byte in,
/// 2 GiB at most): long silence, which compresses best, decodes whole; a stream past the limit
/// is refused with a typed error; a stated length that lies promises no more than the limit.
@Suite("Decode limit: silence decodes whole, past 4,096 times the input is refused, a lying length is capped")
struct DecodeLimitTests {
    private func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox, flac, vorbis-tools and opus-tools)")
    }

    /// 10 s of digital silence (no dither), stereo 16-bit at 48 kHz: 480,000 frames.
    private func silence(_ folder: TemporaryFolder) throws -> URL {
        let wav = folder.file("silence.wav")
        #expect(try ToolRunner.run(try sox(), ["-D", "-n", "-r", "48000", "-c", "2", "-b", "16", wav.path, "trim", "0", "10"]).status == 0)
        return wav
    }

    private func encoded(_ folder: TemporaryFolder, _ tool: String, _ arguments: [String], as name: String) throws -> URL {
        let out = folder.file(name)
        let run = try ToolRunner.run(try self.tool(tool), arguments + [out.path])
        #expect(run.status == 0, "\(tool): \(run.stderr)")
        return out
    }

    @Test("the limit's arithmetic: 4,096 bytes a byte, 2 GiB at most (no overflow at Int.max), refused one frame past it")
    func arithmetic() throws {
        #expect(DecodeLimit(inputBytes: 1_000, frameBytes: 8).frames == 512_000)
        #expect(DecodeLimit(inputBytes: Int.max, frameBytes: 8).frames == Int(Int32.max) / 8)
        #expect(DecodeLimit(inputBytes: -5, frameBytes: 4).frames == 0)
        let limit = DecodeLimit(inputBytes: 10, frameBytes: 4)
        #expect(limit.capped(1 << 40) == 10_240 && limit.capped(-1) == 0 && limit.capped(100) == 100)
        #expect(limit.room(.max, at: 10_000) == 240 && limit.room(.max, at: 20_000) == 0)
        try limit.check(10_000, adding: 240, format: "FLAC", name: "x.flac")
        let error = #expect(throws: SoundStageError.self) { try limit.check(10_000, adding: 241, format: "FLAC", name: "x.flac") }
        #expect(error?.code == .decodingFailed && error?.description.contains("x.flac") == true
                && error?.description.contains("10240 frames") == true, "\(String(describing: error))")
    }

    @Test("10 s of digital silence decodes whole, 480,000 frames of zeros, in FLAC (1,762 bytes), Ogg Vorbis and Ogg Opus, loaded and streamed")
    func silenceDecodesWhole() throws {
        let folder = try TemporaryFolder()
        let wav = try silence(folder)
        let files = [
            try encoded(folder, "flac", ["-s", "-f", "--no-padding", wav.path, "-o"], as: "silence.flac"),
            try encoded(folder, "oggenc", ["-Q", "-q", "0", wav.path, "-o"], as: "silence.ogg"),
            try encoded(folder, "opusenc", ["--quiet", wav.path], as: "silence.opus"),
        ]
        for file in files {
            let bytes = try Data(contentsOf: file).count
            let loaded = try SoundFile.decode(contentsOf: file)
            #expect(loaded.frameCount == 480_000, "\(file.lastPathComponent) (\(bytes) bytes): \(loaded.frameCount) frames")
            // FLAC is exact; the lossy codecs give silence within -60 dB.
            let peak = loaded.floatSamples().reduce(0) { max($0, abs($1)) }
            #expect(loaded.container == .flac ? peak == 0 : peak < 1e-3, "\(file.lastPathComponent): silence, peak \(peak)")
            // A stream reads what its decoder states: all of it.
            let decoder = try SoundFile.decoder(contentsOf: file)
            var frames = 0
            while case let block = try decoder.read(maxFrames: 65_536), !block.isEmpty { frames += block.count / decoder.outputFormat.bytesPerBlock }
            #expect(decoder.frameCount == 480_000 && frames == 480_000, "\(file.lastPathComponent) streamed: states \(decoder.frameCount), read \(frames)")
            print("decode limit: \(file.lastPathComponent), \(bytes) bytes, decodes to \(loaded.frameCount * loaded.format.bytesPerBlock / bytes) times as many")
        }
    }

    @Test("silence in FLAC blocks of 65,535 frames (236 bytes, 8,136 times as many decoded) is refused, loaded and streamed, naming the file and the limit")
    func pastTheLimitRefused() throws {
        let folder = try TemporaryFolder()
        let wav = try silence(folder)
        let file = try encoded(folder, "flac", ["-s", "-f", "--lax", "--blocksize=65535", "--no-padding", wav.path, "-o"], as: "huge-blocks.flac")
        let bytes = try Data(contentsOf: file).count
        let error = #expect(throws: SoundStageError.self) { try SoundFile.decode(contentsOf: file) }
        #expect(error?.code == .decodingFailed && error?.description.contains("huge-blocks.flac") == true
                && error?.description.contains("4096 times its \(bytes) bytes") == true, "\(String(describing: error))")
        let decoder = try SoundFile.decoder(contentsOf: file)
        #expect(decoder.frameCount == bytes * 4_096 / 4, "stated \(decoder.frameCount): the limit, not the 480,000 the header says")
        let streamed = #expect(throws: SoundStageError.self) {
            while try !decoder.read(maxFrames: 65_536).isEmpty {}
        }
        #expect(streamed?.code == .decodingFailed, "\(String(describing: streamed))")
        print("decode limit: \(bytes) bytes of FLAC refused: \(error.map { "\($0)" } ?? "")")
    }

    @Test("an Ogg Vorbis and an Ogg Opus whose last page states 2^40 frames: the length stated is at most the limit, and what decodes is what is there",
          arguments: ["ogg", "opus"])
    func lyingGranule(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("tone.wav")
        #expect(try ToolRunner.run(try sox(), ["-n", "-r", "48000", "-c", "2", "-b", "16", wav.path, "synth", "1", "sine", "440"]).status == 0)
        let real = kind == "ogg"
            ? try encoded(folder, "oggenc", ["-Q", wav.path, "-o"], as: "tone.ogg")
            : try encoded(folder, "opusenc", ["--quiet", wav.path], as: "tone.opus")
        let data = try Data(contentsOf: real)
        let last = try #require(OggPages.starts(data).last)
        let lying = OggPages.settingGranule(1 << 40, ofPageAt: last, in: data)
        let truth = try SoundFile.decode(data, name: "tone.\(kind)")
        let decoder = try SoundFile.decoder(lying, name: "lying.\(kind)")
        // libopusfile takes the page's word (and states the limit); libvorbisfile measured
        // the stream itself (and states the real length).
        #expect(decoder.frameCount <= lying.count * 4_096 / 8 && decoder.frameCount >= truth.frameCount,
                "stated \(decoder.frameCount) frames from \(lying.count) bytes: at most the limit")
        let decoded = try SoundFile.decode(lying, name: "lying.\(kind)")
        // Only the last packet's trim follows the granule: a packet's worth at most.
        #expect(abs(decoded.frameCount - truth.frameCount) <= 5_760, "decoded \(decoded.frameCount) frames, the real stream \(truth.frameCount)")
        print("decode limit: \(kind) stating 2^40 frames: \(decoder.frameCount) stated, \(decoded.frameCount) decoded (really \(truth.frameCount))")
    }
}
