import Foundation
import Testing
import SoundStage
@testable import SoundStageSession
import SoundStageTestSupport

/// The dropout detector on OpenAL's own renders: the drum kit played through the engine, with
/// reverb, decays and voices stopped, holds no dropout; the same render with a stretch of it
/// silenced (as a server that ran dry plays it) holds exactly that one.
@Suite("DropoutDetector: exact silence inside sound, on OpenAL's renders")
struct DropoutDetectorTests {
    /// Scans interleaved `samples` in blocks of `block` frames (a stream's fragments).
    static func scan(_ samples: [Float], channels: Int, rate: Int, block: Int) -> [DropoutDetector.Dropout] {
        var detector = DropoutDetector(channels: channels, rate: rate)
        var found: [DropoutDetector.Dropout] = []
        samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + block * channels)
                found += detector.scan(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return found
    }

    /// Four seconds of the drum kit in the engine: hits on every drum, a stone room's reverb,
    /// one voice stopped mid-hit and the kit left to decay into silence at the end.
    static func kit() throws -> [Float] {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.effectsBus.setEffect(.reverb(Reverb(preset: .stoneroom)))
        let drums = try ["snare", "bass", "tambourine", "maraca"].map {
            try Sound(engine: engine, contentsOf: Assets.drums.appendingPathComponent("\($0).wav"))
        }
        var audio: [Float] = []
        for beat in 0..<8 {
            let voice = try engine.play(drums[beat % 4], at: [Float(beat % 3) - 1, 0, -1])
            audio += try engine.render(frames: 12_000).samples
            if beat == 5 { _ = voice.stop() }
        }
        audio += try engine.render(frames: 96_000).samples
        return audio
    }

    @Test("the drum kit's render, with reverb, a voice stopped and the decay to silence, holds no dropout, in any block size")
    func kitHasNone() throws {
        let audio = try Self.kit()
        // The premise: once the kit sounds, OpenAL's mix of it holds no frame of exact silence
        // (the room's tail never reaches zero), so a run of exact zeros is none of its own.
        let first = try #require(audio.firstIndex { abs($0) >= DropoutDetector.level }) / 2
        let silentFrames = (first..<(audio.count / 2)).filter { audio[2 * $0] == 0 && audio[2 * $0 + 1] == 0 }.count
        #expect(silentFrames == 0, "\(silentFrames) frames of exact silence after the first hit")
        for block in [1, 7, 480, 4_096] {
            let found = Self.scan(audio, channels: 2, rate: EngineRig.rate, block: block)
            #expect(found.isEmpty, "block \(block): \(found)")
        }
    }

    @Test("a stretch silenced inside a hit is found where it is and as long as it is, in any block size; shorter than half a millisecond it is not",
          arguments: [24, 96, 240, 4_800])
    func silencedStretch(frames: Int) throws {
        var audio = try Self.kit()
        // Inside the second hit (the bass drum), 30 ms in: sound on both sides.
        let at = 12_000 + 1_440
        for i in (at * 2)..<((at + frames) * 2) { audio[i] = 0 }
        for block in [1, 13, 480, 4_096] {
            let found = Self.scan(audio, channels: 2, rate: EngineRig.rate, block: block)
            #expect(found == [DropoutDetector.Dropout(frame: at, frames: frames)], "block \(block)")
        }
        var short = try Self.kit()
        for i in (at * 2)..<((at + 23) * 2) { short[i] = 0 }
        #expect(Self.scan(short, channels: 2, rate: EngineRig.rate, block: 480).isEmpty, "23 frames at 48 kHz are under half a millisecond")
    }

    @Test("silence in one channel is not silence; a tone stopped and started after 0.6 s is the game's own silence; a sound whose file ends at -50 dB, or a drum's, then the next is no dropout")
    func notDropouts() throws {
        let rate = 48_000
        func tone(_ frames: Int, amplitude: Float = 0.5, phase: Int = 0) -> [Float] {
            (0..<frames).map { amplitude * sin(2 * .pi * 300 * Float($0 + phase) / Float(rate)) }
        }
        // Left silent for 10 ms, right playing: not a dropout.
        let right = tone(4_800)
        var oneSided: [Float] = []
        for i in 0..<4_800 { oneSided += [i >= 2_000 && i < 2_480 ? 0 : right[i], right[i]] }
        #expect(Self.scan(oneSided, channels: 2, rate: rate, block: 480).isEmpty)
        // Stopped, 0.6 s of silence, started again.
        let gapped = tone(4_800) + [Float](repeating: 0, count: 28_800) + tone(4_800, phase: 33_600)
        #expect(Self.scan(gapped, channels: 1, rate: rate, block: 480).isEmpty)
        // The same with 0.1 s of silence is what a dropout looks like, and is found.
        let dropped = tone(4_800) + [Float](repeating: 0, count: 4_800) + tone(4_800, phase: 9_600)
        #expect(Self.scan(dropped, channels: 1, rate: rate, block: 480) == [DropoutDetector.Dropout(frame: 4_800, frames: 4_800)])
        // A tone at -50 dB cut to silence (a drum's file ends so), then a loud one 50 ms later:
        // the silence follows no sound.
        let quiet = tone(4_800, amplitude: 0.003) + [Float](repeating: 0, count: 2_400) + tone(4_800)
        #expect(Self.scan(quiet, channels: 1, rate: rate, block: 480).isEmpty)
        // Each of drumdub's drums rendered by the engine to the end of its file and 20 ms of
        // silence after, then the next hit: no dropout.
        for (name, seconds) in [("snare", 0.25), ("bass", 0.5), ("tambourine", 0.35), ("maraca", 0.09)] {
            let drum = try EngineRig.renderFile(Assets.drums.appendingPathComponent("\(name).wav"), streamed: false, seconds: seconds + 0.02)
            #expect(drum.suffix(1_920).allSatisfy { $0 == 0 }, "\(name) ends in exact silence")
            #expect(Self.scan(drum + drum, channels: 2, rate: rate, block: 480).isEmpty, "\(name): the end of its file then the next hit")
        }
        // Silence from the start, then sound: nothing before it.
        #expect(Self.scan([Float](repeating: 0, count: 960) + tone(960), channels: 1, rate: rate, block: 64).isEmpty)
    }
}
