import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Times, frames and counts at the edges of Double and Int, at every scheduling entry point
/// and in scenes: a typed error naming the member and the range, never a trap. (Before:
/// `play(atTime: 1e18)` and `play(_:atTime: 1e300)` died by SIGILL, `render(frames: Int.max / 2)`
/// by SIGSEGV, a scene's `"start": 1e15` exited 132.)
@Suite("Extreme times: refused with a typed error, never a crash")
struct ExtremeTimesTests {
    static let huge: [Double] = [1e18, 1e300, .greatestFiniteMagnitude, AudioEngine.latestStartSeconds * 1.000001 + 1]

    @Test("play(atTime:) of a player and of the engine, crossfades and play(on:of:) at a time past the bound: invalid argument naming the range")
    func scheduling() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.5)
        let a = engine.makePlayer(tone), b = engine.makePlayer(tone)
        for time in Self.huge {
            _ = expectError(.invalidArgument, mentioning: ["atTime:", "\(AudioEngine.latestStartSeconds)"]) { try a.play(atTime: time) }
            _ = expectError(.invalidArgument, mentioning: ["play(_:atTime:"]) { try engine.play([a, b], atTime: time) }
            _ = expectError(.invalidArgument, mentioning: ["the time must be finite"]) { try b.play(on: .atTime(time), of: a) }
        }
        _ = expectError(.invalidArgument, mentioning: ["play(_:atFrame:"]) { try engine.play([a], atFrame: Int.max) }
        // Just within the bound it is taken (and the start is waiting for its time).
        try a.play(atTime: engine.currentTime + AudioEngine.latestStartSeconds - 1)
        #expect(!a.isPlaying)
        try a.play()
        _ = expectError(.invalidArgument, mentioning: ["the time must be finite"]) { try a.crossfade(to: b, duration: 1, on: .atTime(1e300)) }
    }

    /// Found by the API fuzzer (an hour's campaign, 2026-12-03): `numberOfLoops + 1` plays
    /// trapped on overflow in `prepareToPlay()`.
    @Test("numberOfLoops = Int.max plays on past the sound's end, as a loop that does not end, loaded and streamed",
          arguments: [false, true])
    func mostLoops(streamed: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = (0..<(EngineRig.rate / 4)).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / Double(EngineRig.rate))) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("most-loops-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        try EngineRig.wav(tone, channels: .mono).write(to: url)
        let sound = streamed ? try Sound(engine: engine, streamingContentsOf: url) : try Sound(engine: engine, contentsOf: url)
        let player = engine.makePlayer(sound)
        player.numberOfLoops = .max
        #expect(player.numberOfLoops == .max)
        try player.play()
        let audio = try engine.render(frames: EngineRig.rate)
        // The last quarter second, three plays past the first: the tone still at its level.
        let last = Array(audio.channel(0).suffix(EngineRig.rate / 4))
        #expect(Measure.dB(last) > -20, "\(Measure.dB(last)) dB")
        #expect(player.isPlaying)
    }

    @Test("a tempo whose first beat is 1e15 s in is refused; render(frames:) past an hour is refused on the engine and on its device")
    func tempoAndRenders() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        _ = expectError(.invalidArgument, mentioning: ["firstBeat"]) { try player.setTempo(MusicalTempo(beatsPerMinute: 120, firstBeat: 1e15)) }
        for frames in [Int.max, Int.max / 2, Int(AudioDevice.longestRenderSeconds) * EngineRig.rate + 1] {
            _ = expectError(.invalidArgument, mentioning: ["render(frames:)", "3600 s"]) { _ = try engine.render(frames: frames) }
        }
        let device = try AudioDevice.openLoopback(format: RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32))
        let context = try AudioContext(device: device)
        _ = context
        _ = expectError(.invalidArgument, mentioning: ["render(frames:)"]) { _ = try device.render(frames: Int.max / 2) }
        #expect(try engine.render(frames: 480).frameCount == 480)
    }

    @Test("a scene whose source starts 1e15 s in, or whose track's first beat is, is refused naming the member")
    func scenes() throws {
        func refused(_ json: String) -> SceneError? {
            do {
                _ = try SceneDescription.parse(Data(json.utf8))
                return nil
            } catch let error as SceneError {
                return error
            } catch {
                return nil
            }
        }
        for value in ["1e15", "1e300", "10000001"] {
            let source = #"{"duration": 1, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 1}, "start": \#(value)}]}"#
            let error = refused(source)
            #expect(error?.path == "$.sources[0].start" && error?.problem.contains("10000000") == true, "\(String(describing: error))")
        }
        let track = #"{"duration": 1, "sources": [], "music": {"tracks": [{"name": "a", "items": [{"tone": "sine", "frequency": 440, "duration": 1}], "tempo": {"bpm": 120, "firstBeat": 1e15}}]}}"#
        let error = refused(track)
        #expect(error?.path.hasSuffix(".tempo") == true && error?.problem.contains("firstBeat") == true, "\(String(describing: error))")
    }
}
