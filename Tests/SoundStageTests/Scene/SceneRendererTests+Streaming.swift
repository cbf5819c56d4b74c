import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// A render handed out as it is made (`SceneRenderer.renderStreaming`), written with
/// `AudioFileOutput` and measured with `LevelGraph`: the same samples as a render kept whole,
/// in pieces of about a second, so that what a render holds does not grow with its duration.
@Suite("Scene renders streamed: the same samples in pieces of a second, written and measured as they come")
struct SceneStreamingTests {
    /// A 7.25 s stereo scene: a looping tone to the right, a second one starting at 3.3 s.
    static let scene = try! SceneDescription.parse(Data(#"""
        {"sampleRate": 48000, "channels": "stereo", "duration": 7.25,
         "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 0.5}, "position": [2, 0, 0], "loops": 20},
                     {"sound": {"tone": "square", "frequency": 220, "duration": 1}, "position": [-1, 0, -1], "start": 3.3}]}
        """#.utf8))

    @Test("the pieces, in order, are the whole render's samples; each is about a second (at most one 10 ms tick over)")
    func piecesAreTheWhole() throws {
        let whole = try SceneRenderer(scene: Self.scene).render()
        var pieces: [RenderedAudio] = []
        let render = try SceneRenderer(scene: Self.scene).renderStreaming { pieces.append($0) }
        #expect(render.audio.samples.isEmpty && render.audio.format == whole.format, "the render keeps no samples")
        #expect(pieces.count == 8, "seven whole seconds and the rest: \(pieces.map(\.frameCount))")
        #expect(pieces.dropLast().allSatisfy { (48_000...48_480).contains($0.frameCount) }, "\(pieces.map(\.frameCount))")
        #expect(pieces.reduce(0) { $0 + $1.frameCount } == 348_000)
        #expect(pieces.flatMap(\.samples) == whole.samples, "the same samples, sample for sample")
        #expect(render.voiceCounts.count > 700 && render.peakReal == 2)
    }

    @Test("a LevelGraph filled piece by piece gives the levels and the 20 ms windows of the whole")
    func levelsPieceByPiece() throws {
        var pieces: [RenderedAudio] = []
        _ = try SceneRenderer(scene: Self.scene).renderStreaming { pieces.append($0) }
        let whole = RenderedAudio(format: pieces[0].format, samples: pieces.flatMap(\.samples))
        var graph = ScenePlot.levelGraph(channels: .stereo, sampleRate: 48_000)
        for piece in pieces { graph.add(piece) }
        #expect(graph.frameCount == whole.frameCount)
        let (a, b) = (graph.levels, whole.levels())
        #expect(zip(a, b).allSatisfy { abs($0.peak - $1.peak) < 1e-9 && abs($0.rms - $1.rms) < 1e-6 }, "\(a) against \(b)")
        let windows = whole.levels(windowFrames: 960)
        #expect(graph.windows.count == windows.count && graph.windows.count == 362)
        #expect(zip(graph.windows, windows).allSatisfy { w, v in zip(w, v).allSatisfy { $0.peak == $1.peak && abs($0.rms - $1.rms) < 1e-6 } })
        // Before the second source starts (3.3 s), the tone to the right is louder on the right.
        let early = graph.windows[10..<150]
        let (left, right) = (early.map { $0[0].rms }.reduce(0, +) / 140, early.map { $0[1].rms }.reduce(0, +) / 140)
        #expect(right > left + 3, "the tone to the right: left \(left) dB, right \(right) dB")
        let picture = ScenePlot.svg(scene: Self.scene, levels: graph, sampleRate: 48_000, realFractions: nil)
        #expect(picture == ScenePlot.svg(scene: Self.scene, audio: whole, realFractions: nil), "the same picture from the graph as from the samples")
    }

    @Test("AudioFileOutput: a file written piece by piece is the file written whole; unfinished or cancelled, nothing is left")
    func fileOutput() throws {
        let folder = try TemporaryFolder()
        var pieces: [RenderedAudio] = []
        _ = try SceneRenderer(scene: Self.scene).renderStreaming { pieces.append($0) }
        let whole = RenderedAudio(format: pieces[0].format, samples: pieces.flatMap(\.samples))
        for name in ["a.wav", "a.caf"] {
            let output = try AudioFileOutput(url: folder.file("streamed-" + name), format: whole.format)
            for piece in pieces { try output.append(piece) }
            #expect(!FileManager.default.fileExists(atPath: folder.file("streamed-" + name).path), "not there before it is finished")
            try output.finish()
            try whole.write(to: folder.file("whole-" + name))
            let (streamed, written) = (try Data(contentsOf: folder.file("streamed-" + name)), try Data(contentsOf: folder.file("whole-" + name)))
            #expect(streamed == written, "\(name): \(streamed.count) bytes against \(written.count)")
        }
        do {
            let output = try AudioFileOutput(url: folder.file("dropped.wav"), format: whole.format)
            try output.append(pieces[0])
        }
        let cancelled = try AudioFileOutput(url: folder.file("cancelled.ogg"), format: whole.format)
        try cancelled.append(pieces[0])
        cancelled.cancel()
        #expect(throws: SoundStageError.self) { try cancelled.append(pieces[1]) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(left == ["streamed-a.caf", "streamed-a.wav", "whole-a.caf", "whole-a.wav"], "\(left)")
        let mono = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono), samples: [0, 0])
        let checked = try AudioFileOutput(url: folder.file("checked.wav"), format: whole.format)
        #expect(throws: SoundStageError.self) { try checked.append(mono) }
        #expect(throws: SoundStageError.self) { try checked.append(samples: [0, 0, 0]) }
        #expect(throws: SoundStageError.self) { try AudioFileOutput(url: folder.file("x.mp3"), format: whole.format) }
        for rate in [0, -48_000, 768_001, Int.max, Int.min] {
            #expect(throws: SoundStageError.self, "\(rate) Hz") { try AudioFileOutput(url: folder.file("rate.wav"), format: RenderFormat(sampleRate: rate)) }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("rate.wav").path))
    }
}
