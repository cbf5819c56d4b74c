import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Buses heard in offline renders: volume, mute, pause, fades, ducking.
@Suite("Buses: a tree of gains with mute, pause, fades and ducking, for voices and players alike")
struct BusTests {
    /// The level in dB of each 480-frame tick of `samples`.
    static func tickLevels(_ samples: [Float]) -> [Double] {
        stride(from: 0, to: samples.count - 479, by: 480).map { Measure.dB(Array(samples[$0..<($0 + 480)])) }
    }

    @Test("the standard tree: master over music, effects, ui and dialog; the game's own buses hang under any of them")
    func tree() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        #expect(engine.buses.map(\.name) == ["master", "music", "effects", "ui", "dialog"])
        #expect(engine.musicBus.parent == engine.masterBus && engine.masterBus.parent == nil)
        let footsteps = try engine.makeBus(named: "footsteps", parent: engine.effectsBus)
        #expect(engine.bus(named: "footsteps") == footsteps && footsteps.parent == engine.effectsBus)
        expectError(.invalidArgument) { _ = try engine.makeBus(named: "footsteps") }
        engine.effectsBus.volume = 0.5
        engine.masterBus.volume = 0.5
        #expect(abs(footsteps.gain - 0.25) < 1e-6, "gains multiply down the tree: \(footsteps.gain)")
        engine.effectsMuted = true
        #expect(engine.effectsBus.isMuted && footsteps.gain == 0, "effectsMuted is the effects bus's mute")
    }

    @Test("bus volume, mute and pause are heard at once on voices and players; a paused bus resumes where it stopped")
    func volumeMutePause() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.5, seconds: 1)
        let voice = try engine.play(tone, loops: -1)
        let player = engine.makePlayer(tone)
        player.numberOfLoops = -1
        try player.setBus(engine.dialogBus)
        try player.play()
        _ = try engine.render(frames: 4_800)
        let both = Measure.dB(try engine.render(frames: 4_800), channel: 0)
        engine.effectsBus.volume = 0.5
        let half = Measure.dB(try engine.render(frames: 4_800).channel(0).suffix(4_320).map { $0 })
        engine.dialogBus.isMuted = true
        engine.effectsBus.isMuted = true
        let muted = try engine.render(frames: 4_800).channel(0)
        #expect(Measure.dB(Array(muted.suffix(4_320))) == -160, "both buses muted: silence after the ramp")
        // Half the voice's gain and the player at full: the sum drops by the expected amount.
        #expect(half < both - 1 && half > both - 6, "\(both) -> \(half) dB")
        engine.dialogBus.isMuted = false
        engine.effectsBus.isMuted = false
        engine.effectsBus.volume = 1
        // Pausing the master pauses both; their playheads wait.
        let before = (voice.playheadFrames ?? 0, player.currentFrame)
        engine.masterBus.pause()
        let paused = try engine.render(frames: 9_600).channel(0)
        #expect(Measure.dB(Array(paused.suffix(9_000))) == -160, "a paused bus is silent")
        #expect(voice.status == .paused && !player.isPlaying)
        let held = (voice.playheadFrames ?? 0, player.currentFrame)
        #expect(abs(held.0 - before.0) <= 480 && abs(held.1 - before.1) <= 480, "playheads wait: \(before) -> \(held)")
        engine.masterBus.resume()
        _ = try engine.render(frames: 480)
        #expect(voice.status == .real && player.isPlaying, "both resume with the bus")
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) > both - 1)
    }

    @Test("a bus fade is heard along its curve")
    func fade() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.5, seconds: 1)
        try engine.play(tone, loops: -1)
        _ = try engine.render(frames: 4_800)
        let start = Self.tickLevels(try engine.render(frames: 480).channel(0))[0]
        try engine.effectsBus.fade(to: 0.1, duration: 0.5)
        let levels = Self.tickLevels(try engine.render(frames: 24_000 + 4_800).channel(0))
        // Linear in gain: tick k holds gains from (k)/50 to (k+1)/50 of the way; its RMS is near the middle's.
        for k in [10, 25, 40] {
            let x = (Double(k) + 0.5) / 50
            let expected = start + 20 * log10(1 + (0.1 - 1) * x)
            #expect(abs(levels[k] - expected) < 0.5, "tick \(k): \(levels[k]) dB, expected \(expected)")
        }
        #expect(abs(levels.last! - (start - 20)) < 0.2, "ends 20 dB down: \(levels.last!)")
    }

    @Test("ducking: while dialog plays, the music player drops 12 dB with 100 ms attack and 500 ms release, within 0.5 dB")
    func ducking() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let music = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 1))
        music.numberOfLoops = -1
        try music.play()
        // The line of dialog is silence, so the render holds the music alone.
        let line = try EngineRig.sound(engine, [Float](repeating: 0, count: 48_000), streamed: false)
        try engine.addDucking(DuckingRule(trigger: engine.dialogBus, target: engine.musicBus, depthDB: 12,
                                          attackSeconds: 0.1, releaseSeconds: 0.5))
        _ = try engine.render(frames: 4_800)
        let full = Self.tickLevels(try engine.render(frames: 480).channel(0))[0]
        try engine.play(line, bus: engine.dialogBus)
        let levels = Self.tickLevels(try engine.render(frames: 48_000 * 2).channel(0)).map { $0 - full }
        // The curve in dB, at the middle of each tick: attack over 0.1 s, held, released over
        // 0.5 s from the end of the line at 1 s.
        func expected(_ t: Double) -> Double {
            if t < 0.1 { return -12 * t / 0.1 }
            if t < 1 { return -12 }
            return min(0, -12 + 12 * (t - 1) / 0.5)
        }
        var worst = 0.0
        for (k, level) in levels.enumerated() {
            let t = (Double(k) + 0.5) * 0.01
            worst = max(worst, abs(level - expected(t)))
            #expect(abs(level - expected(t)) < 0.5, "at \(t) s: \(level) dB, expected \(expected(t))")
        }
        #expect(engine.musicBus.duckingDB == 0 && worst < 0.5, "worst deviation \(worst) dB")
    }
}

extension BusTests {
    /// The power of the last 480 frames of a stereo render, summed over both channels, in dB.
    static func powerDB(_ audio: RenderedAudio) -> Double {
        let l = Array(audio.channel(0).suffix(480)), r = Array(audio.channel(1).suffix(480))
        var sum = 0.0
        for k in 0..<480 {
            let a = Double(l[k]), b = Double(r[k])
            sum += a * a + b * b
        }
        let mean = sum / 480
        return mean > 0 ? 10 * log10(mean) : -160
    }

    @Test("bus meters read what the render holds: a voice and a player, each bus alone and the master over both")
    func meters() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        for bus in [engine.masterBus, engine.effectsBus, engine.musicBus] { bus.isMeteringEnabled = true }
        let tone = try EngineRig.sine(engine, amplitude: 0.5, seconds: 1)
        let voice = try engine.play(tone, at: [3, 0, -2], volume: 0.8, loops: -1)
        _ = try engine.render(frames: 960)
        let voiceOnly = Self.powerDB(try engine.render(frames: 480))
        #expect(abs(Double(engine.effectsBus.averagePower) - voiceOnly) < 0.5,
                "effects bus \(engine.effectsBus.averagePower) dB, render \(voiceOnly) dB")
        #expect(engine.musicBus.averagePower == -160, "nothing on the music bus")
        let music = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.3, seconds: 1))
        music.numberOfLoops = -1
        // Off to the side, as the voice: OpenAL Soft's stereo panner puts about 1.5 dB less
        // power into the mix for a sound straight ahead (measured), which a meter of the
        // sources' power does not see.
        music.pan = 0.7
        try music.play()
        voice.stop()
        _ = try engine.render(frames: 960)
        let musicOnly = Self.powerDB(try engine.render(frames: 480))
        #expect(abs(Double(engine.musicBus.averagePower) - musicOnly) < 0.5, "music bus \(engine.musicBus.averagePower) dB, render \(musicOnly) dB")
        #expect(abs(Double(engine.masterBus.averagePower) - musicOnly) < 0.5, "the master hears the music")
        #expect(engine.effectsBus.averagePower == -160 && engine.musicBus.peakPower > engine.musicBus.averagePower)
        engine.masterBus.isMeteringEnabled = false
        #expect(engine.masterBus.averagePower == -160)
    }
}
