import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// A CAF file: 'desc' then 'data' (edit count, then the samples).
private func caf(format: String, flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32, channels: UInt32, bits: UInt32,
                 rate: Double = 22_050, payload: Data, dataSize: Int64? = nil) -> Data {
    func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
    var d = Data("caff".utf8) + be(UInt16(1)) + be(UInt16(0))
    d += Data("desc".utf8) + be(Int64(32)) + be(rate.bitPattern) + Data(format.utf8)
    d += be(flags) + be(bytesPerPacket) + be(framesPerPacket) + be(channels) + be(bits)
    d += Data("data".utf8) + be(dataSize ?? Int64(payload.count + 4)) + be(UInt32(0)) + payload
    return d
}

@Suite("CAFDecoder: CAF files and IMA4")
struct CAFDecoderTests {
    @Test("CAF 'ima4' (the same packets in a CAF file) decodes to libsndfile's samples exactly")
    func cafIMA4() throws {
        let aifc = try Data(contentsOf: Fixtures.url("ima4-stereo.aifc"))
        let reference = try Fixtures.int16("ima4-stereo.s16")
        // The SSND samples start 16 bytes after the chunk id (size, offset, block size).
        let ssnd = try #require(aifc.range(of: Data("SSND".utf8)))
        let packets = aifc[(ssnd.lowerBound + 16)...]
        let file = caf(format: "ima4", flags: 0, bytesPerPacket: 68, framesPerPacket: 64, channels: 2, bits: 0, payload: Data(packets))
        let sound = try SoundFile.decode(file, name: "ima4.caf")
        #expect(sound.container == .caf && sound.encoding == "ima4" && sound.channels == .stereo)
        let ours = sound.floatSamples().map { Int16($0 * 32_768) }
        #expect(ours.count == reference.count && ours == reference, "\(zip(ours, reference).filter { $0 != $1 }.count) samples differ")
    }

    @Test("CAF files sox writes decode to sox's samples, with soxi's frames and rate", arguments: [
        ("s8", ["-b", "8"], Float(0)), ("s16", ["-b", "16"], 0), ("s24", ["-b", "24"], 0), ("s32", ["-b", "32"], 1e-7),
        ("f32", ["-e", "floating-point", "-b", "32"], 1e-7), ("ulaw", ["-e", "u-law"], 0), ("alaw", ["-e", "a-law"], 0),
    ])
    func soxCAF(name: String, options: [String], tolerance: Float) throws {
        let folder = try TemporaryFolder()
        let file = folder.file("x-\(name).caf"), raw = folder.file("ref.f32")
        let sox = try sox()
        let synth = ["synth", "0.3", "sine", "440", "sine", "1320", "gain", "-3"]
        let made = try ToolRunner.run(sox, ["-n", "-r", "32000", "-c", "2"] + options + [file.path] + synth)
        try #require(made.status == 0, "\(made.stderr)")
        if name.hasPrefix("f") {
            // sox reads float CAF scaled by its PEAK chunk, so the reference is the synthesis itself.
            #expect(try ToolRunner.run(sox, ["-n", "-r", "32000", "-c", "2", "-t", "raw", "-e", "floating-point", "-b", "32", raw.path] + synth).status == 0)
        } else {
            #expect(try ToolRunner.run(sox, [file.path, "-t", "raw", "-e", "floating-point", "-b", "32", raw.path]).status == 0)
        }
        let theirs = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let sound = try SoundFile.decode(contentsOf: file)
        #expect(sound.container == .caf && sound.sampleRate == 32_000 && sound.channels == .stereo)
        #expect(sound.frameCount == 9_600, "soxi: 9600 frames")
        let ours = sound.floatSamples()
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= tolerance, "\(name): largest difference \(worst)")
        // G.711 stays compressed.
        if name == "ulaw" || name == "alaw" { #expect(sound.format.encoding == (name == "ulaw" ? .muLaw : .aLaw)) }
    }

    // sox writes float64 CAF scaled by 2^31 (libsndfile reads those files back the same way
    // SoundStage does), so the float64 case is built here instead.
    @Test("little-endian CAF linear PCM (integer, float) and big-endian float64 read as their samples")
    func littleEndianCAF() throws {
        let samples: [Int16] = (0..<400).map { Int16(truncatingIfNeeded: $0 * 97 - 20_000) }
        let le16 = samples.withUnsafeBytes { Data($0) }
        let sound = try SoundFile.decode(caf(format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16, payload: le16), name: "le.caf")
        #expect(sound.frameCount == 200 && sound.format == BufferFormat(.int16, .stereo))
        #expect(sound.floatSamples() == samples.map { Float($0) / 32_768 })
        let floats: [Float] = (0..<300).map { sin(Float($0) * 0.1) }
        let le32 = floats.withUnsafeBytes { Data($0) }
        let f = try SoundFile.decode(caf(format: "lpcm", flags: 3, bytesPerPacket: 4, framesPerPacket: 1, channels: 1, bits: 32, payload: le32), name: "lef.caf")
        #expect(f.floatSamples() == floats)
        let be64 = Data(floats.flatMap { withUnsafeBytes(of: Double($0).bitPattern.bigEndian) { Array($0) } })
        let d = try SoundFile.decode(caf(format: "lpcm", flags: 1, bytesPerPacket: 8, framesPerPacket: 1, channels: 1, bits: 64, payload: be64), name: "be64.caf")
        #expect(d.encoding == "float64" && d.floatSamples() == floats)
        // A data chunk of unknown size (-1) runs to the end of the file.
        let open = try SoundFile.decode(caf(format: "lpcm", flags: 2, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16, payload: le16, dataSize: -1), name: "open.caf")
        #expect(open.frameCount == 200)
    }

    @Test("bad CAF data gives a typed error naming the file and the reason")
    func badCAF() throws {
        let pcm = Data(count: 40)
        let cases: [(String, Data)] = [
            ("version 2", { var d = caf(format: "lpcm", flags: 0, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16, payload: pcm); d[5] = 2; return d }()),
            ("no desc chunk", Data("caff".utf8) + Data([0, 1, 0, 0])),
            ("0 channels", caf(format: "lpcm", flags: 0, bytesPerPacket: 0, framesPerPacket: 1, channels: 0, bits: 16, payload: pcm)),
            ("sample rate of 0", caf(format: "lpcm", flags: 0, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16, rate: 0, payload: pcm)),
            ("'aac '", caf(format: "aac ", flags: 0, bytesPerPacket: 0, framesPerPacket: 1024, channels: 2, bits: 0, payload: pcm)),
            ("do not match", caf(format: "lpcm", flags: 0, bytesPerPacket: 6, framesPerPacket: 1, channels: 2, bits: 16, payload: pcm)),
            ("12-bit", caf(format: "lpcm", flags: 0, bytesPerPacket: 3, framesPerPacket: 1, channels: 2, bits: 12, payload: pcm)),
            ("no data chunk", caf(format: "lpcm", flags: 0, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16, payload: pcm).prefix(52)),
        ]
        for (words, data) in cases {
            expectError(.decodingFailed, mentioning: ["bad.caf", words]) { _ = try SoundFile.decode(data, name: "bad.caf") }
        }
        // A lying data size keeps the whole frames present.
        let lying = try SoundFile.decode(caf(format: "lpcm", flags: 0, bytesPerPacket: 4, framesPerPacket: 1, channels: 2, bits: 16,
                                             payload: Data(count: 42), dataSize: 1 << 40), name: "lying.caf")
        #expect(lying.frameCount == 10)
    }
}
