import Testing
import SoundStage
import SoundStageTestSupport

/// `engine.listener`: the listener without going through the context.
extension AudioEngineTests {
    @Test("engine.listener is the context's listener: turned around, a sound on the right is heard on the left")
    func engineListener() throws {
        let engine = try AudioEngine(output: .offline(RenderFormat()), service: .manual())
        defer { engine.shutdown() }
        let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1)
        try engine.play(tone, at: [2, 0, 0], loops: -1)
        let facing = try engine.render(frames: 9_600)
        try engine.listener.setPose(position: .zero, yaw: .pi)
        let turned = try engine.render(frames: 9_600)
        let before = Measure.dB(facing, channel: 1) - Measure.dB(facing, channel: 0)
        let after = Measure.dB(turned, channel: 1) - Measure.dB(turned, channel: 0)
        #expect(before > 6 && after < -6, "right minus left: \(before) dB facing, \(after) dB turned around")
        #expect(engine.context.listener.get(.orientation).forward.z > 0.99, "the context's listener turned too")
    }
}
