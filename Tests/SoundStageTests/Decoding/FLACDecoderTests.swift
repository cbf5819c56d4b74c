import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("FLACDecoder: bit-exact against flac -d, seeks to the frame, streamed as loaded")
struct FLACDecoderTests {
    private func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox and flac)")
    }

    /// Encodes `wav` with flac and decodes it back with flac -d; returns both files.
    private func encode(_ folder: TemporaryFolder, _ wav: URL) throws -> (flac: URL, reference: URL) {
        let flac = wav.deletingPathExtension().appendingPathExtension("flac")
        let reference = folder.file(wav.deletingPathExtension().lastPathComponent + "-decoded.wav")
        #expect(try ToolRunner.run(try tool("flac"), ["-s", "-f", "-o", flac.path, wav.path]).status == 0)
        #expect(try ToolRunner.run(try tool("flac"), ["-s", "-d", "-f", "-o", reference.path, flac.path]).status == 0)
        return (flac, reference)
    }

    @Test("16-bit stereo, 24-bit mono and 5.1 decode bit for bit as flac -d does, with its frame count and rate", arguments: [
        ["-r", "48000", "-c", "2", "-b", "16", "synth", "3", "sine", "440", "sine", "660", "gain", "-3"],
        ["-r", "44100", "-c", "1", "-b", "24", "synth", "2", "pinknoise", "gain", "-6"],
        ["-r", "48000", "-c", "6", "-b", "16", "synth", "1", "sine", "200", "sine", "300", "sine", "400", "sine", "50", "sine", "600", "sine", "700"],
    ])
    func bitExact(synth: [String]) throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("source.wav")
        #expect(try ToolRunner.run(try tool("sox"), ["-n"] + Array(synth.prefix(6)) + [wav.path] + Array(synth.dropFirst(6))).status == 0)
        let (flac, reference) = try encode(folder, wav)
        let ours = try SoundFile.decode(contentsOf: flac), theirs = try SoundFile.decode(contentsOf: reference)
        #expect(ours.container == .flac && ours.encoding == "flac")
        #expect(ours.frameCount == theirs.frameCount && ours.sampleRate == theirs.sampleRate && ours.channels == theirs.channels,
                "\(ours.frameCount) frames at \(ours.sampleRate) Hz, flac -d: \(theirs.frameCount) at \(theirs.sampleRate)")
        let a = ours.floatSamples(), b = theirs.floatSamples()
        #expect(a.count == b.count && a == b, "every sample as flac -d decodes it (\(zip(a, b).filter { $0 != $1 }.count) differ)")
    }

    @Test("a seek lands on the exact frame, from anywhere, and a stream equals the loaded sound sample for sample")
    func seeksAndStreams() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("noise.wav")
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "48000", "-c", "2", "-b", "16", wav.path, "synth", "4", "whitenoise", "gain", "-10"]).status == 0)
        let (flac, _) = try encode(folder, wav)
        let whole = try SoundFile.decode(contentsOf: flac)
        let bytes = whole.floatSamples()
        let decoder = try SoundFile.decoder(contentsOf: flac)
        for frame in [150_000, 12_345, 0, 4_096, 191_999, 100_000] {
            try decoder.seek(toFrame: frame)
            let got = try decoder.read(maxFrames: 1_000)
            let floats = got.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Float($0) / 32_768 }
            let end = min(bytes.count, (frame + 1_000) * 2)
            #expect(floats == Array(bytes[(frame * 2)..<end]), "a seek to frame \(frame)")
        }
        expectError(.invalidArgument) { try decoder.seek(toFrame: 192_001) }

        let loaded = try EngineRig.renderFile(flac, streamed: false, seconds: 4.1), streamed = try EngineRig.renderFile(flac, streamed: true, seconds: 4.1)
        #expect(loaded == streamed && Measure.dB(loaded) > -30, "streamed equals loaded (\(zip(loaded, streamed).filter { $0 != $1 }.count) samples differ)")
    }

    @Test("truncated, lying, non-audio and empty FLAC data give a typed error naming the file, never a crash")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("t.wav")
        #expect(try ToolRunner.run(try tool("sox"), ["-n", "-r", "22050", "-c", "1", "-b", "16", wav.path, "synth", "20", "sine", "300"]).status == 0)
        let (flac, _) = try encode(folder, wav)
        let good = try Data(contentsOf: flac)
        let headers = folder.file("headers.flac")
        try good.prefix(30).write(to: headers)
        expectError(.decodingFailed, mentioning: [headers.path]) { _ = try SoundFile.decode(contentsOf: headers) }
        let half = folder.file("half.flac")
        try good.prefix(good.count / 2).write(to: half)
        let partial = try SoundFile.decode(contentsOf: half)
        #expect(partial.frameCount > 22_050 * 5 && partial.frameCount < 22_050 * 20, "what is there decodes: \(partial.frameCount) frames")
        let garbage = folder.file("garbage.flac")
        try Data(Array("fLaC".utf8) + [UInt8](repeating: 0xA5, count: 4_000)).write(to: garbage)
        expectError(.decodingFailed, mentioning: [garbage.path]) { _ = try SoundFile.decode(contentsOf: garbage) }
        // A STREAMINFO that claims far more frames than the bytes hold.
        var lying = good
        // STREAMINFO's 36-bit total: the low nibble of byte 21 and bytes 22-25.
        lying[21] = (lying[21] & 0xF0) | 0x0F
        for i in 22...25 { lying[i] = 0xFF }
        let liar = folder.file("liar.flac")
        try lying.write(to: liar)
        let decoded = try SoundFile.decode(contentsOf: liar)
        #expect(decoded.frameCount == 22_050 * 20, "only what is there: \(decoded.frameCount)")
        let empty = folder.file("empty.flac")
        try Data().write(to: empty)
        expectError(.decodingFailed, mentioning: [empty.path]) { _ = try SoundFile.decode(contentsOf: empty) }
    }
}
