import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("AIFFDecoder: AIFF and AIFC")
struct AIFFDecoderTests {
    /// sox's own decoding of `url` as interleaved Float32.
    private func soxFloats(_ args: [String], _ folder: TemporaryFolder) throws -> [Float] {
        let raw = folder.file("ref-\(UInt32.random(in: 0...UInt32.max)).f32")
        let sox = try #require(ToolRunner.which("sox"))
        let run = try ToolRunner.run(sox, args + ["-t", "raw", "-e", "floating-point", "-b", "32", raw.path])
        try #require(run.status == 0, "\(run.stderr)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func source(_ folder: TemporaryFolder) throws -> URL {
        let wav = folder.file("src.wav")
        let sox = try #require(ToolRunner.which("sox"))
        #expect(try ToolRunner.run(sox, ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "0.5", "sine", "440", "sine", "660", "gain", "-3"]).status == 0)
        return wav
    }

    @Test("files sox writes decode to sox's samples", arguments: [
        ("s8", ["-b", "8", "-e", "signed"], "aiff"), ("s16", ["-b", "16"], "aiff"), ("s24", ["-b", "24"], "aiff"),
        ("s32", ["-b", "32"], "aiff"), ("f32", ["-e", "floating-point", "-b", "32"], "aifc"), ("f64", ["-e", "floating-point", "-b", "64"], "aifc"),
    ])
    func soxWritten(name: String, options: [String], ext: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.file("x-\(name).\(ext)")
        let sox = try #require(ToolRunner.which("sox")), soxi = try #require(ToolRunner.which("soxi"))
        #expect(try ToolRunner.run(sox, [try source(folder).path] + options + [file.path]).status == 0)
        let sound = try SoundFile.decode(contentsOf: file)
        #expect(sound.container == .aiff && sound.channels == .stereo && sound.sampleRate == 44_100)
        #expect(String(sound.frameCount) == (try ToolRunner.run(soxi, ["-s", file.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let ours = sound.floatSamples(), theirs = try soxFloats([file.path], folder)
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        // 8, 16 and 24 bits convert exactly; 32-bit and float64 round once to Float32.
        #expect(worst <= (["s32", "f64"].contains(name) ? 1e-7 : 0), "\(name): largest difference \(worst)")
        let scene = try LoopbackRig()
        #expect(try AudioBuffer(context: scene.context, contentsOf: file).frameCount == sound.frameCount)
    }

    /// An AIFC file around `payload`, with compression `type` (sox cannot write these).
    private func aifc(_ type: String, bits: Int, frames: Int, payload: Data) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        let rate44100: [UInt8] = [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]
        let comm: [UInt8] = [0, 2] + be32(frames) + [0, UInt8(bits)] + rate44100 + Array(type.utf8) + [0, 0]
        let ssnd: [UInt8] = be32(0) + be32(0) + [UInt8](payload)
        var body: [UInt8] = Array("AIFC".utf8)
        body += Array("COMM".utf8) + be32(comm.count) + comm
        body += Array("SSND".utf8) + be32(ssnd.count) + ssnd
        if ssnd.count % 2 == 1 { body.append(0) }
        return Data(Array("FORM".utf8) + be32(body.count) + body)
    }

    @Test("u-law, a-law and 'sowt' AIFC decode to sox's decoding of the same samples", arguments: [("ulaw", "u-law", "ul"), ("alaw", "a-law", "al"), ("sowt", "signed", "s16")])
    func handMade(type: String, encoding: String, rawType: String) throws {
        let folder = try TemporaryFolder()
        let sox = try #require(ToolRunner.which("sox"))
        let raw = folder.file("x.raw")
        let bits = type == "sowt" ? 16 : 8
        #expect(try ToolRunner.run(sox, [try source(folder).path, "-t", "raw", "-e", encoding, "-b", "\(bits)", "-L", raw.path]).status == 0)
        let payload = try Data(contentsOf: raw)
        let frames = payload.count / (2 * bits / 8)
        let file = folder.file("x.aifc")
        try aifc(type, bits: bits, frames: frames, payload: payload).write(to: file)
        let sound = try SoundFile.decode(contentsOf: file)
        #expect(sound.frameCount == frames && sound.sampleRate == 44_100)
        let ours = sound.floatSamples()
        let theirs = try soxFloats(["-t", "raw", "-r", "44100", "-c", "2", "-e", encoding, "-b", "\(bits)", "-L", raw.path], folder)
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        #expect(worst == 0, "\(type): largest difference \(worst)")
        // G.711 stays compressed in the buffer; OpenAL Soft plays it as it is.
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: file)
        #expect(buffer.byteCount == (type == "sowt" ? payload.count : frames * 2))
    }

    @Test("bad AIFF data gives a typed error naming the file")
    func bad() throws {
        let scene = try LoopbackRig()
        let cases: [(String, Data)] = [
            ("no COMM chunk", Data(Array("FORM".utf8) + [0, 0, 0, 4] + Array("AIFF".utf8))),
            ("COMM chunk is too short", Data(Array("FORM".utf8) + [0, 0, 0, 14] + Array("AIFFCOMM".utf8) + [0, 0, 0, 2, 0, 1])),
            ("compression 'ACE2'", aifc("ACE2", bits: 16, frames: 64, payload: Data(count: 68))),
            ("0 channels", { var d = aifc("NONE", bits: 16, frames: 1, payload: Data(count: 4)); d[21] = 0; return d }()),
        ]
        for (words, data) in cases {
            expectError(.decodingFailed, mentioning: ["in-memory data (bad.aiff)", words]) {
                _ = try AudioBuffer(context: scene.context, data: data, label: "bad.aiff")
            }
        }
    }

    @Test("AIFC 'ima4' decodes to libsndfile's samples exactly", arguments: ["ima4-mono", "ima4-stereo"])
    func aifcIMA4(name: String) throws {
        let sound = try SoundFile.decode(contentsOf: Fixtures.url(name + ".aifc"))
        let reference = try Fixtures.int16(name + ".s16")
        #expect(sound.container == .aiff && sound.encoding == "ima4" && sound.sampleRate == 22_050)
        #expect(sound.frameCount * sound.channels.channelCount == reference.count)
        let ours = sound.floatSamples().map { Int16($0 * 32_768) }
        #expect(ours.count == reference.count && ours == reference, "\(zip(ours, reference).filter { $0 != $1 }.count) samples differ")
        // It plays: a buffer holds it as 16-bit PCM.
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, sound: sound, label: name)
        #expect(buffer.format.encoding == .int16 && buffer.frameCount == sound.frameCount)
    }
}
