import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Fault injection: the file of a streamed sound truncated or rewritten while it plays, and a
/// file truncated while it loads whole, 100 cycles each. A stream holds its file's bytes, so
/// what plays is untouched: the render is the same as with the file left alone. A mapped file
/// died of SIGBUS in both (the load, before its bytes were read rather than mapped).
@Suite("Fault injection: a file truncated or rewritten while it plays or loads")
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

    @Test("100 loads of a whole file truncated while it is read: the sound or a typed error naming the file, never SIGBUS")
    func fileTruncatedWhileLoading() throws {
        let folder = try TemporaryFolder()
        // 20 s of stereo 16-bit: 3.8 MB, a few milliseconds to read and convert.
        let audio = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32),
                                  samples: (0..<(48_000 * 40)).map { Float(sin(Double($0 / 2) * 2 * .pi * 440 / 48_000)) * 0.3 })
        let source = folder.file("long.wav")
        try audio.writeWAV(to: source, as: .pcm16)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int)
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        defer { engine.shutdown() }
        var loaded = 0, refused = 0
        for cycle in 0..<100 {
            let file = folder.file("load-\(cycle).wav")
            try FileManager.default.copyItem(at: source, to: file)
            // Cut at a point of the file, at a moment of the load: both move with the cycle.
            let cutTo = off_t(size * (cycle % 10) / 10)
            let delay = useconds_t(300 * (cycle / 10))
            let cutter = Thread {
                usleep(delay)
                _ = truncate(file.path, cutTo)
            }
            cutter.start()
            do {
                let sound = try Sound(engine: engine, contentsOf: file)
                #expect(sound.frameCount <= 48_000 * 20)
                loaded += 1
            } catch let error as SoundStageError {
                #expect(error.description.contains(file.lastPathComponent), "cycle \(cycle): \(error)")
                refused += 1
            }
            while !cutter.isFinished { usleep(100) }
            try FileManager.default.removeItem(at: file)
        }
        print("whole-file loads under truncation: \(loaded) loaded, \(refused) refused with a typed error")
        #expect(loaded + refused == 100)
    }
}
