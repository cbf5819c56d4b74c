import Foundation
import SoundStage
import Testing

/// Fault injection: the file of a streamed sound truncated or rewritten while it plays, 100
/// cycles. A stream holds its file's bytes, so what plays is untouched: the render is the
/// same as with the file left alone (a mapped file died of SIGBUS here).
@Suite("Fault injection: a streamed file truncated or rewritten while it plays")
struct FaultInjectionStreamTests {
    @Test("100 cycles of WAV and Ogg Vorbis streams whose file is cut or overwritten mid-play: the render is unchanged")
    func fileChangedUnderAStream() throws {
        let folder = try TemporaryFolder()
        let source = folder.file("tone.wav")
        let audio = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32),
                                  samples: (0..<(48_000 * 2)).map { Float(sin(Double($0 / 2) * 2 * .pi * 440 / 48_000)) * 0.3 })
        try audio.writeWAV(to: source, as: .pcm16)
        let ogg = folder.file("tone.ogg")
        _ = try ToolRunner.run(try #require(ToolRunner.which("oggenc")), ["-Q", "-o", ogg.path, source.path])
        func render(_ original: URL, cycle: Int, change: ((URL) throws -> Void)?) throws -> [Float] {
            let file = folder.file("play-\(cycle)." + original.pathExtension)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.copyItem(at: original, to: file)
            let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
            defer { engine.shutdown() }
            let player = engine.makePlayer(try Sound(engine: engine, streamingContentsOf: file))
            try player.play()
            var samples = try engine.render(frames: 4_800 + 480 * (cycle % 10)).samples
            try change?(file)
            samples += try engine.render(frames: 24_000).samples
            return samples
        }
        for cycle in 0..<100 {
            let original = cycle % 2 == 0 ? source : ogg
            let untouched = try render(original, cycle: cycle, change: nil)
            let changed = try render(original, cycle: cycle) { file in
                switch cycle % 4 {
                case 0, 1: #expect(truncate(file.path, off_t(cycle * 7)) == 0)
                case 2: try Data(repeating: UInt8(cycle), count: 20_000).write(to: file)
                default: try FileManager.default.removeItem(at: file)
                }
            }
            #expect(changed == untouched, "cycle \(cycle) (\(original.lastPathComponent)): the render changed with the file")
        }
    }
}
