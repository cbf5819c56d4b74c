import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("Round-trip latency: clicks played on a sink and timed through its monitor", .enabled(if: RecordingRig.enabled))
struct LatencyTests {
    @Test("soundstage latency hears every click through the monitor and reports output latency and round trip; a capture that hears nothing is a clear error")
    func latency() throws {
        let rig = try RecordingRig(), deaf = try RecordingRig()
        defer { rig.stop(); deaf.stop() }
        let measured = try LatencyProbe.measure(output: rig.label, capture: rig.monitor, clicks: 5)
        #expect(measured.heard == 5, "\(measured)")
        // Real latencies here are 30-150 ms: over the mixer's own 20 ms update, far under the
        // second a unit error (frames read as milliseconds, a clock read twice) would make.
        // The bounds are those two: above 1 ms, below 1 s.
        #expect(measured.outputSeconds > 0.001 && measured.outputSeconds < 1, "\(measured)")
        #expect(measured.roundTripSeconds > 0.001 && measured.roundTripSeconds < 1, "\(measured)")
        if let input = measured.inputSeconds { #expect(input >= 0 && input < 1) }
        print("latency: \(measured)")
        let tool = try ToolRunner.run(try #require(ToolRunner.soundstage), ["latency", "--device", rig.label, "--capture", rig.monitor, "--clicks", "3"])
        #expect(tool.status == 0 && tool.stdout.contains("round trip") && tool.stdout.contains("3 of 3 clicks heard"), "\(tool)")
        expectError(.invalidState, mentioning: ["no click was heard", deaf.monitor]) {
            _ = try LatencyProbe.measure(output: rig.label, capture: deaf.monitor, clicks: 2)
        }
    }
}
