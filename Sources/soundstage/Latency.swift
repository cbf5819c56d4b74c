import ArgumentParser
import Foundation
import SoundStage

struct Latency: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure output, input and round-trip latency: play clicks and capture them back.",
        discussion: "The capture device must hear the output: a sound server's monitor of it (PulseAudio lists 'Monitor of ...'), or a cable or microphone.")

    @Option(help: "The output device; the default device if omitted.")
    var device: String?

    @Option(help: "The capture device that hears it; the default capture device if omitted.")
    var capture: String?

    @Option(help: "How many clicks to time, 0.3 s apart.")
    var clicks: Int = 5

    func run() throws {
        guard (1...100).contains(clicks) else { fail("--clicks must be 1...100, got \(clicks)") }
        do {
            let measured = try LatencyProbe.measure(output: device, capture: capture, clicks: clicks)
            print("\(measured.outputDevice) -> \(measured.captureDevice): \(measured)")
        } catch {
            fail("\(error)")
        }
    }
}
