import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("VorbisDecoder: Ogg Vorbis")
struct VorbisDecoderTests {
    private func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox and vorbis-tools)")
    }

    @Test("a stereo Ogg Vorbis file decodes to oggdec's samples within 60 dB SNR, with its frame count and rate")
    func matchesOggdec() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("tone.wav"), ogg = folder.file("tone.ogg"), raw = folder.file("tone.raw")
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "1.5", "sine", "440", "sine", "660", "gain", "-3"]).status == 0)
        #expect(try ToolRunner.run(try tool("oggenc"), ["-Q", "-q", "6", "-o", ogg.path, wav.path]).status == 0)
        #expect(try ToolRunner.run(try tool("oggdec"), ["-Q", "-R", "-o", raw.path, ogg.path]).status == 0)

        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: ogg)
        #expect(buffer.channelCount == 2 && buffer.sampleRate == 44_100 && buffer.label == "tone.ogg")
        let ours = buffer.floatSamples()
        let reference = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Float($0) / 32_768 }
        #expect(ours.count == reference.count, "frames: ours \(ours.count / 2), oggdec \(reference.count / 2)")
        let snr = Measure.snrDB(ours, against: reference, count: min(ours.count, reference.count))
        #expect(snr >= 60, "SNR against oggdec: \(snr) dB")
        #expect(buffer.frameCount == 66_150, "1.5 s at 44.1 kHz")
    }

    @Test("a 5.1 Vorbis file comes out in OpenAL's channel order")
    func surroundOrder() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("six.wav"), ogg = folder.file("six.ogg")
        // Only the WAV centre channel (index 2 in WAV and OpenAL order) carries a tone.
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "48000", "-c", "6", "-b", "16", wav.path, "synth", "0.5", "sine", "1000", "remix", "0", "0", "1", "0", "0", "0"]).status == 0)
        #expect(try ToolRunner.run(try tool("oggenc"), ["-Q", "-o", ogg.path, wav.path]).status == 0)
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: ogg)
        #expect(buffer.format.channels == .surround51)
        let samples = buffer.floatSamples()
        let levels = (0..<6).map { c in Measure.dB(stride(from: c, to: samples.count, by: 6).map { samples[$0] }) }
        let loudest = levels.indices.max { levels[$0] < levels[$1] }!
        #expect(loudest == 2, "levels per OpenAL channel: \(levels)")
    }

    @Test("damaged, truncated and non-audio data give a typed error naming the file, never a crash")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("t.wav"), ogg = folder.file("t.ogg")
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "22050", "-c", "1", "-b", "16", wav.path, "synth", "60", "sine", "300"]).status == 0)
        #expect(try ToolRunner.run(try tool("oggenc"), ["-Q", "-o", ogg.path, wav.path]).status == 0)
        let good = try Data(contentsOf: ogg)
        let scene = try LoopbackRig()

        // Cut inside the headers: no stream at all.
        let headersOnly = folder.file("headers.ogg")
        try good.prefix(200).write(to: headersOnly)
        expectError(.decodingFailed, mentioning: [headersOnly.path]) { _ = try AudioBuffer(context: scene.context, contentsOf: headersOnly) }

        // Cut in the middle of the audio: what is there decodes, and no more.
        let half = folder.file("half.ogg")
        try good.prefix(good.count / 2).write(to: half)
        let partial = try AudioBuffer(context: scene.context, contentsOf: half)
        #expect(partial.frameCount > 22_050 * 20 && partial.frameCount < 22_050 * 60, "\(partial.frameCount) of \(22_050 * 60) frames")

        // "OggS" and then garbage.
        let garbage = folder.file("garbage.ogg")
        try Data(Array("OggS".utf8) + [UInt8](repeating: 0x5A, count: 4_000)).write(to: garbage)
        expectError(.decodingFailed, mentioning: [garbage.path]) { _ = try AudioBuffer(context: scene.context, contentsOf: garbage) }

        expectError(.decodingFailed, mentioning: ["in-memory data (notes)", "not a WAV, AIFF, CAF, Ogg Vorbis, Ogg Opus, FLAC or MP3"]) {
            _ = try AudioBuffer(context: scene.context, data: Data("some text, not audio".utf8), label: "notes")
        }
        expectError(.decodingFailed, mentioning: ["empty"]) { _ = try AudioBuffer(context: scene.context, data: Data(), label: nil) }
        expectError(.fileAccess, mentioning: ["no-such.ogg"]) {
            _ = try AudioBuffer(context: scene.context, contentsOf: folder.file("no-such.ogg"))
        }
    }
}
