import Foundation

/// The PulseAudio server the real-device tests need (scripts/test.sh starts one).
package enum PulseServer {
    /// Whether a PulseAudio server answers (`pactl info`).
    package static var answers: Bool {
        guard let pactl = ToolRunner.which("pactl") else { return false }
        return (try? ToolRunner.run(pactl, ["info"]).status) == 0
    }

    /// The test script starts a server and sets SOUNDSTAGE_E2E=1: then the test must run.
    package static var expected: Bool { ProcessInfo.processInfo.environment["SOUNDSTAGE_E2E"] == "1" }
}
