import Foundation
import Testing
import SoundStage

@Suite("Engine and Player (offline renders)")
struct EngineTests {
    @Test("numberOfLoops N plays exactly N+1 times, back to back, and finishes once",
          arguments: [0, 1, 3, 12], [false, true])
    func loops(n: Int, streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 4_800, at: [100], streamed: streamed))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = n
        try player.play()
        let out = try engine.render(frames: 4_800 * (n + 3))
        let expected = (0...n).map { 100 + $0 * 4_800 }
        #expect(onsets(out.channel(0)) == expected)
        #expect(log.events == ["finished(true)"], "events: \(log.events)")
        #expect(!player.isPlaying)
    }

    @Test("-1 loops until stopped; stop() reports nothing")
    func forever() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 4_800, at: [100]))
        let log = EventLog()
        player.delegate = log
        player.numberOfLoops = -1
        try player.play()
        #expect(onsets(try engine.render(frames: 48_000).channel(0)).count == 10)
        player.stop()
        #expect(onsets(try engine.render(frames: 9_600).channel(0)).isEmpty)
        #expect(log.events.isEmpty)
    }

    @Test("events also arrive on an AsyncStream, on the thread that runs update()")
    func stream() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 2_400, at: [10]))
        let events = player.events()
        let log = EventLog()
        player.delegate = log
        try player.play()
        _ = try engine.render(frames: 4_800)
        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.description == "finished(successfully: true)")
        #expect(log.threads.count == 1, "delivered once, serially, by the render call: \(log.threads)")
    }

    @Test("seeking lands on the exact frame, before, during and paused playback; currentTime follows the render", arguments: [false, true])
    func seek(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 48_000, at: [24_000], streamed: streamed)
        let player = engine.makePlayer(sound)
        player.currentTime = 0.25
        try player.play()
        let first = onsets(try engine.render(frames: 24_000).channel(0))
        #expect(first == [12_000], "onset \(first)")
        player.stop()
        player.currentTime = 0
        try player.play()
        _ = try engine.render(frames: 4_800)
        #expect(abs(player.currentTime - 0.1) <= 0.001, "currentTime \(player.currentTime)")
        try player.seek(to: 0.4)
        let second = onsets(try engine.render(frames: 9_600).channel(0))
        #expect(second == [4_800], "onset \(second)")
        // Paused, then moved, then resumed: currentTime reads the new place at once.
        player.pause()
        try player.seek(to: 0.3)
        #expect(player.currentTime == 0.3)
        try player.play()
        let third = onsets(try engine.render(frames: 14_400).channel(0))
        #expect(third == [9_600], "onset \(third)")
        expectError(.invalidArgument, mentioning: ["0...1.0"]) { try player.seek(to: 2) }
    }

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

    @Test("a loop region repeats exactly after the intro (AL_SOFT_loop_points)")
    func loopPoints() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 9_600, at: [1_000, 5_000])
        let player = engine.makePlayer(sound)
        try player.setLoopRegion(0.1..<0.2)    // frames 4800..<9600
        try player.play()
        let out = onsets(try engine.render(frames: 30_000).channel(0))
        #expect(out == [1_000, 5_000, 9_800, 14_600, 19_400, 24_200, 29_000], "onsets \(out)")
        expectError(.invalidArgument, mentioning: ["within"]) { try player.setLoopRegion(0.1..<3) }
    }

    @Test("metering: a full-scale sine reads -3.01 dB average and 0 dB peak; silence reads -160")
    func metering() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 1))
        player.isMeteringEnabled = true
        player.updateMeters()
        #expect(player.averagePower(forChannel: 0) == -160 && player.peakPower(forChannel: 0) == -160)
        try player.play()
        _ = try engine.render(frames: 12_345)
        player.updateMeters()
        #expect(abs(player.averagePower(forChannel: 0) + 3.01) <= 0.1, "average \(player.averagePower(forChannel: 0))")
        #expect(abs(player.peakPower(forChannel: 0)) <= 0.1, "peak \(player.peakPower(forChannel: 0))")
        player.volume = 0.5
        player.updateMeters()
        #expect(abs(player.averagePower(forChannel: 0) + 9.03) <= 0.1)
        player.stop()
        player.updateMeters()
        #expect(player.averagePower(forChannel: 0) == -160)
        // Master output metering of the render itself.
        let silent = try engine.render(frames: 4_800)
        #expect(silent.frameCount == 4_800 && engine.outputLevels.allSatisfy { $0.rms == -160 && $0.peak == -160 })
    }

    @Test("a fade's level at its midpoint is within 0.5 dB of its curve; stopAtEnd stops",
          arguments: [(FadeCurve.linear, -6.02), (.equalPower, -3.01)])
    func fade(curve: FadeCurve, midpoint: Double) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        player.numberOfLoops = -1
        try player.play()
        let before = try engine.render(frames: 4_800)
        try player.fade(to: 0, duration: 1, curve: curve, stopAtEnd: true)
        let out = try engine.render(frames: 48_000 + 4_800)
        let reference = Measure.dB(Array(before.channel(0)[2_400...]))
        let middle = Measure.dB(Array(out.channel(0)[(24_000 - 240)..<(24_000 + 240)]))
        #expect(abs(middle - reference - midpoint) <= 0.5, "\(curve): \(middle - reference) dB at the midpoint")
        // No step: neighbouring 10 ms windows differ by little more than the curve does.
        let quarter = Measure.dB(Array(out.channel(0)[(12_000 - 240)..<(12_000 + 240)]))
        #expect(quarter > middle && quarter - reference < 0)
        #expect(!player.isPlaying)
        #expect(Measure.dB(Array(out.channel(0)[49_000...])) == -160)
    }

    @Test("pan: -1 is left, 1 is right, 0 is centred")
    func pan() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.sine(engine, amplitude: 0.5)
        for (pan, check) in [(Float(-1), { (l: Double, r: Double) in l - r >= 20 }), (1, { l, r in r - l >= 20 }), (0, { l, r in abs(l - r) <= 0.1 })] {
            let player = engine.makePlayer(sound)
            player.pan = pan
            try player.play()
            let out = try engine.render(frames: 4_800)
            let l = Measure.dB(out, channel: 0), r = Measure.dB(out, channel: 1)
            #expect(check(l, r), "pan \(pan): left \(l) dB, right \(r) dB")
            player.stop()
        }
        #expect(throws: SoundStageError.self) { try engine.makePlayer(sound).setPan(2) }
    }

    @Test("playEffect plays once and lets go; a muted effect renders silence")
    func effects() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.sine(engine, amplitude: 0.5, seconds: 0.05)
        let before = engine.context.sourceCount
        try engine.playEffect(sound)
        #expect(Measure.dB(try engine.render(frames: 2_400), channel: 0) > -20)
        _ = try engine.render(frames: 4_800)
        #expect(engine.context.sourceCount == before, "the effect's source was released")
        engine.effectsMuted = true
        try engine.playEffect(sound)
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
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) == -160)
        engine.endInterruption()
        #expect(player.isPlaying)
        #expect(Measure.dB(try engine.render(frames: 4_800), channel: 0) > -20)
        #expect(log.events == ["began", "ended"])
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
                        if i % 5 == 0 { _ = try? engine.playEffect(sound) }
                    }
                }
            }
            group.addTask { for _ in 0..<30 { _ = try? engine.render(frames: 480) } }
        }
        _ = try engine.render(frames: 4_800)
        #expect(engine.context.sourceCount == 0, "\(engine.context.sourceCount) sources left")
    }
}

@Suite("Engine on a real device")
struct EngineDeviceTests {
    @Test("a real-time engine delivers finished on its service thread, once the end is heard",
          .enabled(if: PulseServer.expected || PulseServer.answers, "needs a PulseAudio server; scripts/test.sh starts one"))
    func serviceThread() async throws {
        let engine = try AudioEngine()
        defer { engine.shutdown() }
        let sound = Sound(buffer: try clickBuffer(engine.context, frames: 2_400, clicks: [10], sampleRate: 48_000))
        let player = engine.makePlayer(sound)
        let log = EventLog()
        player.delegate = log
        let events = player.events()
        let started = ContinuousClock.now
        try player.play()
        let source = try #require(player.audioSource)
        // When the mixer is done with the source (a fresh PulseAudio stream may take a while to start).
        var stopped: ContinuousClock.Instant?
        while stopped == nil, ContinuousClock.now - started < .seconds(10) {
            if source.state == .stopped { stopped = .now } else { try await Task.sleep(for: .milliseconds(1)) }
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        let finished = ContinuousClock.now
        #expect(event?.description == "finished(successfully: true)")
        #expect(log.threads == ["service"])
        let mixed = try #require(stopped)
        #expect(finished - started >= .milliseconds(50), "reported \(finished - started) after play(); the sound lasts 50 ms")
        // Reported after the output latency (up to about 70 ms here) plus at most a tick or two.
        #expect(finished - mixed < .milliseconds(150), "reported \(finished - mixed) after the mixer finished")
    }
}

@Suite("Engine lifetimes")
struct EngineLifetimeTests {
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
}
