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

    @Option(help: "The latency mode to ask of the sound server: \(LatencyMode.allCases.map(\.rawValue).joined(separator: ", ")), or all (each in turn). Default: none (OpenAL Soft's own periods).")
    var mode: String?

    func run() throws {
        guard (1...100).contains(clicks) else { fail("--clicks must be 1...100, got \(clicks)") }
        let modes: [LatencyMode?]
        switch mode {
        case nil: modes = [nil]
        case "all": modes = LatencyMode.allCases
        case let name?:
            guard let one = LatencyMode(rawValue: name) else {
                fail("unknown mode '\(name)'; use one of \(LatencyMode.allCases.map(\.rawValue).joined(separator: ", ")), or all")
            }
            modes = [one]
        }
        for mode in modes {
            do {
                let measured = try LatencyProbe.measure(output: device, capture: capture, clicks: clicks, latency: mode)
                // Where the server's floor, not the mode, set the period, say so.
                let floor = measured.serverRequest?.floorNote.map { " (\($0))" } ?? ""
                let period = measured.periodFrames.map { ", period \($0) frames\(floor)" } ?? ""
                let request = measured.serverRequest
                let asked: String
                if let request, request.origin == .process {
                    // The process's own PULSE_LATENCY_MSEC decides; the mode is not asked.
                    let own = request.replaced.map { "in place of the process's PULSE_LATENCY_MSEC=\($0), whose periods OpenAL Soft 1.19.1's reverb hangs in" }
                        ?? "the process's PULSE_LATENCY_MSEC"
                    asked = "\(mode.map { "mode \($0), not followed" } ?? "no mode") (\(request.milliseconds) ms asked, \(own)\(period)): "
                } else if let mode {
                    let near = request?.replaced.map { ", in place of the mode's \($0) ms, whose periods OpenAL Soft 1.19.1's reverb hangs in" } ?? ""
                    asked = "mode \(mode) (\(request?.milliseconds ?? mode.requestedMilliseconds) ms asked\(near)\(period)): "
                } else {
                    asked = "no mode (OpenAL Soft's own periods\(period)): "
                }
                print("\(measured.outputDevice) -> \(measured.captureDevice): \(asked)\(measured)")
            } catch {
                fail("\(error)")
            }
        }
    }
}
