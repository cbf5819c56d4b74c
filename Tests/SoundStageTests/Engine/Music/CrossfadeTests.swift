import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Crossfades and musical transitions, heard offline: the two levels measured 10 ms at a
/// time at each track's own frequency, and transitions found to the frame.
@Suite("Crossfades and transitions on beats and bars", .serialized)
struct CrossfadeTests {
    static let rate = EngineRig.rate
    /// 10 ms: a whole number of periods of both tones, so each level is read without leakage.
    static let window = 480

    /// A loaded mono sine of `frequency` Hz, 4 s long (a whole number of periods), to loop.
    static func tone(_ engine: AudioEngine, _ frequency: Double) throws -> Sound {
        let samples = (0..<(4 * rate)).map { Float(0.25 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
        return Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: rate, label: "\(Int(frequency)) Hz"))
    }

    /// The amplitude of `frequency` in `samples[start ..< start + window]`.
    static func amplitude(_ samples: [Float], _ frequency: Double, at start: Int) -> Double {
        var re = 0.0, im = 0.0
        for n in 0..<window {
            let phase = 2 * Double.pi * frequency * Double(start + n) / Double(rate)
            re += Double(samples[start + n]) * cos(phase)
            im -= Double(samples[start + n]) * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(window)
    }

    static func dB(_ ratio: Double) -> Double { 20 * log10(max(ratio, 1e-12)) }

    static func looping(_ engine: AudioEngine, _ sound: Sound) -> Player {
        let player = engine.makePlayer(sound)
        player.numberOfLoops = -1
        return player
    }

    @Test("an equal-power crossfade: each level follows its cos/sin curve within 0.5 dB, and the power of the two stays within 0.5 dB of constant")
    func equalPower() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let calm = Self.looping(engine, try Self.tone(engine, 1_000))
        let battle = Self.looping(engine, try Self.tone(engine, 1_500))
        try calm.play()
        let before = try engine.render(frames: Self.rate / 2).channel(0)
        let start = engine.currentFrame
        try calm.crossfade(to: battle, duration: 2, on: .now)
        let during = try engine.render(frames: 5 * Self.rate / 2).channel(0)
        #expect(!calm.isPlaying, "the outgoing track stops at the end of the fade")
        #expect(battle.isPlaying && battle.volume == 1)
        let calmLevel = Self.amplitude(before, 1_000, at: before.count - Self.window)
        let battleLevel = Self.amplitude(during, 1_500, at: during.count - Self.window)
        #expect(abs(Self.dB(calmLevel / battleLevel)) < 0.01, "the same tone level for both")

        var worstOut = 0.0, worstIn = 0.0, worstSum = 0.0, checked = 0
        for w in 0..<(2 * Self.rate / Self.window) {
            let at = w * Self.window
            let x = (Double(at) + Double(Self.window) / 2) / Double(2 * Self.rate)
            let out = Self.amplitude(during, 1_000, at: at) / calmLevel
            let into = Self.amplitude(during, 1_500, at: at) / battleLevel
            let wantOut = cos(x * .pi / 2), wantIn = sin(x * .pi / 2)
            if wantOut > 0.1 { worstOut = max(worstOut, abs(Self.dB(out / wantOut))) }
            if wantIn > 0.1 { worstIn = max(worstIn, abs(Self.dB(into / wantIn))) }
            worstSum = max(worstSum, abs(10 * log10(out * out + into * into)))
            checked += 1
        }
        print("crossfade: outgoing \(worstOut) dB, incoming \(worstIn) dB off their curves; power sum \(worstSum) dB off constant")
        #expect(checked == 200)
        #expect(worstOut < 0.5, "outgoing: \(worstOut) dB off the cosine")
        #expect(worstIn < 0.5, "incoming: \(worstIn) dB off the sine")
        #expect(worstSum < 0.5, "power sum: \(worstSum) dB off constant")
        #expect(start == Self.rate / 2)
    }

    @Test("for correlated material (the same tone in phase) a linear crossfade keeps the sum within 0.5 dB of constant; equal power bulges +3 dB halfway")
    func correlated() throws {
        for curve in [FadeCurve.linear, .equalPower] {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            let sound = try Self.tone(engine, 1_000)
            let a = Self.looping(engine, sound), b = Self.looping(engine, sound)
            try a.play()
            // 0.5 s: 500 periods, so b starts in phase with a.
            let before = try engine.render(frames: Self.rate / 2).channel(0)
            try a.crossfade(to: b, duration: 2, curve: curve, on: .now)
            let during = try engine.render(frames: 2 * Self.rate).channel(0)
            let level = Self.amplitude(before, 1_000, at: before.count - Self.window)
            let sums = stride(from: 0, to: 2 * Self.rate, by: Self.window).map { Self.dB(Self.amplitude(during, 1_000, at: $0) / level) }
            print("crossfade of correlated material, \(curve): sum from \(sums.min()!) to \(sums.max()!) dB")
            if curve == .linear {
                let worst = sums.map(abs).max() ?? 99
                #expect(worst < 0.5, "linear: the sum is \(worst) dB off constant")
            } else {
                let middle = sums[sums.count / 2]
                #expect(abs(middle - 3.01) < 0.3, "equal power: \(middle) dB halfway")
            }
        }
    }

    @Test("a transition set for the next bar starts on that bar's frame; a stinger for the next beat on that beat's frame")
    func onTheBar() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let calm = Self.looping(engine, try Self.tone(engine, 1_000))
        // 100 bpm in 4/4 with a pickup: bars every 2.4 s from 0.0123 s; neither a tick nor a
        // frame boundary.
        let tempo = MusicalTempo(beatsPerMinute: 100, beatsPerBar: 4, firstBeat: 0.0123)
        calm.tempo = tempo
        try calm.play()
        _ = try engine.render(frames: Self.rate)
        let clicks = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        let battle = engine.makePlayer(clicks)
        let bar = try calm.nextBoundary(.bar)
        let wantBar = Int(((0.0123 + 2.4) * Double(Self.rate)).rounded())
        #expect(bar.frame == wantBar)
        try calm.crossfade(to: battle, duration: 0, on: .nextBar)
        let heard = try engine.render(frames: 2 * Self.rate).channel(0)
        let found = onsets(heard.map { abs($0) > 0.3 ? $0 : 0 }, threshold: 0.3).map { $0 + Self.rate }
        #expect(found.first == wantBar, "the next bar's click at \(found.first ?? -1), the bar at \(wantBar)")

        // A stinger on the next beat of a track, here from 3 s: the beat after is 3.0123 s.
        let engine2 = try EngineRig.offline()
        defer { engine2.shutdown() }
        let music = Self.looping(engine2, try Self.tone(engine2, 1_000))
        music.tempo = tempo
        try music.play()
        _ = try engine2.render(frames: 3 * Self.rate)
        let stinger = engine2.makePlayer(try EngineRig.clicks(engine2, frames: 4_800, at: [0]))
        try stinger.play(on: .nextBeat, of: music)
        let beat = Int((3.0123 * Double(Self.rate)).rounded())
        let out = try engine2.render(frames: Self.rate).channel(0)
        let hits = onsets(out.map { abs($0) > 0.3 ? $0 : 0 }, threshold: 0.3).map { $0 + 3 * Self.rate }
        #expect(hits.first == beat, "the stinger at \(hits.first ?? -1), the beat at \(beat)")
    }

    @Test("a crossfade at an engine time begins there: the incoming track's first sound is on that frame")
    func atTime() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let calm = Self.looping(engine, try Self.tone(engine, 1_000))
        let battle = Self.looping(engine, try Self.tone(engine, 1_500))
        try calm.play()
        _ = try engine.render(frames: 4_800)
        try calm.crossfade(to: battle, duration: 1, on: .atTime(0.5))
        let out = try engine.render(frames: Self.rate).channel(0)
        let at = Self.rate / 2 - 4_800
        #expect(Self.amplitude(out, 1_500, at: at - Self.window) < 1e-6, "nothing of the incoming track before")
        #expect(Self.amplitude(out, 1_000, at: at - Self.window) > 0.1, "the outgoing track at its level before")
        #expect(Self.amplitude(out, 1_500, at: at + 4 * Self.window) > 0.001, "the incoming rising after")
    }

    @Test("crossfades and stingers refuse what cannot be, with typed errors naming the player")
    func refusals() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let a = Self.looping(engine, try Self.tone(engine, 1_000))
        let b = Self.looping(engine, try Self.tone(engine, 1_500))
        try a.play()
        #expect(throws: SoundStageError.self) { try a.crossfade(to: a, duration: 1) }
        #expect(throws: SoundStageError.self) { try a.crossfade(to: b, duration: -1) }
        let noTempo = try #require(throws: SoundStageError.self) { try a.crossfade(to: b, duration: 1, on: .nextBar) }
        #expect(noTempo.code == .invalidState && noTempo.description.contains("tempo"))
        #expect(throws: SoundStageError.self) { try a.crossfade(to: b, duration: 1, on: .atTime(-1)) }
        #expect(throws: SoundStageError.self) { try a.setTempo(MusicalTempo(beatsPerMinute: 0)) }
        try b.play()
        let playing = try #require(throws: SoundStageError.self) { try a.crossfade(to: b, duration: 1) }
        #expect(playing.code == .invalidState)
        b.stop()
        a.stop()
        a.tempo = MusicalTempo(beatsPerMinute: 120)
        let stopped = try #require(throws: SoundStageError.self) { try b.play(on: .nextBeat, of: a) }
        #expect(stopped.code == .invalidState && stopped.description.contains("not playing"))
    }

    @Test("a playlist crossfades from its item to another: equal power, a new player takes over, and the events follow it")
    func betweenItems() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let playlist = try Playlist(engine: engine, items: [try Self.tone(engine, 1_000), try Self.tone(engine, 1_500)])
        let log = PlaylistLog()
        playlist.delegate = log
        let first = playlist.player
        try playlist.play()
        let before = try engine.render(frames: Self.rate / 2).channel(0)
        try playlist.crossfade(toItem: 1, duration: 1)
        #expect(playlist.player !== first)
        let during = try engine.render(frames: 3 * Self.rate / 2).channel(0)
        let level = Self.amplitude(before, 1_000, at: before.count - Self.window)
        let middle = Self.rate / 2 - Self.window / 2
        let out = Self.dB(Self.amplitude(during, 1_000, at: middle) / level), into = Self.dB(Self.amplitude(during, 1_500, at: middle) / level)
        print("crossfade between items: halfway the outgoing item at \(out) dB, the incoming at \(into) dB")
        #expect(abs(out + 3.01) < 0.5 && abs(into + 3.01) < 0.5)
        #expect(Self.amplitude(during, 1_000, at: during.count - Self.window) < 1e-6, "the first item is gone after the fade")
        #expect(!first.isPlaying)
        #expect(playlist.currentItemIndex == 1)
        #expect(log.events == [.itemStarted(index: 0), .itemEnded(index: 0), .itemStarted(index: 1)])
    }
}
