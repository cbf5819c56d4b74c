import Foundation
import Testing
import SoundStage

/// Streamed sounds, decode errors, fades heard window by window, and scheduled starts.
@Suite("Engine: streaming, decode errors, fades, schedules")
struct EngineStreamTests {
    /// A stereo test signal: a 440 Hz sine left, a 660 Hz sine right, `seconds` long.
    func stereoSignal(seconds: Double) -> [Float] {
        let frames = Int(seconds * Double(EngineRig.rate))
        var out = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            let t = Float(i) / Float(EngineRig.rate)
            out[2 * i] = 0.5 * sin(2 * .pi * 440 * t)
            out[2 * i + 1] = 0.25 * sin(2 * .pi * 660 * t)
        }
        return out
    }

    @Test("a streamed sound renders sample for sample what the same sound loaded whole renders")
    func streamedEqualsLoaded() throws {
        let data = EngineRig.wav(stereoSignal(seconds: 1.3), channels: .stereo)
        var renders: [[Float]] = []
        for streamed in [false, true] {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            let sound = streamed ? try Sound(engine: engine, streamingData: data, name: "signal.wav")
                                 : try Sound(engine: engine, data: data, name: "signal.wav")
            #expect(sound.isStreamed == streamed && sound.frameCount == 62_400 && sound.channelCount == 2)
            let player = engine.makePlayer(sound)
            try player.play()
            renders.append(try engine.render(frames: 72_000).samples)
            #expect(!player.isPlaying, "finished")
        }
        #expect(renders[0] == renders[1])
        #expect(Measure.dB(Array(renders[1][..<124_800])) > -15, "and it is not silence")
    }

    @Test("streamed loops stay sample-exact where a play ends inside a chunk", arguments: [2, -1])
    func streamedLoopsAcrossChunks(loops: Int) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        // 10,000 frames: plays do not line up with the 4,800-frame chunks.
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 10_000, at: [100, 9_999], streamed: true))
        player.numberOfLoops = loops
        try player.play()
        let out = onsets(try engine.render(frames: 60_000).channel(0), gap: 16)
        let plays = loops < 0 ? 6 : loops + 1
        let expected = (0..<plays).flatMap { [100 + $0 * 10_000, 9_999 + $0 * 10_000] }
        #expect(out == expected, "onsets \(out)")
        #expect(player.isPlaying == (loops < 0))
    }

    @Test("a file damaged part-way: what decoded plays, then decodeError and finished(false), once each")
    func decodeError() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        var samples = Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate, seconds: 1)
        samples[30_000] = .nan   // a float WAV with a NaN: the decoder refuses the chunk holding it
        let data = EngineRig.wav(samples, channels: .mono)
        // Loaded whole, the damage is found at once and named.
        expectError(.decodingFailed, mentioning: ["damaged.wav", "NaN"]) { _ = try Sound(engine: engine, data: data, name: "damaged.wav") }
        // Streamed, it is found when playback gets there.
        let sound = try Sound(engine: engine, streamingData: data, name: "damaged.wav")
        let player = engine.makePlayer(sound)
        let log = StreamLog()
        player.delegate = log
        let events = player.events()
        try player.play()
        let out = try engine.render(frames: 48_000).channel(0)
        // The chunks before the damaged one (frames 0..<28,800) were played, as the whole
        // sound loaded plays them, and nothing after.
        var clean = samples
        clean[30_000] = 0
        let reference = engine.makePlayer(try Sound(engine: engine, data: EngineRig.wav(clean, channels: .mono), name: "clean.wav"))
        try reference.play()
        let expected = try engine.render(frames: 48_000).channel(0)
        #expect(Array(out[0..<28_800]) == Array(expected[0..<28_800]))
        #expect(Measure.dB(Array(out[0..<28_800])) > -20)
        #expect(Measure.dB(Array(out[28_800...])) == -160)
        #expect(log.events == ["decodeError", "finished(false)"], "\(log.events)")
        #expect(log.errors.first?.contains("damaged.wav") == true, "\(log.errors)")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.description.hasPrefix("decodeError") == true)
        #expect(await iterator.next()?.description == "finished(successfully: false)")
    }

    @Test("a streamed file that is not a sound fails when it is opened, naming it")
    func streamedNotASound() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        expectError(.decodingFailed, mentioning: ["notes.txt"]) {
            _ = try Sound(engine: engine, streamingData: Data("hello, world".utf8), name: "notes.txt")
        }
        expectError(.fileAccess, mentioning: ["/nonexistent/music.ogg"]) {
            _ = try Sound(engine: engine, streamingContentsOf: URL(fileURLWithPath: "/nonexistent/music.ogg"))
        }
    }

    @Test("metering a streamed sound: a full-scale sine reads -3.01 dB average and 0 dB peak")
    func streamedMetering() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let samples = Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate, seconds: 1, amplitude: 1)
        let player = engine.makePlayer(try EngineRig.sound(engine, samples, streamed: true))
        player.isMeteringEnabled = true
        try player.play()
        for frames in [4_900, 12_345] {   // the window straddles a chunk boundary at 4,800, then not
            _ = try engine.render(frames: frames)
            player.updateMeters()
            #expect(abs(player.averagePower(forChannel: 0) + 3.01) <= 0.1, "average \(player.averagePower(forChannel: 0))")
            #expect(abs(player.peakPower(forChannel: 0)) <= 0.1, "peak \(player.peakPower(forChannel: 0))")
        }
    }

    @Test("a fade follows its curve in every 10 ms window, with no step", arguments: [FadeCurve.linear, .equalPower])
    func fadeWindows(curve: FadeCurve) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sound(engine, Tone.samples(frequency: 1_000, sampleRate: EngineRig.rate), streamed: false))
        player.numberOfLoops = -1
        try player.play()
        let reference = Measure.dB(Array(try engine.render(frames: 4_800).channel(0)[2_400...]))
        try player.fade(to: 0, duration: 1, curve: curve)
        let out = try engine.render(frames: 48_000).channel(0)
        var worst = 0.0
        for window in 5..<90 {   // 10 ms windows; the last ones are too quiet to judge in dB
            let level = Measure.dB(Array(out[(window * 480)..<((window + 1) * 480)])) - reference
            let x = (Double(window) + 0.5) / 100
            let gain = curve == .linear ? 1 - x : cos(x * .pi / 2)
            worst = max(worst, abs(level - 20 * log10(gain)))
        }
        #expect(worst <= 0.5, "\(curve): worst window off its curve by \(worst) dB")
    }

    @Test("a start scheduled between two frames lands on the nearest one, and a cancelled one never plays")
    func scheduledBetweenFrames() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try EngineRig.clicks(engine, frames: 2_400, at: [0])
        _ = try engine.render(frames: 1_000)
        let player = engine.makePlayer(sound), cancelled = engine.makePlayer(sound)
        try player.play(atTime: (1_000 + 1_234.3) / 48_000)   // rounds down to frame 2,234
        try cancelled.play(atTime: (1_000 + 3_000.6) / 48_000)
        cancelled.stop()
        let out = onsets(try engine.render(frames: 9_600).channel(0))
        #expect(out == [1_234], "onsets \(out)")
    }
}

/// Collects decode errors and finished events from the delegate.
final class StreamLog: PlayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    private var messages: [String] = []
    var events: [String] { lock.withLock { items } }
    var errors: [String] { lock.withLock { messages } }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) { lock.withLock { items.append("finished(\(successfully))") } }
    func playerDecodeErrorDidOccur(_ player: Player, error: SoundStageError) {
        lock.withLock { items.append("decodeError"); messages.append(error.description) }
    }
}
