import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Files that do not decode whole say so: what decoded is kept, and the damage (frames
/// stated, frames delivered, where and why) is on the SoundFile, the Sound and the buffer,
/// and reported by a player that streams it.
@Suite("Decode damage: a partial decode never passes silently")
struct DecodeDamageTests {
    @Test("files that decode whole, in every codec, have no damage", arguments: ["wav", "flac", "ogg", "mp3"])
    func whole(ext: String) throws {
        let folder = try TemporaryFolder()
        let wav = try DamagedFiles.tone(folder, "tone.wav", seconds: 2)
        let file = ext == "wav" ? wav : try DamagedFiles.encode(wav, to: ext)
        let decoded = try SoundFile.decode(contentsOf: file)
        #expect(decoded.damage == nil, "\(file.lastPathComponent): \(String(describing: decoded.damage))")
        #expect(try SoundFile.decoder(contentsOf: file).damage.isEmpty)
    }

    @Test("a FLAC cut at 65 %: what decodes is kept, and the damage says 96,000 frames stated and how many came")
    func truncatedFLAC() throws {
        let folder = try TemporaryFolder()
        let flac = try DamagedFiles.encode(try DamagedFiles.tone(folder, "tone.wav", seconds: 2), to: "flac")
        let cut = try DamagedFiles.truncated(flac, to: 0.65, as: "cut.flac")
        let decoded = try SoundFile.decode(contentsOf: cut)
        let found = decoded.damage
        let damage = try #require(found, "a truncated FLAC reports its damage")
        #expect(damage.framesStated == 96_000 && damage.framesDelivered == decoded.frameCount && decoded.frameCount < 96_000, "\(damage)")
        let span = try #require(damage.spans.last)
        #expect(span.kind == .cutShort && span.frame == decoded.frameCount && span.framesLost == 96_000 - decoded.frameCount, "\(span)")
        // The same on the sound a game loads, and on its buffer.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try Sound(engine: engine, contentsOf: cut)
        #expect(sound.damage == damage && sound.buffer?.damage == damage)
        #expect(sound.frameCount == decoded.frameCount)
    }

    @Test("a FLAC with damaged frames (flac -t reports LOST_SYNC): a damaged span where libFLAC lost its sync")
    func damagedFLAC() throws {
        let folder = try TemporaryFolder()
        let flac = try DamagedFiles.encode(try DamagedFiles.tone(folder, "tone.wav", seconds: 2), to: "flac")
        let bad = try DamagedFiles.garbled(flac, at: 0.5, bytes: 2_048, as: "bad.flac")
        let check = try ToolRunner.run(try DamagedFiles.tool("flac"), ["-t", bad.path])
        #expect(check.status != 0, "the reference decoder finds the damage: \(check.stderr)")
        let decoded = try SoundFile.decode(contentsOf: bad)
        let found = decoded.damage
        let damage = try #require(found, "a damaged FLAC reports its damage")
        #expect(damage.spans.contains { $0.kind == .damaged && $0.reason.contains("libFLAC") }, "\(damage)")
        #expect(damage.framesStated == 96_000, "\(damage)")
    }

    @Test("an MP3 with 20 kB of garbage mid-file (past what libmpg123 resyncs over): cut short, and said so")
    func garbledMP3() throws {
        let folder = try TemporaryFolder()
        let mp3 = try DamagedFiles.encode(try DamagedFiles.tone(folder, "tone.wav", seconds: 4), to: "mp3")
        let intact = try SoundFile.decode(contentsOf: mp3)
        let bad = try DamagedFiles.garbled(mp3, at: 0.5, bytes: 20_000, as: "bad.mp3")
        let decoded = try SoundFile.decode(contentsOf: bad), found = decoded.damage
        let damage = try #require(found, "a garbled MP3 reports its damage (\(decoded.frameCount) of \(intact.frameCount) frames decoded)")
        #expect(damage.spans.contains { $0.kind == .cutShort && $0.reason.contains("libmpg123") }, "\(damage)")
        #expect(decoded.frameCount < intact.frameCount)
    }

    @Test("an Ogg Vorbis file with 2 kB of garbage in the middle: the gap is skipped and noted")
    func garbledVorbis() throws {
        let folder = try TemporaryFolder()
        let ogg = try DamagedFiles.encode(try DamagedFiles.tone(folder, "noise.wav", seconds: 4, noise: true), to: "ogg")
        let bad = try DamagedFiles.garbled(ogg, at: 0.5, bytes: 2_048, as: "bad.ogg")
        let decoded = try SoundFile.decode(contentsOf: bad)
        let found = decoded.damage
        let damage = try #require(found, "a garbled Ogg Vorbis file reports its damage")
        #expect(damage.spans.contains { $0.kind == .damaged && $0.reason.contains("OV_HOLE") }, "\(damage)")
        #expect(decoded.frameCount > 48_000 * 3, "what follows the gap decodes too: \(decoded.frameCount) frames")
    }

    @Test("a WAV whose data was cut: its header's length against what is there, loaded and streamed")
    func truncatedWAV() throws {
        let folder = try TemporaryFolder()
        let cut = try DamagedFiles.truncated(try DamagedFiles.tone(folder, "tone.wav", seconds: 1), to: 0.5, as: "cut.wav")
        let decoded = try SoundFile.decode(contentsOf: cut)
        let found = decoded.damage
        let damage = try #require(found)
        #expect(damage.framesStated == 48_000 && damage.framesDelivered == decoded.frameCount && decoded.frameCount < 24_000, "\(damage)")
        // Streamed, the player reports it as it reaches the end, having played all there is.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try Sound(engine: engine, streamingContentsOf: cut)
        #expect(sound.damage?.framesStated == 48_000, "known from the header: \(String(describing: sound.damage))")
        let player = engine.makePlayer(sound)
        let log = EventLog()
        player.delegate = log
        try player.play()
        let audio = try engine.render(frames: 48_000).channel(0)
        let heard = audio.lastIndex { abs($0) > 1e-3 } ?? 0
        #expect(abs(heard - decoded.frameCount) < 64, "played to frame \(heard) of the \(decoded.frameCount) there are")
        #expect(log.events.contains { $0.hasPrefix("decodeError") && $0.contains("cut.wav") && $0.contains("cut short") }, "\(log.events)")
    }

    @Test("a streamed Ogg Vorbis file with a gap: the player reports it and plays on to the end")
    func streamedGap() throws {
        let folder = try TemporaryFolder()
        let ogg = try DamagedFiles.encode(try DamagedFiles.tone(folder, "noise.wav", seconds: 4, noise: true), to: "ogg")
        let bad = try DamagedFiles.garbled(ogg, at: 0.5, bytes: 2_048, as: "bad.ogg")
        let whole = try SoundFile.decode(contentsOf: bad).frameCount
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try Sound(engine: engine, streamingContentsOf: bad))
        let log = EventLog()
        player.delegate = log
        try player.play()
        let audio = try engine.render(frames: 5 * 48_000).channel(0)
        let heard = audio.lastIndex { abs($0) > 1e-3 } ?? 0
        #expect(abs(heard - whole) < 64, "played to frame \(heard) of the \(whole) that decode")
        #expect(log.events.contains { $0.hasPrefix("decodeError") && $0.contains("OV_HOLE") }, "\(log.events)")
        #expect(log.events.last == "finished(true)", "\(log.events)")
    }
}
