import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("MP3Decoder: against mpg123, gapless loops, seeks to the frame, streamed as loaded")
struct MP3DecoderTests {
    private func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox, lame and mpg123)")
    }

    /// A `seconds` long stereo sine pair at 44.1 kHz, encoded by lame.
    private func encode(_ folder: TemporaryFolder, _ name: String, frequency: Int = 1_000, seconds: Double = 2) throws -> URL {
        let wav = folder.file("\(name).wav"), mp3 = folder.file("\(name).mp3")
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "\(seconds)", "sine", "\(frequency)", "gain", "-6"]).status == 0)
        #expect(try ToolRunner.run(try tool("lame"), ["--quiet", "-b", "192", wav.path, mp3.path]).status == 0)
        return mp3
    }

    @Test("a LAME file decodes to mpg123's samples within 60 dB SNR, with mpg123's frame count: the encoder's delay and padding left out")
    func matchesMpg123() throws {
        let folder = try TemporaryFolder()
        let mp3 = try encode(folder, "tone")
        let raw = try ToolRunner.run(try tool("sh"), ["-c", "\(try tool("mpg123").path) -q -e f32 -s '\(mp3.path)' > '\(folder.file("tone.raw").path)'"])
        #expect(raw.status == 0)
        let reference = try Data(contentsOf: folder.file("tone.raw")).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let ours = try SoundFile.decode(contentsOf: mp3)
        #expect(ours.container == .mp3 && ours.encoding == "mp3" && ours.sampleRate == 44_100 && ours.channels == .stereo)
        #expect(ours.frameCount == reference.count / 2 && ours.frameCount == 88_200, "ours \(ours.frameCount), mpg123 \(reference.count / 2), the source 88200")
        let snr = Measure.snrDB(ours.floatSamples(), against: reference, count: min(reference.count, ours.frameCount * 2))
        #expect(snr >= 60, "SNR against mpg123: \(snr) dB")
        print("mp3: \(ours.frameCount) frames (the WAV had 88200), SNR against mpg123 \(snr) dB")
    }

    @Test("a looped MP3 made by lame plays with no gap at the seam; seeks land on the frame; streamed equals loaded")
    func gaplessSeeksStreams() throws {
        let folder = try TemporaryFolder()
        // 441 Hz: exactly 441 periods in a second, so the loop's seam is seamless in the signal.
        let mp3 = try encode(folder, "loop", frequency: 441, seconds: 1)
        let engine = try AudioEngine(output: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)),
                                     attributes: ContextAttributes(hrtf: .off), service: .manual(tick: 0.01))
        defer { engine.shutdown() }
        let player = engine.makePlayer(try Sound(engine: engine, contentsOf: mp3))
        player.numberOfLoops = 2
        try player.play()
        let audio = try engine.render(frames: 3 * 44_100 + 4_410)
        let left = audio.channel(0)
        let start = try #require(left.firstIndex { abs($0) > 0.01 })
        let c = Float(2 * cos(2 * Double.pi * 441 / 44_100))
        for seam in [44_100, 88_200] {
            let around = (start + seam - 200)..<(start + seam + 200)
            let worst = around.map { abs(left[$0] - c * left[$0 - 1] + left[$0 - 2]) }.max()!
            var silent = 0, longest = 0
            for i in around { silent = abs(left[i]) < 1e-3 ? silent + 1 : 0; longest = max(longest, silent) }
            #expect(worst < 0.02 && longest <= 1, "seam at \(seam): the sine's residual \(worst), \(longest) silent samples in a row")
        }

        let whole = try SoundFile.decode(contentsOf: mp3).floatSamples()
        let decoder = try SoundFile.decoder(contentsOf: mp3)
        for frame in [30_000, 1_234, 0, 44_099] {
            try decoder.seek(toFrame: frame)
            let got = try decoder.read(maxFrames: 1_152).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let want = Array(whole[(frame * 2)..<min(whole.count, (frame + 1_152) * 2)])
            let snr = Measure.snrDB(got, against: want, count: min(got.count, want.count))
            #expect(got.count == want.count && snr > 60, "a seek to frame \(frame): \(snr) dB")
        }
        let loaded = try EngineRig.renderFile(mp3, streamed: false, seconds: 1.1), streamed = try EngineRig.renderFile(mp3, streamed: true, seconds: 1.1)
        #expect(loaded == streamed && Measure.dB(loaded) > -30, "streamed equals loaded (\(zip(loaded, streamed).filter { $0 != $1 }.count) differ)")
    }

    @Test("a seek in an MPEG-2 stream at 8 kb/s and 24 kHz (a frame's data reaching 11 frames back) gives the samples read in order from there, to 1e-6")
    func lowBitrateSeeks() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("voice.wav"), mp3 = folder.file("voice.mp3")
        // A sweep with noise: what a low rate spends its reservoir on.
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "24000", "-c", "1", "-b", "16", wav.path,
                                                     "synth", "3", "sine", "200-3000", "synth", "3", "pinknoise", "mix", "gain", "-9"]).status == 0)
        #expect(try ToolRunner.run(try tool("lame"), ["--quiet", "-b", "8", "--resample", "24", wav.path, mp3.path]).status == 0)
        let whole = try SoundFile.decode(contentsOf: mp3).floatSamples()
        var worst: [Int: Float] = [:]
        for frame in [20_001, 36_000, 50_123, 70_000] where frame < whole.count {
            let decoder = try SoundFile.decoder(contentsOf: mp3)
            try decoder.seek(toFrame: frame)
            let got = try decoder.read(maxFrames: 4_608).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let want = Array(whole[frame..<min(whole.count, frame + 4_608)])
            #expect(got.count == want.count, "a seek to frame \(frame): \(got.count) samples, \(want.count) in order")
            worst[frame] = zip(got, want).map { abs($0 - $1) }.max() ?? 0
        }
        #expect(worst.values.allSatisfy { $0 <= 1e-6 }, "the largest difference after each seek: \(worst.sorted { $0.key < $1.key })")
    }

    @Test("truncated, garbage, non-audio and empty MP3 data give a typed error naming the file, never a crash")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let good = try Data(contentsOf: try encode(folder, "long", seconds: 10))
        let half = folder.file("half.mp3")
        try good.prefix(good.count / 2).write(to: half)
        let partial = try SoundFile.decode(contentsOf: half)
        #expect(partial.frameCount > 44_100 * 3 && partial.frameCount < 44_100 * 7, "what is there decodes: \(partial.frameCount)")
        let garbage = folder.file("garbage.mp3")
        try Data(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0x5A, count: 8_000)).write(to: garbage)
        expectError(.decodingFailed, mentioning: [garbage.path]) { _ = try SoundFile.decode(contentsOf: garbage) }
        let text = folder.file("notes.mp3")
        try Data("these are notes, not music".utf8).write(to: text)
        expectError(.decodingFailed, mentioning: [text.path, "not a WAV"]) { _ = try SoundFile.decode(contentsOf: text) }
        let sync = folder.file("sync.mp3")
        try Data([0xFF, 0xFB, 0x90, 0x00] + [UInt8](repeating: 0, count: 100)).write(to: sync)
        expectError(.decodingFailed, mentioning: [sync.path]) { _ = try SoundFile.decode(contentsOf: sync) }
    }
}
