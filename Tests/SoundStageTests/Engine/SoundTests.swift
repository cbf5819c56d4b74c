import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("Sound: loaded and streamed")
struct SoundTests {
    /// A stereo test signal: a 440 Hz sine left, a 660 Hz sine right, `seconds` long.
    private func stereoSignal(seconds: Double) -> [Float] {
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
}
