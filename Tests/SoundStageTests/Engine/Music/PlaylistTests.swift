import Foundation
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// Playlists, heard offline: items of three formats back to back, each first frame right
/// after the last frame of the item before, sample for sample.
@Suite("Playlist: gapless, converted, repeated, skipped", .serialized)
struct PlaylistTests {
    /// Three items with a click on their first and last frames: a 48 kHz stereo WAV, a 48 kHz
    /// Ogg Vorbis (encoded by oggenc at test time) and a 44.1 kHz mono WAV.
    struct Items {
        let folder: TemporaryFolder
        let wav: URL, ogg: URL, other: URL
        static let wavFrames = 14_400, oggFrames = 19_200, otherFrames = 11_025

        init() throws {
            folder = try TemporaryFolder()
            wav = folder.file("a.wav")
            ogg = folder.file("b.ogg")
            other = folder.file("c.wav")
            func clicks(_ frames: Int, channels: Int, rate: Int) -> Data {
                var samples = [Float](repeating: 0, count: frames * channels)
                for c in 0..<channels {
                    samples[c] = 0.8
                    samples[(frames - 1) * channels + c] = 0.8
                }
                let format = RenderFormat(sampleRate: rate, channels: channels == 1 ? .mono : .stereo)
                return RenderedAudio(format: format, samples: samples).wavData(.pcm16)
            }
            try clicks(Self.wavFrames, channels: 2, rate: 48_000).write(to: wav)
            try clicks(Self.otherFrames, channels: 1, rate: 44_100).write(to: other)
            let source = folder.file("b-source.wav")
            try clicks(Self.oggFrames, channels: 2, rate: 48_000).write(to: source)
            let oggenc = try #require(ToolRunner.which("oggenc"), "oggenc is needed (scripts/test.sh installs vorbis-tools)")
            #expect(try ToolRunner.run(oggenc, ["-Q", "-q", "8", "-o", ogg.path, source.path]).status == 0)
        }

        func sounds(_ engine: AudioEngine, streamed: Bool) throws -> [Sound] {
            try [wav, ogg, other].map {
                streamed ? try Sound(engine: engine, streamingContentsOf: $0) : try Sound(engine: engine, contentsOf: $0)
            }
        }
    }

    /// The frame of the largest sample of `samples` within `range`.
    static func peak(_ samples: [Float], in range: Range<Int>) -> Int {
        range.clamped(to: 0..<samples.count).max { abs(samples[$0]) < abs(samples[$1]) } ?? -1
    }

    @Test("a WAV, an Ogg and a 44.1 kHz mono file play back to back: each item's first frame follows the last frame of the one before")
    func gapless() throws {
        let items = try Items()
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: try items.sounds(engine, streamed: true))
        #expect(playlist.sampleRate == 48_000)
        #expect(playlist.channels == .stereo)
        let otherFrames = Int((Double(Items.otherFrames) * 48_000 / 44_100).rounded(.up))
        #expect(playlist.itemFrameCounts == [Items.wavFrames, Items.oggFrames, otherFrames])
        let starts = playlist.itemStartFrames
        #expect(starts == [0, Items.wavFrames, Items.wavFrames + Items.oggFrames])

        try playlist.play()
        let total = starts[2] + otherFrames
        let left = try engine.render(frames: total + 4_800).channel(0)

        // The Ogg's clicks where its own decode puts them (Vorbis moves an impulse's peak a
        // little): the reference is SoundStage's Vorbis decoder, checked against oggdec.
        let oggDecoded = try SoundFile.decode(contentsOf: items.ogg).floatSamples().enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let oggFirst = Self.peak(oggDecoded, in: 0..<64), oggLast = Self.peak(oggDecoded, in: (Items.oggFrames - 64)..<Items.oggFrames)

        #expect(Self.peak(left, in: 0..<64) == 0, "the WAV's first click")
        #expect(Self.peak(left, in: (starts[1] - 64)..<starts[1]) == starts[1] - 1, "the WAV's last click, on its last frame")
        #expect(Self.peak(left, in: starts[1]..<(starts[1] + 64)) == starts[1] + oggFirst, "the Ogg's first click, on the next frame")
        #expect(Self.peak(left, in: (starts[2] - 64)..<starts[2]) == starts[1] + oggLast, "the Ogg's last click")
        #expect(Self.peak(left, in: starts[2]..<(starts[2] + 48)) == starts[2], "the 44.1 kHz item's first click, on the frame after the Ogg's last")
        let lastAt = starts[2] + Int((Double(Items.otherFrames - 1) * 48_000 / 44_100).rounded())
        #expect(Self.peak(left, in: (total - 64)..<total) == lastAt, "the 44.1 kHz item's last click, converted to 48 kHz")
        #expect(left[total...].allSatisfy { $0 == 0 }, "nothing after the last item")

        // Sample for sample what the playlist decodes: no gap, no overlap, nothing lost.
        let decoded = try PlaylistDecoder(plan: playlist.plan).readAllFloats()
        #expect(decoded.count == total * 2)
        let decodedLeft = stride(from: 0, to: decoded.count, by: 2).map { decoded[$0] }
        let worst = zip(decodedLeft, left).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6, "the render differs from the playlist's decode by \(worst)")
    }

    @Test("loaded and streamed items play the same samples; a seek into any item reads what playing through reads")
    func loadedEqualsStreamedAndSeeks() throws {
        let items = try Items()
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let streamed = try Playlist(engine: engine, items: try items.sounds(engine, streamed: true))
        let loaded = try Playlist(engine: engine, items: try items.sounds(engine, streamed: false))
        let a = try PlaylistDecoder(plan: streamed.plan).readAllFloats()
        let b = try PlaylistDecoder(plan: loaded.plan).readAllFloats()
        #expect(a == b)
        for frame in [0, 1, 14_399, 14_400, 20_000, 33_599, 33_600, 33_601, 40_000, streamed.plan.frameCount - 1] {
            let decoder = PlaylistDecoder(plan: streamed.plan)
            try decoder.seek(toFrame: frame)
            let part = try decoder.readAllFloats()
            #expect(part == Array(a[(frame * 2)...]), "a seek to frame \(frame)")
        }
    }

    @Test("item events come in order, heard: started and ended for each item, then finished")
    func events() throws {
        let items = try Items()
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: try items.sounds(engine, streamed: true))
        let log = PlaylistLog()
        playlist.delegate = log
        try playlist.play()
        _ = try engine.render(frames: 48_000)
        #expect(log.events == [.itemStarted(index: 0), .itemEnded(index: 0), .itemStarted(index: 1), .itemEnded(index: 1),
                               .itemStarted(index: 2), .itemEnded(index: 2), .finished])
        #expect(!playlist.isPlaying)
    }

    @Test("repeat one plays the item again from its first frame; repeat all goes from the last item to the first")
    func repeats() throws {
        let items = try Items()
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: try items.sounds(engine, streamed: true))
        let starts = playlist.itemStartFrames, counts = playlist.itemFrameCounts
        let log = PlaylistLog()
        playlist.delegate = log
        playlist.repeatMode = .one
        try playlist.play()
        // Into the third play, short of the fourth.
        let left = try engine.render(frames: 3 * counts[0] - 2_400).channel(0)
        for k in 0..<3 {
            #expect(Self.peak(left, in: (k * counts[0])..<(k * counts[0] + 32)) == k * counts[0], "play \(k + 1) of item 0 starts on its frame")
        }
        #expect(log.events.filter { $0 == .itemStarted(index: 0) }.count == 3)
        #expect(playlist.currentItemIndex == 0)

        playlist.stop()
        try playlist.seek(toItem: 2)
        playlist.repeatMode = .all
        try playlist.play()
        let wrap = try engine.render(frames: counts[2] + 64).channel(0)
        #expect(Self.peak(wrap, in: (counts[2] - 8)..<(counts[2] + 32)) == counts[2], "item 0 follows item 2 on the next frame")
        #expect(playlist.currentItemIndex == 0)
        #expect(starts[0] == 0)
    }

    @Test("skip, previous and seek move between items, playing or not")
    func skipping() throws {
        let items = try Items()
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: try items.sounds(engine, streamed: true))
        let starts = playlist.itemStartFrames
        try playlist.play()
        _ = try engine.render(frames: 4_800)
        #expect(playlist.currentItemIndex == 0)
        try playlist.skipToNextItem()
        #expect(playlist.currentItemIndex == 1)
        #expect(playlist.player.currentFrame == starts[1])
        let left = try engine.render(frames: 480).channel(0)
        let oggFirst = Self.peak(left, in: 0..<64)
        #expect(oggFirst < 8, "the Ogg's first click plays right after the skip (at \(oggFirst))")
        try playlist.skipToNextItem()
        #expect(playlist.currentItemIndex == 2)
        try playlist.skipToPreviousItem()
        #expect(playlist.currentItemIndex == 1)
        try playlist.seek(toItem: 2, time: 0.1)
        #expect(playlist.player.currentFrame == starts[2] + 4_800)
        #expect(abs(playlist.currentItemTime - 0.1) < 1e-9)
        try playlist.skipToBeginning()
        #expect(playlist.player.currentFrame == starts[2])
        try playlist.skipToNextItem()
        #expect(!playlist.isPlaying, "skipping past the last item with no repeat stops")
        #expect(playlist.player.currentFrame == 0)
        #expect(throws: SoundStageError.self) { try playlist.seek(toItem: 3) }
        #expect(throws: SoundStageError.self) { try playlist.seek(toItem: 0, time: 1) }
    }

    @Test("a playlist of nothing, or of an empty sound, is refused with a typed error")
    func refusals() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        #expect(throws: SoundStageError.self) { try Playlist(engine: engine, items: []) }
        let empty = try Sound(engine: engine, streamingData: EngineRig.wav([], channels: .mono), name: "empty.wav")
        let error = try #require(throws: SoundStageError.self) { try Playlist(engine: engine, items: [empty]) }
        #expect(error.description.contains("empty"))
    }

    @Test("the resampler takes a 1 kHz tone from 44.1 to 48 kHz and back above 80 dB SNR")
    func resamplerQuality() throws {
        for (from, to) in [(44_100, 48_000), (48_000, 44_100), (22_050, 48_000)] {
            let tone = (0..<from).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / Double(from))) }
            let decoder = ConvertingDecoder(SampleArrayDecoder(samples: tone, channels: .mono, sampleRate: from),
                                            sampleRate: to, channels: .mono, label: "tone")
            let out = try decoder.readAllFloats()
            #expect(out.count == ResamplingKernel.outputFrames(for: from, inRate: from, outRate: to))
            let ideal = (0..<out.count).map { Float(0.5 * sin(2 * Double.pi * 1_000 * Double($0) / Double(to))) }
            // Away from the ends, where the filter reaches past the tone.
            let middle = (to / 10)..<(out.count - to / 10)
            let snr = Measure.snrDB(Array(out[middle]), against: Array(ideal[middle]), count: middle.count)
            #expect(snr > 80, "\(from) → \(to) Hz: \(snr) dB")
        }
    }
}


extension AudioDecoder {
    /// Everything from the position to the end (or 10 M samples), as Float32.
    func readAllFloats() throws -> [Float] {
        var out: [Float] = []
        while out.count < 10_000_000 {
            let bytes = try read(maxFrames: 4_096)
            if bytes.isEmpty { break }
            out += outputFormat.floatSamples(bytes)
        }
        return out
    }
}
