import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// A playlist of streamed items with a damaged one in the middle: it plays every frame of the
/// damaged item that decodes, reports the damage naming it, and goes on with the next item,
/// gaplessly, its item events balanced.
@Suite("Playlist with a damaged item: every frame that decodes, then the next item, gapless")
struct PlaylistDamageTests {
    static let rate = 48_000

    /// Items a and c are stretches of the sequence signal (frames 0..<48,000 and
    /// 144,000..<192,000); `middle` is the damaged item. Renders the playlist and returns the
    /// render frame item a began on, the stretch heard from there on, the render frame item c
    /// began on, the events, and the player's decode errors.
    ///
    /// Where two stretches of the signal abut, each may seem to run a frame or two into the
    /// other (a frame's sign matches either with even odds): item c's first frame is where its
    /// stretch puts signal frame 144,000.
    static func play(middle: URL) throws -> (a: SequenceLocator.Stretch, cStart: Int, playlist: [PlaylistEvent], player: [String]) {
        let folder = try TemporaryFolder()
        let locator = SequenceLocator()
        let a = folder.file("a.wav"), c = folder.file("c.wav")
        try locator.wav(rate: rate, frames: 0..<48_000).write(to: a)
        try locator.wav(rate: rate, frames: 144_000..<192_000).write(to: c)
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: try [a, middle, c].map { try Sound(engine: engine, streamingContentsOf: $0) })
        let events = PlaylistLog(), errors = EventLog()
        playlist.delegate = events
        playlist.player.delegate = errors
        try playlist.play()
        let audio = try engine.render(frames: 5 * rate).channel(0)
        let heard = locator.stretches(in: audio)
        let first = try #require(heard.first { $0.position == 0 }, "item a is heard from its first frame: \(heard)")
        let last = try #require(heard.first { (143_990...144_000).contains($0.position) }, "item c is heard from its first frame: \(heard)")
        #expect(last.end - last.start - (144_000 - last.position) == 48_000, "item c whole: \(last)")
        return (first, last.start + 144_000 - last.position, events.events, errors.events)
    }

    static let balanced: [PlaylistEvent] = [.itemStarted(index: 0), .itemEnded(index: 0), .itemStarted(index: 1), .itemEnded(index: 1),
                                            .itemStarted(index: 2), .itemEnded(index: 2), .finished]

    @Test("a FLAC cut at 65 % between two items: every frame of it that decodes, then the next item at the very next frame")
    func truncatedFLAC() throws {
        let folder = try TemporaryFolder()
        let source = folder.file("b.wav")
        try SequenceLocator().wav(rate: Self.rate, frames: 48_000..<144_000).write(to: source)
        let cut = try DamagedFiles.truncated(try DamagedFiles.encode(source, to: "flac"), to: 0.65, as: "cut.flac")
        let decodable = try SoundFile.decode(contentsOf: cut).frameCount
        let heard = try Self.play(middle: cut)
        // Item a and the damaged item are one run of the signal, every decodable frame of it,
        // and item c follows at the very next frame.
        #expect(heard.cStart - heard.a.start == 48_000 + decodable, "item c begins \(heard.cStart - heard.a.start - 48_000) frames into the damaged item; \(decodable) of it decode")
        #expect(heard.a.end >= heard.cStart, "the damaged item is heard to its last decodable frame: \(heard.a), item c at \(heard.cStart)")
        #expect(heard.player.contains { $0.hasPrefix("decodeError") && $0.contains("cut.flac") }, "the damage names the item: \(heard.player)")
        #expect(heard.player.last == "finished(true)", "\(heard.player)")
        #expect(heard.playlist == Self.balanced, "\(heard.playlist)")
    }

    @Test("an item nothing of which decodes, its playlist repeating: the other items play round, nothing spins; a looping stream of it ends")
    func nothingDecodes() throws {
        let folder = try TemporaryFolder()
        let flac = try DamagedFiles.encode(try DamagedFiles.tone(folder, "tone.wav", seconds: 1), to: "flac")
        // The header whole, everything after it garbage.
        let bad = try DamagedFiles.garbled(flac, offset: try DamagedFiles.flacAudioStart(flac), bytes: 1 << 20, as: "bad.flac")
        let a = folder.file("a.wav")
        try SequenceLocator().wav(rate: Self.rate, frames: 0..<24_000).write(to: a)
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sounds = try [a, bad].map { try Sound(engine: engine, streamingContentsOf: $0) }
        let playlist = try Playlist(engine: engine, items: sounds)
        playlist.repeatMode = .all
        try playlist.play()
        let audio = try engine.render(frames: 2 * Self.rate).channel(0)
        let runs = SequenceLocator().stretches(in: audio).filter { $0.position == 0 }
        #expect(runs.count >= 3, "item a plays round and round: \(runs)")
        let looping = engine.makePlayer(sounds[1])
        looping.numberOfLoops = -1
        let log = EventLog()
        looping.delegate = log
        do {
            try looping.play()
            _ = try engine.render(frames: Self.rate / 2)
            #expect(!looping.isPlaying && log.events.contains { $0.hasPrefix("finished") }, "\(log.events)")
        } catch let error as SoundStageError {
            // Nothing to play at all: refused at once, naming the file.
            #expect(error.code == .decodingFailed && "\(error)".contains("bad.flac"), "\(error)")
        }
    }

    @Test("an Ogg Vorbis item with 2 kB of garbage in the middle: the gap skipped, every frame after it, then the next item")
    func garbledVorbis() throws {
        let folder = try TemporaryFolder()
        let ogg = try DamagedFiles.encode(try DamagedFiles.tone(folder, "b.wav", seconds: 2, noise: true), to: "ogg")
        let bad = try DamagedFiles.garbled(ogg, at: 0.5, bytes: 2_048, as: "bad.ogg")
        let decodable = try SoundFile.decode(contentsOf: bad).frameCount
        let heard = try Self.play(middle: bad)
        #expect(heard.a.end - heard.a.start >= 48_000)
        #expect(heard.cStart - (heard.a.start + 48_000) == decodable, "item c begins \(heard.cStart - heard.a.start - 48_000) frames after item a; \(decodable) decode between")
        #expect(heard.player.contains { $0.hasPrefix("decodeError") && $0.contains("bad.ogg") }, "the damage names the item: \(heard.player)")
        #expect(heard.playlist == Self.balanced, "\(heard.playlist)")
    }
}
