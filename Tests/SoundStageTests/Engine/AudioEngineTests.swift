import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

/// Engines render offline (EngineRig) unless a test says otherwise.
@Suite("AudioEngine: synchronized starts, effects, interruptions, threads, lifetimes")
struct AudioEngineTests {
    @Test("players started together begin on the same sample; a scheduled start lands on its frame")
    func synchronized() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [100])
        _ = try engine.render(frames: 777)   // the engine clock is not on a tick boundary
        let left = engine.makePlayer(sound), right = engine.makePlayer(sound)
        left.pan = -1
        right.pan = 1
        try engine.play([left, right])
        let out = try engine.render(frames: 4_800)
        let l = onsets(out.channel(0), threshold: 0.3), r = onsets(out.channel(1), threshold: 0.3)
        #expect(l.count == 1 && l == r, "left \(l), right \(r)")

        let late = engine.makePlayer(sound)
        let at = engine.currentTime + 0.1234
        try late.play(atTime: at)
        let startFrame = Int((engine.currentTime * 48_000).rounded())
        let out2 = try engine.render(frames: 9_600)
        let onset = onsets(out2.channel(0))
        #expect(onset == [Int((at * 48_000).rounded()) - startFrame + 100], "onset \(onset)")
        expectError(.invalidArgument, mentioning: ["before"]) { try late.play(atTime: 0) }
    }

    @Test("engine.play([p]) after p.play(atTime:) cancels the scheduled start")
    func playCancelsSchedule() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 2_400, at: [0]))
        try player.play(atTime: 0.05)
        try engine.play([player])
        player.pause()
        #expect(onsets(try engine.render(frames: 9_600).channel(0)).isEmpty)
    }

    @Test("playEffect (deprecated, still working) plays once and lets go; a muted effect renders silence")
    func effects() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.sine(engine, amplitude: 0.5, seconds: 0.05)
        let before = engine.context.sourceCount
        try (engine as any DeprecatedEffects).playEffect(sound, volume: 1)
        #expect(Measure.dB(try engine.render(frames: 2_400), channel: 0) > -20)
        _ = try engine.render(frames: 4_800)
        #expect(engine.context.sourceCount == before, "the effect's source was released")
        engine.effectsMuted = true
        try (engine as any DeprecatedEffects).playEffect(sound, volume: 1)
        let muted = try engine.render(frames: 2_400)
        #expect(Measure.dB(muted, channel: 0) == -160 && Measure.dB(muted, channel: 1) == -160)
        // Players that are not effects are not muted.
        let music = engine.makePlayer(sound)
        try music.play()
        #expect(Measure.dB(try engine.render(frames: 2_400), channel: 0) > -20)
    }

    @Test("an interruption pauses playing players and tells them; its end resumes them")
    func interruption() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        let log = EventLog()
        player.delegate = log
        try player.play()
        _ = try engine.render(frames: 4_800)
        engine.beginInterruption()
        #expect(!player.isPlaying)
        #expect(Measure.dB(Measure.afterStopFade(try engine.render(frames: 4_800), channel: 0, engine.context)) == -160)
        engine.endInterruption()
        #expect(player.isPlaying)
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) > -20)
        #expect(log.events == ["began", "ended"])
    }

    @Test("during an interruption play() throws, a scheduled start waits, and a player the game paused stays paused")
    func interruptionRules() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 4_800, at: [0])
        let playing = engine.makePlayer(try EngineRig.sound(engine, Tone.samples(frequency: 500, sampleRate: 48_000), streamed: false))
        playing.numberOfLoops = -1
        try playing.play()
        let scheduled = engine.makePlayer(sound)
        try scheduled.play(atTime: engine.currentTime + 0.05)
        engine.beginInterruption()
        expectError(.invalidState, mentioning: ["interrupted"]) { try engine.makePlayer(sound).play() }
        #expect(Measure.dB(try engine.render(frames: 9_600), channel: 0) == -160, "silence while interrupted, the scheduled start included")
        playing.pause()   // the game pauses it during the interruption
        engine.endInterruption(resume: true)
        #expect(!playing.isPlaying && scheduled.isPlaying)
        #expect(onsets(try engine.render(frames: 4_800).channel(0)) == [0], "the held start plays when the interruption ends")
    }

    @Test("players made, played and released from several threads at once leave no source behind")
    func concurrency() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 480, at: [10])
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<6 {
                group.addTask {
                    for i in 0..<40 {
                        let player = engine.makePlayer(sound)
                        player.pan = Float(t - 3) / 3
                        try? player.play()
                        if i % 3 == 0 { player.stop() }
                        if i % 5 == 0 { _ = try? (engine as any DeprecatedEffects).playEffect(sound, volume: 1) }
                    }
                }
            }
            group.addTask { for _ in 0..<30 { _ = try? engine.render(frames: 480) } }
        }
        _ = try engine.render(frames: 4_800)
        #expect(engine.context.sourceCount == 0, "\(engine.context.sourceCount) sources left")
    }

    @Test("a delegate that calls back into the engine neither deadlocks nor reorders events")
    func reentrantDelegate() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 500, at: [0])
        let first = engine.makePlayer(sound), second = engine.makePlayer(sound)
        let log = ReentrantLog(engine: engine)
        first.delegate = log
        second.delegate = log
        try engine.play([first, second])
        _ = try engine.render(frames: 2_400)
        #expect(log.events == ["finished", "finished"] && log.innerUpdates == 2)
    }

    @Test("an engine, its players and its device are released when the game lets go")
    func released() throws {
        weak var weakEngine: AudioEngine?
        weak var weakPlayer: Player?
        do {
            let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
            weakEngine = engine
            let sound = Sound(buffer: try clickBuffer(engine.context, frames: 480, clicks: [10]))
            let player = engine.makePlayer(sound)
            weakPlayer = player
            try player.play()
            _ = try engine.render(frames: 4_800)
        }
        #expect(weakPlayer == nil && weakEngine == nil)
    }

    @Test("a released engine stops its players and goes away, even with a sound looping forever")
    func releasedEngine() throws {
        weak var weakEngine: AudioEngine?
        var player: Player?
        do {
            let engine = try EngineRig.offline()
            weakEngine = engine
            player = engine.makePlayer(try EngineRig.clicks(engine, frames: 480, at: [0]))
            player?.numberOfLoops = -1
            try player?.play()
            _ = try engine.render(frames: 4_800)
        }
        #expect(weakEngine == nil)
        #expect(player?.isPlaying == false && player?.engine == nil)
        expectError(.invalidState, mentioning: ["engine was released"]) { try player?.play() }
    }
}

/// Calls engine.update() from inside its callback.
private final class ReentrantLog: PlayerDelegate, @unchecked Sendable {
    let engine: AudioEngine
    private let lock = NSLock()
    private var items: [String] = []
    private var inner = 0
    init(engine: AudioEngine) { self.engine = engine }
    var events: [String] { lock.withLock { items } }
    var innerUpdates: Int { lock.withLock { inner } }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) {
        lock.withLock { items.append("finished"); inner += 1 }
        engine.update()
    }
}

/// The deprecated `playEffect(_:volume:)`, called through a requirement of its own so its test
/// builds without a deprecation warning.
private protocol DeprecatedEffects {
    @discardableResult
    func playEffect(_ sound: Sound, volume: Float) throws -> Player
}

extension AudioEngine: DeprecatedEffects {}
