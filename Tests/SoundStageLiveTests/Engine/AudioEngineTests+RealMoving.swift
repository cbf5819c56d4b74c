import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// A real-time engine on the sound server the test script starts.
@Suite("AudioEngine: moving a real-time engine")
struct AudioEngineRealMovingTests {
    @Test("a switch to a missing device is deviceNotFound, and the engine plays on where it was")
    func missingDevice() throws {
        guard PulseServer.answers else {
            #expect(!PulseServer.expected, "the test script started PulseAudio, but it does not answer")
            return
        }
        let engine = try AudioEngine()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1))
        player.numberOfLoops = -1
        try player.play()
        let device = engine.device, source = player.audioSource
        expectError(.deviceNotFound, mentioning: ["no such device"]) { try engine.switchOutput(to: .named("no such device")) }
        expectError(.invalidArgument, mentioning: ["real-time"]) { try engine.switchOutput(to: .offline(RenderFormat())) }
        #expect(engine.device === device && player.audioSource === source && player.isPlaying)
        // A move on request to the same server's default device carries the player along.
        let change = try engine.switchOutput(to: .defaultDevice)
        #expect(change.reason == .override && engine.device !== device && player.isPlaying)
        // Opening the new device's stream takes 20-100 ms here; half a second is room for a
        // loaded machine, and a move that waited for a retry (50 ms to 2 s) would show.
        #expect(change.moveSeconds < 0.5, "\(change)")
    }
}
