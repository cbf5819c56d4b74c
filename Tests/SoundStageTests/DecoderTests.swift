import Foundation
import Testing
import SoundStage

/// A CAF file: 'desc' then 'data' (edit count, then the samples).
func caf(format: String, flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32, channels: UInt32, bits: UInt32,
         rate: Double = 22_050, payload: Data, dataSize: Int64? = nil) -> Data {
    func be<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
    var d = Data("caff".utf8) + be(UInt16(1)) + be(UInt16(0))
    d += Data("desc".utf8) + be(Int64(32)) + be(rate.bitPattern) + Data(format.utf8)
    d += be(flags) + be(bytesPerPacket) + be(framesPerPacket) + be(channels) + be(bits)
    d += Data("data".utf8) + be(dataSize ?? Int64(payload.count + 4)) + be(UInt32(0)) + payload
    return d
}

@Suite("Decoders, CAF and IMA4")
struct DecoderTests {
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

    /// Reads a decoder to the end in chunks of `chunk` frames.
    func readAll(_ decoder: any AudioDecoder, chunk: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let part = try decoder.read(maxFrames: chunk)
            if part.isEmpty { return out }
            out += part
        }
    }

    @Test("seeking lands on the exact frame, in every container and codec", arguments: [
        "wav-s16", "wav-ima", "wav-ms", "wav-ulaw", "aiff-s24", "caf-f32", "aifc-ima4", "ogg",
    ])
    func seek(kind: String) throws {
        let folder = try TemporaryFolder()
        let url: URL
        switch kind {
        case "aifc-ima4": url = Fixtures.url("ima4-stereo.aifc")
        case "ogg":
            let wav = folder.file("src.wav")
            url = folder.file("x.ogg")
            #expect(try ToolRunner.run(try sox(), ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "2", "sine", "300-3000", "sine", "500"]).status == 0)
            #expect(try ToolRunner.run(try #require(ToolRunner.which("oggenc")), ["-Q", "-o", url.path, wav.path]).status == 0)
        default:
            let parts = kind.split(separator: "-")
            url = folder.file("x.\(parts[0])")
            let options = ["s16": ["-b", "16"], "ima": ["-e", "ima-adpcm"], "ms": ["-e", "ms-adpcm"], "ulaw": ["-e", "u-law"],
                           "s24": ["-b", "24"], "f32": ["-e", "floating-point", "-b", "32"]][String(parts[1])]!
            let made = try ToolRunner.run(try sox(), ["-n", "-r", "22050", "-c", "2"] + options + [url.path, "synth", "1", "sine", "300-3000", "sine", "500", "gain", "-3"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        // From a file (mapped) and from memory: the same samples.
        let decoder = try SoundFile.decoder(contentsOf: url)
        let whole = try readAll(decoder, chunk: 1_000)
        #expect(try readAll(try SoundFile.decoder(Data(contentsOf: url), name: "memory"), chunk: 4_096) == whole)
        let frameBytes = decoder.outputFormat.bytesPerBlock
        #expect(whole.count == decoder.frameCount * frameBytes, "\(kind): read \(whole.count / frameBytes) frames, header says \(decoder.frameCount)")
        #expect(decoder.position == decoder.frameCount)
        for target in [0, 1, 63, 64, 65, 777, 1_017, 2_100, decoder.frameCount - 37] {
            try decoder.seek(toFrame: target)
            #expect(decoder.position == target)
            let got = try decoder.read(maxFrames: 200)
            let n = min(200, decoder.frameCount - target)
            let expected = Array(whole[(target * frameBytes)..<((target + n) * frameBytes)])
            #expect(got == expected, "\(kind): after seeking to frame \(target)")
        }
        try decoder.seek(toFrame: decoder.frameCount)
        #expect(try decoder.read(maxFrames: 10).isEmpty)
        expectError(.invalidArgument, mentioning: ["frames"]) { try decoder.seek(toFrame: decoder.frameCount + 1) }
        expectError(.invalidArgument) { try decoder.seek(toFrame: -1) }
    }

    @Test("a decoder that keeps ADPCM compressed reads whole blocks and seeks only to block starts")
    func nativeBlocks() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("ima.wav")
        #expect(try ToolRunner.run(try sox(), ["-n", "-r", "22050", "-c", "1", "-e", "ima-adpcm", url.path, "synth", "0.5", "sine", "440"]).status == 0)
        let decoder = try SoundFile.decoder(contentsOf: url, keepNative: true)
        guard case .imaADPCM(let perBlock) = decoder.outputFormat.encoding else { Issue.record("\(decoder.outputFormat)"); return }
        let block = try decoder.read(maxFrames: 1)
        #expect(block.count == decoder.outputFormat.bytesPerBlock && decoder.position == perBlock)
        try decoder.seek(toFrame: 2 * perBlock)
        expectError(.invalidArgument, mentioning: ["blocks of \(perBlock) frames"]) { try decoder.seek(toFrame: perBlock + 1) }
    }
}
