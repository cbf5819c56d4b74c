import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("OpusDecoder: Ogg Opus at 48 kHz, against opusdec, seeks to the frame, streamed as loaded")
struct OpusDecoderTests {
    private func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox and opus-tools)")
    }

    /// A `seconds` long stereo (or `channels`) source at 44.1 kHz, encoded by opusenc.
    private func encode(_ folder: TemporaryFolder, channels: Int = 2, seconds: Double = 3) throws -> URL {
        let wav = folder.file("source\(channels).wav"), opus = folder.file("source\(channels).opus")
        var synth = ["-n", "-r", "44100", "-c", "\(channels)", "-b", "16", wav.path, "synth", "\(seconds)", "sine", "440", "sine", "660", "gain", "-3"]
        if channels == 6 { synth = ["-n", "-r", "48000", "-c", "6", "-b", "16", wav.path, "synth", "\(seconds)", "sine", "1000", "remix", "0", "0", "1", "0", "0", "0"] }
        #expect(try ToolRunner.run(try tool("sox"), synth).status == 0)
        #expect(try ToolRunner.run(try tool("opusenc"), ["--quiet", wav.path, opus.path]).status == 0)
        return opus
    }

    @Test("a stereo Opus file decodes at 48 kHz to opusdec --float's samples within 60 dB SNR, its length to the frame")
    func matchesOpusdec() throws {
        let folder = try TemporaryFolder()
        let opus = try encode(folder)
        let reference = folder.file("reference.wav")
        #expect(try ToolRunner.run(try tool("opusdec"), ["--quiet", "--float", "--rate", "48000", opus.path, reference.path]).status == 0)
        let ours = try SoundFile.decode(contentsOf: opus), theirs = try SoundFile.decode(contentsOf: reference)
        #expect(ours.container == .ogg && ours.encoding == "opus" && ours.sampleRate == 48_000 && ours.channels == .stereo)
        #expect(ours.frameCount == theirs.frameCount, "frames: ours \(ours.frameCount), opusdec \(theirs.frameCount) (3 s at 48 kHz is 144000)")
        let a = ours.floatSamples(), b = theirs.floatSamples()
        let snr = Measure.snrDB(a, against: b, count: min(a.count, b.count))
        #expect(snr >= 60, "SNR against opusdec: \(snr) dB")
        print("opus: \(ours.frameCount) frames, SNR against opusdec --float \(snr) dB")
    }

    @Test("5.1 comes out in OpenAL's order; a seek lands on the frame; streamed equals loaded")
    func orderSeeksStreams() throws {
        let folder = try TemporaryFolder()
        let six = try SoundFile.decode(contentsOf: try encode(folder, channels: 6, seconds: 0.5))
        #expect(six.channels == .surround51)
        let s6 = six.floatSamples()
        let levels = (0..<6).map { c in Measure.dB(stride(from: c, to: s6.count, by: 6).map { s6[$0] }) }
        #expect(levels.indices.max { levels[$0] < levels[$1] } == 2, "the centre channel carries the tone: \(levels)")

        let opus = try encode(folder, seconds: 4)
        let whole = try SoundFile.decode(contentsOf: opus).floatSamples()
        let decoder = try SoundFile.decoder(contentsOf: opus)
        for frame in [150_000, 12_345, 0, 96_000, 191_000] {
            try decoder.seek(toFrame: frame)
            let got = try decoder.read(maxFrames: 960).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let want = Array(whole[(frame * 2)..<min(whole.count, (frame + 960) * 2)])
            let snr = Measure.snrDB(got, against: want, count: min(got.count, want.count))
            #expect(got.count == want.count && snr > 60, "a seek to frame \(frame): \(snr) dB against the decode from the start")
        }
        let loaded = try EngineRig.renderFile(opus, streamed: false, seconds: 4.1), streamed = try EngineRig.renderFile(opus, streamed: true, seconds: 4.1)
        #expect(loaded == streamed && Measure.dB(loaded) > -30, "streamed equals loaded (\(zip(loaded, streamed).filter { $0 != $1 }.count) differ)")
    }

    @Test("truncated, garbage and empty Opus data give a typed error naming the file, never a crash")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let good = try Data(contentsOf: try encode(folder, seconds: 10))
        let headers = folder.file("headers.opus")
        try good.prefix(200).write(to: headers)
        expectError(.decodingFailed, mentioning: [headers.path]) { _ = try SoundFile.decode(contentsOf: headers) }
        let half = folder.file("half.opus")
        try good.prefix(good.count / 2).write(to: half)
        let partial = try SoundFile.decode(contentsOf: half)
        #expect(partial.frameCount > 48_000 * 3 && partial.frameCount < 48_000 * 10, "\(partial.frameCount) frames")
        var garbage = good.prefix(60)
        garbage.append(Data(repeating: 0x5A, count: 4_000))
        let bad = folder.file("garbage.opus")
        try garbage.write(to: bad)
        expectError(.decodingFailed, mentioning: [bad.path]) { _ = try SoundFile.decode(contentsOf: bad) }
    }
}
