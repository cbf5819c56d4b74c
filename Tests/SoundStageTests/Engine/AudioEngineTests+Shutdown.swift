import Dispatch
import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// `shutdown()` ends the engine and closes its device, whoever still holds the engine or its
/// objects: what is left refuses calls with a typed error and goes away safely.
extension AudioEngineTests {
    @Test("shutdown with an events task, a player, a voice and a raw source held: the device closed, the stream ended, every later call refused")
    func shutdownClosesTheDevice() throws {
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1)
        let player = engine.makePlayer(tone)
        player.numberOfLoops = -1
        try player.play()
        let voice = try engine.play(tone, at: [1, 0, -1], loops: -1)
        let source = try AudioSource(context: engine.context)
        let buffer = tone.buffer
        #expect(buffer != nil, "a loaded sound has its buffer")
        if let buffer { try source.setBuffer(buffer) }
        try source.play()
        let playing = try engine.render(frames: 4_800)
        #expect(Measure.dB(playing, channel: 0) > -20, "it played before")
        // A task holding the engine, as a game's events loop does (on a thread of its own: the
        // test pool's threads may all be busy); a stream asked for after the shutdown ends at once.
        let events = engine.events()
        let ended = DispatchSemaphore(value: 0)
        Task(executorPreference: DedicatedExecutor.shared) { [engine] in
            for await _ in events {}
            for await _ in engine.events() {}
            ended.signal()
        }

        engine.shutdown()
        #expect(engine.isShutDown && engine.device.isClosed)
        #expect(!player.isPlaying && !voice.isValid)
        // The stream ends, so the task holding the engine ends.
        #expect(ended.wait(timeout: .now() + 10) == .success, "the events loop ended with the shutdown")

        func refusal(_ call: () throws -> Void) -> SoundStageError.Code? {
            do { try call(); return nil } catch let error as SoundStageError { return error.code } catch { return nil }
        }
        #expect(refusal { try player.play() } == .deviceClosed)
        #expect(refusal { try engine.play(tone, at: [0, 0, -1]) } == .deviceClosed)
        #expect(refusal { _ = try engine.render(frames: 480) } == .deviceClosed)
        #expect(refusal { try source.play() } == .deviceClosed)
        #expect(refusal { try source.set(.gain, to: 0.5) } == .deviceClosed)
        #expect(refusal { _ = try AudioSource(context: engine.context) } == .deviceClosed)
        #expect(refusal { _ = try Sound(engine: engine, waveform: .sine, frequency: 220, duration: 0.1) } == .deviceClosed)
        #expect(refusal { _ = try AudioContext(device: engine.device) } == .deviceClosed)
        engine.update()    // nothing to do, and no OpenAL call on the closed device
        engine.shutdown()  // a second one does nothing
        #expect(engine.device.clockNanoseconds == nil && !engine.device.isConnected)
    }

    @Test("after a shutdown, its objects go away safely and a new engine plays")
    func shutdownThenNewEngine() throws {
        do {
            let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
            let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1)
            let player = engine.makePlayer(tone)
            try player.play()
            _ = try engine.play(tone, at: [1, 0, -1])
            let bus = try engine.makeBus(named: "sfx")
            try bus.setEffect(.echo(Echo()))
            _ = try engine.render(frames: 4_800)
            engine.shutdown()
            // The engine, its sound, player, bus and effect are released here, after their device.
        }
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1)
        try engine.makePlayer(tone).play()
        let audio = try engine.render(frames: 4_800)
        #expect(Measure.dB(audio, channel: 0) > -20)
        #expect(abs(Measure.peakFrequency(audio.channel(0), sampleRate: 48_000) - 440) < 20)
        engine.shutdown()
    }

    @Test("shutdown or a close inside a batch: the batch ends without an OpenAL call on the closed context, the other context plays on")
    func shutdownInsideABatch() throws {
        // The engine shut down from inside its own context's batch (OpenAL's error trap is on in
        // the suite: a call on the destroyed context would kill the run).
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        let source = try AudioSource(context: engine.context)
        try engine.context.update { batch in
            try batch.set(.gain, of: source, to: 0.5)
            engine.shutdown()
        }
        #expect(engine.device.isClosed)

        // A second device closed from inside a batch of the first: the first is current again
        // after it, and plays.
        let kept = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        let closed = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        let tone = try Sound(engine: kept, waveform: .sine, frequency: 440, duration: 1)
        let player = kept.makePlayer(tone)
        try player.play()
        let keptSource = try AudioSource(context: kept.context)
        try kept.context.update { batch in
            try batch.set(.gain, of: keptSource, to: 0.5)
            try closed.context.update { _ in closed.device.close() }
            try batch.set(.gain, of: keptSource, to: 0.25)
        }
        #expect(keptSource.get(.gain) == 0.25)
        // The enclosing batch's context closed inside a nested batch of another: it is not made
        // current again when the nested one ends (OpenAL would refuse it with an error).
        let enclosing = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        try enclosing.context.update { _ in
            try kept.context.update { batch in
                enclosing.shutdown()
                try batch.set(.gain, of: keptSource, to: 0.75)
            }
        }
        #expect(enclosing.device.isClosed && keptSource.get(.gain) == 0.75)
        #expect(closed.device.isClosed && !kept.device.isClosed)
        let audio = try kept.render(frames: 4_800)
        #expect(Measure.dB(audio, channel: 0) > -20, "the context the batch was for plays on")
        kept.shutdown()
    }
}
