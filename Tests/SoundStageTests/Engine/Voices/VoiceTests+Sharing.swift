import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

/// Players sharing the voice pool: the sources they are lent, the counts, the pool after a
/// burst of them. (From a review that found the first two broken.)
@Suite("Voices and players sharing the pool", .serialized)
struct VoicePoolSharingTests {
    /// The level (dB) and main frequency of a pan-centred looping player, in an engine where a
    /// voice with odd spatial options may have played (and finished) first.
    static func playerHeard(afterVoice: Bool) throws -> (dB: Double, hz: Double, players: Int) {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 4))
        if afterVoice {
            let blip = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.02)
            let options = VoiceOptions(referenceDistance: 0.1, rolloffFactor: 8,
                                       cone: VoiceCone(direction: [0, 0, -1], innerAngle: 10, outerAngle: 20, outerGain: 0.05))
            let v = try engine.play(blip, at: [0, 0, -1], options: options)
            try v.setVelocity([0, 0, -150])
            _ = try engine.render(frames: 4_800)
            #expect(v.status == .ended(.finished), "\(v.status)")
        }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.3, seconds: 0.5))
        player.numberOfLoops = -1
        try player.play()
        let out = try engine.render(frames: 9_600)
        let tail = Array(out.channel(0).suffix(4_800))
        return (Measure.dB(tail), Measure.peakFrequency(tail, sampleRate: EngineRig.rate), engine.voiceCounts.players)
    }

    @Test("a player given a source a voice used before hears nothing of that voice's distance, cone or velocity")
    func playerInheritsVoiceSource() throws {
        let fresh = try Self.playerHeard(afterVoice: false)
        let reused = try Self.playerHeard(afterVoice: true)
        #expect(abs(fresh.dB - reused.dB) < 0.5, "player level: fresh \(fresh.dB) dB, on a source a voice used \(reused.dB) dB")
        #expect(abs(fresh.hz - reused.hz) < 20, "player pitch: fresh \(fresh.hz) Hz, on a source a voice used \(reused.hz) Hz")
    }

    @Test("a burst of players while the context is full does not leave the pool smaller for ever")
    func poolRecoversAfterPlayerBurst() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let context = engine.context
        let limit = engine.realVoiceLimit
        let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.5)
        for k in 0..<(2 * limit) {
            try engine.play(tone, at: [Float(k) * 2 - Float(2 * limit), 0, 0], loops: -1)
        }
        try context.listener.set(.position, to: [-Float(2 * limit), 0, 0])
        _ = try engine.render(frames: 960)
        #expect(engine.voiceCounts.real == limit)
        var players: [Player]? = try (0..<100).map { _ in
            let p = engine.makePlayer(tone)
            p.numberOfLoops = -1
            try p.play()
            return p
        }
        _ = try engine.render(frames: 960)
        // The listener jumps: the real set changes wholesale while the players hold their sources.
        try context.listener.set(.position, to: [Float(2 * limit), 0, 0])
        _ = try engine.render(frames: 960)
        let during = engine.voiceCounts
        #expect(during.players == 100 && during.real + during.players <= limit + 100, "\(during)")
        for p in players! { p.stop() }
        players = nil
        _ = try engine.render(frames: 4_800)
        let after = engine.voiceCounts
        let limits = engine.voices.state.withLockedValue { ($0.realLimit, $0.sources.limit, $0.sources.made) }
        #expect(after.real == limit, "after the players went: \(after.real) real of \(limit); pool limits \(limits)")
    }

    @Test("players keep the lent count right across a move, a failed prepare and their release")
    func lentCount() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 4))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let voices = try (1...4).map { try engine.play(tone, at: [0, 0, -Float($0)], loops: -1) }
        #expect(voices.filter { $0.isValid }.count == 4)
        var a: Player? = engine.makePlayer(tone)
        a!.numberOfLoops = -1
        try a!.play()
        var idle: Player? = engine.makePlayer(tone)   // never prepared
        #expect(idle?.audioSource == nil)
        var prepared: Player? = engine.makePlayer(tone)
        try prepared!.prepareToPlay()
        // A sound of another engine's device: prepare takes a source, then fails to feed it.
        let other = try EngineRig.offline()
        defer { other.shutdown() }
        var failing: Player? = engine.makePlayer(try EngineRig.sine(other, amplitude: 0.1, seconds: 0.1))
        expectError(.wrongContext) { try failing!.prepareToPlay() }
        _ = try engine.render(frames: 960)
        let mid = engine.voiceCounts
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)))
        _ = try engine.render(frames: 882)
        let moved = engine.voiceCounts
        a!.stop()   // a playing player is kept by its engine; stopped, it goes with its last reference
        a = nil; idle = nil; prepared = nil; failing = nil
        _ = try engine.render(frames: 882)
        let after = engine.voiceCounts
        #expect(moved.players == mid.players)
        #expect(after.players == 0 && after.real == 4, "\(after)")
    }

    @Test("only a velocity (default options): a player on a source a moving voice used is Doppler-shifted")
    func playerInheritsVelocityOnly() throws {
        func heard(afterVoice: Bool) throws -> (Double, Double) {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            if afterVoice {
                let v = try engine.play(try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.02), at: [0, 0, -3])
                try v.setVelocity([0, 0, -100])   // a car driving away
                _ = try engine.render(frames: 4_800)
            }
            let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.3, seconds: 0.5))
            player.numberOfLoops = -1
            try player.play()
            let tail = Array(try engine.render(frames: 9_600).channel(0).suffix(4_800))
            return (Measure.dB(tail), Measure.peakFrequency(tail, sampleRate: EngineRig.rate))
        }
        let fresh = try heard(afterVoice: false), reused = try heard(afterVoice: true)
        #expect(abs(fresh.1 - reused.1) < 20)
    }
}

/// The tick keeps each voice's audibility until something it depends on changes: every such
/// change must re-rank at once. And the top-ranks heap against a sort.
@Suite("Voices: cached audibility re-ranked on every change; the top ranks as a sort gives them")
struct VoiceRankCacheTests {
    /// Two looping voices, one real place; `change` should make `b` the real one within two ticks.
    static func swaps(_ name: String, setup: (AudioEngine, Sound) throws -> (Voice, Voice),
                      change: (AudioEngine, Voice, Voice) throws -> Void) throws -> (before: String, after: String) {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 1, audibilityFloor: 0.001))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let (a, b) = try setup(engine, tone)
        _ = try engine.render(frames: 960)
        let before = "a \(a.status), b \(b.status)"
        try change(engine, a, b)
        _ = try engine.render(frames: 960)
        let after = "a \(a.status), b \(b.status)"
        return (before, after)
    }

    static func near(_ e: AudioEngine, _ s: Sound) throws -> (Voice, Voice) {
        (try e.play(s, at: [0, 0, -1], loops: -1), try e.play(s, at: [0, 0, -2], loops: -1))
    }

    @Test("every input of audibility re-ranks at once (volume, bus, fade, duck, listener, model, pause, mute, floor)")
    func cacheInvalidation() throws {
        let expected = "a virtual, b real"
        var results: [(String, String, String)] = []
        func run(_ name: String, expect: String = expected, setup: (AudioEngine, Sound) throws -> (Voice, Voice) = Self.near,
                 _ change: (AudioEngine, Voice, Voice) throws -> Void) throws {
            let r = try Self.swaps(name, setup: setup, change: change)
            results.append((name, r.after, expect))
            #expect(r.before == "a real, b virtual", "\(name): before \(r.before)")
            #expect(r.after == expect, "\(name): after \(r.after)")
        }
        let onBuses: (AudioEngine, Sound) throws -> (Voice, Voice) = { e, s in
            let x = try e.makeBus(named: "x", parent: e.effectsBus), y = try e.makeBus(named: "y", parent: e.effectsBus)
            return (try e.play(s, at: [0, 0, -1], loops: -1, bus: x), try e.play(s, at: [0, 0, -2], loops: -1, bus: y))
        }
        try run("setVolume") { _, a, _ in try a.setVolume(0.1) }
        try run("setPosition") { _, a, _ in try a.setPosition([0, 0, -9]) }
        try run("setPositions") { e, a, _ in _ = e.setPositions([(a, [0, 0, -9])]) }
        try run("bus volume", setup: onBuses) { e, _, _ in try e.bus(named: "x")!.setVolume(0.1) }
        try run("bus fade", setup: onBuses) { e, _, _ in try e.bus(named: "x")!.fade(to: 0.1, duration: 0.001) }
        try run("bus mute", setup: onBuses) { e, _, _ in e.bus(named: "x")!.isMuted = true }
        try run("parent bus mute", setup: { e, s in
            let p = try e.makeBus(named: "p", parent: e.effectsBus)
            let x = try e.makeBus(named: "x", parent: p), y = try e.makeBus(named: "y", parent: e.effectsBus)
            return (try e.play(s, at: [0, 0, -1], loops: -1, bus: x), try e.play(s, at: [0, 0, -2], loops: -1, bus: y))
        }) { e, _, _ in e.bus(named: "p")!.isMuted = true }
        try run("ducking", setup: { e, s in
            let x = try e.makeBus(named: "x", parent: e.effectsBus)
            try e.addDucking(DuckingRule(trigger: e.dialogBus, target: x, depthDB: 30, attackSeconds: 0, releaseSeconds: 0))
            return (try e.play(s, at: [0, 0, -1], loops: -1, bus: x), try e.play(s, at: [0, 0, -2], loops: -1))
        }) { e, _, _ in
            let line = try EngineRig.sine(e, amplitude: 0.01, seconds: 0.5)
            try e.play(line, volume: 0.001, loops: -1, bus: e.dialogBus)   // below the floor: never real itself
        }
        try run("listener moves") { e, _, _ in try e.context.listener.set(.position, to: [0, 0, -2.2]) }
        try run("distance model", setup: { e, s in
            (try e.play(s, at: [0, 0, -1], volume: 0.5, loops: -1), try e.play(s, at: [0, 0, -4], loops: -1))
        }) { e, _, _ in try e.context.set(.distanceModel, to: DistanceModel.none) }
        try run("listener gain under the floor", expect: "a virtual, b virtual") { e, _, _ in try e.context.listener.set(.gain, to: 0.0001) }
        try run("floor raised", expect: "a virtual, b virtual", setup: { e, s in
            (try e.play(s, at: [0, 0, -1.5], loops: -1), try e.play(s, at: [0, 0, -2], loops: -1))
        }) { e, _, _ in
            try e.configureVoices(VoiceConfiguration(realVoices: 1, audibilityFloor: 0.99))
        }
        try run("pause", expect: "a paused, b real") { _, a, _ in a.pause() }
        // Back again: each of these undoes a change and expects a to be real again.
        let back = "a real, b virtual"
        try run("resume after pause", expect: back) { e, a, _ in
            a.pause(); _ = try e.render(frames: 960); a.resume()
        }
        try run("resume between ticks", expect: back) { _, a, _ in a.pause(); a.resume() }
        try run("unmute", expect: back, setup: onBuses) { e, _, _ in
            e.bus(named: "x")!.isMuted = true; _ = try e.render(frames: 960); e.bus(named: "x")!.isMuted = false
        }
        try run("bus resume", expect: back, setup: onBuses) { e, _, _ in
            e.bus(named: "x")!.pause(); _ = try e.render(frames: 960); e.bus(named: "x")!.resume()
        }
        try run("interruption ends", expect: back) { e, _, _ in
            e.beginInterruption(); _ = try e.render(frames: 960); e.endInterruption()
        }
        try run("move to another device", expect: back) { e, _, _ in
            try e.switchOutput(to: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)))
        }
        _ = results
    }

    // MARK: - TopRanks

    @Test("TopRanks keeps the capacity highest (ties to the lower slot) for any capacity and order")
    func topRanksFuzz() {
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        for trial in 0..<4_000 {
            let n = Int.random(in: 0...40, using: &generator)
            let capacity = [0, 1, 2, 3, 7, 16, 64][trial % 7]
            let distinct = Int.random(in: 1...6, using: &generator)   // few distinct ranks: many ties
            let ranks = (0..<n).map { _ in UInt64.random(in: 0..<UInt64(distinct), using: &generator) }
            var top = TopRanks(capacity: capacity)
            for (i, r) in ranks.enumerated() { top.offer(r, slot: Int32(i)) }
            let got = Set(top.slots)
            let want = Set((0..<n).sorted { ranks[$0] != ranks[$1] ? ranks[$0] > ranks[$1] : $0 < $1 }.prefix(capacity).map(Int32.init))
            if got != want {
                failures += 1
                if failures < 4 { Issue.record("capacity \(capacity) ranks \(ranks): got \(got.sorted()) want \(want.sorted())") }
            }
        }
        #expect(failures == 0)
    }

}
