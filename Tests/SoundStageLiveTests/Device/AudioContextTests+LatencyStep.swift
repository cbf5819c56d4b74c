import Foundation
import Testing
@testable import SoundStageCore
import SoundStageTestSupport

/// A step back from a latency mode that an engine's tick decided on and makes after it lets
/// go of the gateway's lock, on the PulseAudio server scripts/test.sh starts: a mode the game
/// asked for on another thread meanwhile stands (the step found the stream in another mode
/// and made no reset).
@Suite("A latency step back yields to the game's own change made meanwhile")
struct LatencyStepTests {
    @Test("stepLatency(from:to:) steps only from the mode the stream holds: after the game's change to safe, a step from low does nothing; from the mode held it steps",
          .enabled(if: PulseServer.expected || PulseServer.answers, "needs a PulseAudio server; scripts/test.sh starts one"))
    func stepYieldsToTheGame() throws {
        try #require(PulseServer.answers, "scripts/test.sh started PulseAudio, but it does not answer")
        let device = try AudioDevice.openOutput()
        let context = try AudioContext(device: device, attributes: ContextAttributes(hrtf: .off, latency: .low))
        try #require(context.followsLatencyModes, "the process set PULSE_LATENCY_MSEC itself")
        let resets = context.resets
        // The tick saw .low and decided to step back to .balanced; the game asked for .safe first.
        try context.switchLatency(to: .safe)
        #expect(try context.stepLatency(from: .low, to: .balanced) == false)
        #expect(context.latencyMode == .safe && context.resets == resets + 1, "\(String(describing: context.latencyMode)), \(context.resets - resets) resets")
        // From the mode the stream holds, it steps.
        try context.switchLatency(to: .lowest)
        #expect(try context.stepLatency(from: .lowest, to: .low))
        #expect(context.latencyMode == .low && context.resets == resets + 3, "\(String(describing: context.latencyMode)), \(context.resets - resets) resets")
    }
}
