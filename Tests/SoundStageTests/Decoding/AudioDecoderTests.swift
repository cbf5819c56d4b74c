import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("AudioDecoder: reading and seeking in every container")
struct AudioDecoderTests {
    /// Reads a decoder to the end in chunks of `chunk` frames.
    private func readAll(_ decoder: any AudioDecoder, chunk: Int) throws -> [UInt8] {
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
