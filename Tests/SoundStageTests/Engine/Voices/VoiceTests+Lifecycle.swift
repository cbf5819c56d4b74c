import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// The voice pool's life cycle: pauses, waiting and culled voices, stealing, moves,
/// interruptions, sources given back. Each states a behaviour the docs promise (they came
/// from a review that found each broken).
@Suite("Voices: pause, cull, steal, move, interrupt, give back")
struct VoiceLifecycleTests {
    /// Collects engine events for `seconds`.
    static func collect(_ events: AsyncStream<EngineEvent>, seconds: Double) async -> [String] {
        await withTaskGroup(of: [String].self) { group -> [String] in
            let box = EventBox()
            group.addTask { for await event in events { box.add(event.description) }; return [] }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)); return [] }
            _ = await group.next()
            group.cancelAll()
            return box.all
        }
    }

    final class EventBox: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    @Test("a whenVirtual .stop voice that is resumed but not chosen is culled, not frozen forever")
    func stopVoiceResumedIsCulled() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 1))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.2)
        let a = try engine.play(tone, priority: 100, options: VoiceOptions(whenVirtual: .stop))
        _ = try engine.render(frames: 480)
        #expect(a.status == .real)
        a.pause()
        let b = try engine.play(tone, priority: 200, loops: -1)
        _ = try engine.render(frames: 480)
        a.resume()
        _ = try engine.render(frames: 48_000)   // 1 s, five times a's length
        #expect(!a.isValid, "a: \(a.status), playhead \(String(describing: a.playheadFrames)); counts \(engine.voiceCounts)")
        _ = b
    }

    @Test("a paused high-priority voice is not stolen for a lower-priority play")
    func pausedVoiceStolenForLowerPriority() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 2, maxVoices: 2))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 1)
        let high = try engine.play(tone, priority: 255, loops: -1)
        let low = try engine.play(tone, priority: 10, loops: -1)
        _ = try engine.render(frames: 480)
        high.pause()
        _ = try engine.render(frames: 480)
        let newer = try engine.play(tone, priority: 10, loops: -1)
        #expect(high.isValid, "high (255, paused): \(high.status); low (10): \(low.status); new (10): \(newer.status)")
    }

    @Test("an instance limit never steals a voice for one of lower priority")
    func instanceLimitIgnoresPriority() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let click = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        try engine.setVoiceRules(VoiceRules(maxInstances: 1, whenFull: .stealOldest), for: click)
        let high = try engine.play(click, priority: 255, loops: -1)
        let low = try engine.play(click, priority: 0, loops: -1)
        #expect(high.isValid, "priority 255: \(high.status); priority 0: \(low.status)")
        #expect(low.refusal == .instanceLimit, "\(low)")
    }

    @Test("a paused bus fades its voices out over the next mix at once (not a tick later), and the counts stay right")
    func countsAfterBusPause() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 1)
        let v = try engine.play(tone, loops: -1)
        _ = try engine.render(frames: 480)
        engine.effectsBus.pause()
        let counts = engine.voiceCounts
        #expect(counts.virtual == 0 && counts.paused == 1 && counts.real == 0, "\(counts); voice status \(v.status)")
        // The voice fades out across the very next mix (no click), then is silent. OpenAL Soft
        // 1.19 ramps the gain over the whole mix; from 1.20 a stop fades over 64 frames, so
        // its head is the fade's first quarter.
        let first = try engine.render(frames: 480).channel(0)
        let fade = engine.context.mixerSmoothing.stopFadeFrames
        let head = Measure.dB(Array(first.prefix(fade > 0 ? fade / 4 : 48))), tail = Measure.dB(Array(first.suffix(48)))
        #expect(head > -30 && tail < -45, "the first tick ramps down: \(head) dB -> \(tail) dB")
        #expect(Measure.dB(try engine.render(frames: 480).channel(0)) == -160, "silent from the next tick on")
    }

    @Test("a whenVirtual .pause voice made virtual on the tick it reaches its end finishes; it does not linger and post errors")
    func pauseVoiceAtItsEnd() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let events = engine.events()
        try engine.context.set(.distanceModel, to: .linearClamped)
        let short = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.1)   // 4,800 frames
        let v = try engine.play(short, at: [0, 0, -1], options: VoiceOptions(whenVirtual: .pause, maxDistance: 10))
        _ = try engine.render(frames: 4_320)
        v.position = [0, 0, -50]                // out of range at the tick its playhead reaches 4,800
        _ = try engine.render(frames: 480)
        v.position = [0, 0, -1]                 // back in range: asks for a source every tick
        _ = try engine.render(frames: 9_600)
        let seen = await Self.collect(events, seconds: 1)
        #expect(!v.isValid, "voice: \(v.status), playhead \(String(describing: v.playheadFrames)); \(engine.voiceCounts)")
        #expect(seen.isEmpty, "\(seen.count) service errors, first: \(seen.first ?? "")")
    }

    @Test("the default pool leaves reservedSources (32) sources for players, even under churn")
    func reserveKept() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let context = engine.context
        let limit = engine.realVoiceLimit
        let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.5)
        for k in 0..<(2 * limit) {
            let x = Float(k) * 2 - Float(2 * limit)
            try engine.play(tone, at: [x, 0, 0], loops: -1)
        }
        try context.listener.set(.position, to: [-Float(2 * limit), 0, 0])
        _ = try engine.render(frames: 960)
        // The listener jumps to the other end: the real set changes wholesale in one tick.
        try context.listener.set(.position, to: [Float(2 * limit), 0, 0])
        _ = try engine.render(frames: 960)
        let left = context.sourceLimit - context.sourceCount
        #expect(left >= 32, "context grants \(context.sourceLimit), real limit \(limit), pool holds \(context.sourceCount): \(left) left for players")
    }

    @Test("muting a bus keeps its voices (documented: they go on and keep time)")
    func muteKeepsVoices() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 1)
        let culled = try engine.play(tone, loops: -1, options: VoiceOptions(whenVirtual: .stop))
        let waits = try engine.play(tone, loops: -1, options: VoiceOptions(whenVirtual: .pause))
        _ = try engine.render(frames: 480)
        let before = waits.playheadFrames ?? 0
        engine.effectsMuted = true
        _ = try engine.render(frames: 4_800)
        let after = waits.playheadFrames ?? 0
        engine.effectsMuted = false
        #expect(culled.isValid, ".stop voice on a muted bus: \(culled.status)")
        #expect(after - before >= 4_800, ".pause voice on a muted bus kept time? playhead \(before) -> \(after)")
    }

    @Test("voices move to another device (44.1 kHz): looping ones come back real, a finite one finishes on time")
    func voicesAcrossMove() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.2, seconds: 0.5)
        let loop = try engine.play(tone, at: [1, 0, -1], loops: -1)
        let once = try engine.play(tone, at: [-1, 0, -1])
        _ = try engine.render(frames: 9_600)    // 0.2 s
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)))
        #expect(loop.status == .real && once.status == .real, "after the move: \(loop.status), \(once.status)")
        let audio = try engine.render(frames: 8_820)   // 0.2 s more: 0.4 s in all
        #expect(Measure.dB(audio, channel: 0) > -40)
        #expect(once.isValid, "still 0.1 s to go: \(once.status)")
        _ = try engine.render(frames: 8_820)           // 0.6 s in all
        #expect(once.status == .ended(.finished), "\(once.status), playhead \(String(describing: once.playheadFrames))")
        #expect(loop.status == .real)
    }

    @Test("ducking follows voices paused, stopped while paused, and finished")
    func duckingCounters() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.addDucking(DuckingRule(trigger: engine.dialogBus, target: engine.musicBus, depthDB: 12, attackSeconds: 0, releaseSeconds: 0))
        let line = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.05)
        let a = try engine.play(line, loops: -1, bus: engine.dialogBus)
        _ = try engine.render(frames: 480)
        #expect(engine.musicBus.duckingDB < -11)
        a.pause()
        _ = try engine.render(frames: 480)
        #expect(engine.musicBus.duckingDB == 0, "paused: \(engine.musicBus.duckingDB)")
        a.stop()
        _ = try engine.render(frames: 480)
        #expect(engine.musicBus.duckingDB == 0)
        let b = try engine.play(line, bus: engine.dialogBus)
        _ = try engine.render(frames: 480)
        #expect(engine.musicBus.duckingDB < -11)
        _ = try engine.render(frames: 4_800)
        #expect(b.status == .ended(.finished) && engine.musicBus.duckingDB == 0, "\(b.status) \(engine.musicBus.duckingDB)")
        engine.dialogBus.pause()
        let c = try engine.play(line, loops: -1, bus: engine.dialogBus)
        c.stop()
        engine.dialogBus.resume()
        _ = try engine.render(frames: 480)
        #expect(engine.musicBus.duckingDB == 0, "after a voice ended on a paused bus: \(engine.musicBus.duckingDB)")
    }

    @Test("old handles: ended(why) for one reuse, unknown after two")
    func generations() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 1)
        let a = try engine.play(tone, loops: -1)
        a.stop()
        let b = try engine.play(tone, loops: -1)
        #expect(b.index == a.index && a.status == .ended(.stopped) && b.status == .real, "\(a) \(a.status) \(b) \(b.status)")
        b.stop()
        #expect(a.status == .ended(.unknown) && b.status == .ended(.stopped))
    }

    @Test("an interruption silences voices too, and engine.play refuses during it as Player.play does")
    func interruptionAndVoices() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.3, seconds: 1)
        let player = engine.makePlayer(tone)
        player.numberOfLoops = -1
        try player.play()
        let voice = try engine.play(tone, loops: -1)
        _ = try engine.render(frames: 960)
        engine.beginInterruption()
        let during = try engine.render(frames: 4_800).channel(0)
        let later = try? engine.play(tone)
        #expect(Measure.dB(Array(during.suffix(4_320))) == -160, "during the interruption: \(Measure.dB(during)) dB; player playing \(player.isPlaying), voice \(voice.status)")
        #expect(later == nil, "engine.play during an interruption returned \(String(describing: later))")
        engine.endInterruption()
    }

    @Test("shrinking the pool with configureVoices gives its extra sources back to the context")
    func shrinkReleasesSources() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let context = engine.context
        let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.5)
        for k in 0..<200 { try engine.play(tone, at: [Float(k) * 0.1, 0, -1], loops: -1) }
        _ = try engine.render(frames: 960)
        let before = context.sourceCount
        try engine.configureVoices(VoiceConfiguration(realVoices: 8))
        _ = try engine.render(frames: 4_800)
        #expect(engine.voiceCounts.real == 8)
        #expect(context.sourceCount <= 10, "sources held: \(before) before, \(context.sourceCount) after shrinking to 8 real voices")
    }

    @Test("a move with voices fading out, a streamed voice and .stop voices raises no OpenAL error and keeps them")
    func moveWhileFading() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 2))
        let tone = try EngineRig.sine(engine, amplitude: 0.2, seconds: 0.5)
        let streamed = try EngineRig.sound(engine, (0..<24_000).map { 0.2 * sin(Float($0) * 0.1) }, streamed: true)
        let a = try engine.play(streamed, at: [0, 0, -1], loops: -1)
        let b = try engine.play(tone, at: [0, 0, -2], loops: -1, options: VoiceOptions(whenVirtual: .stop))
        _ = try engine.render(frames: 960)
        let c = try engine.play(tone, at: [0, 0, -1], priority: 200, loops: -1)   // b is culled or a demoted now
        _ = try engine.render(frames: 480)
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 44_100, channels: .stereo, sampleType: .float32)))
        let out = try engine.render(frames: 4_410)
        #expect(Measure.dB(out, channel: 0) > -40)
        #expect([a, b, c].filter(\.isReal).count == 2, "\(a.status) \(b.status) \(c.status)")
    }

    @Test("a player prepared while its bus was muted is heard once the bus is unmuted and it plays")
    func preparedUnderMutedBus() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.3, seconds: 1))
        player.numberOfLoops = -1
        engine.musicBus.isMuted = true
        try player.prepareToPlay()
        engine.musicBus.isMuted = false
        try player.play()
        let out = try engine.render(frames: 9_600)
        #expect(Measure.dB(Array(out.channel(0).suffix(4_800))) > -30, "player heard at \(Measure.dB(out, channel: 0)) dB; bus gain \(engine.musicBus.gain)")
    }

    @Test("resuming a bus during an interruption does not start its players")
    func busResumeDuringInterruption() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.3, seconds: 1))
        player.numberOfLoops = -1
        try player.play()
        _ = try engine.render(frames: 960)
        engine.musicBus.pause()
        engine.beginInterruption()
        engine.musicBus.resume()
        let out = Measure.afterStopFade(try engine.render(frames: 4_800), channel: 0, engine.context)
        #expect(!player.isPlaying && Measure.dB(out) == -160, "during the interruption: playing \(player.isPlaying), \(Measure.dB(out)) dB")
        engine.endInterruption()
    }

    @Test("a sound the game lets go of, whose voices have all ended, is freed (the pool does not keep every sound ever played)")
    func soundsReleased() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        weak var gone: Sound?
        do {
            let level = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.05)
            gone = level
            try engine.play(level)
            _ = try engine.render(frames: 4_800)
        }
        #expect(engine.voiceCounts.playing == 0)
        #expect(gone == nil, "the sound (and its OpenAL buffer) is still alive: \(String(describing: gone))")
    }
}

extension VoiceLifecycleTests {
    @Test("loops outside -1...Voice.loopsRange is a typed error (loops: Int.max once trapped)")
    func hugeLoops() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.1)
        expectError(.invalidArgument, mentioning: ["loops"]) { try engine.play(tone, loops: Int.max) }
        expectError(.invalidArgument) { try engine.play(tone, loops: -2) }
        let many = try engine.play(tone, loops: Voice.loopsRange.upperBound)
        #expect(many.isValid)
    }
}
