import ArgumentParser
import Foundation
import SoundStage

@main
struct SoundStageTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundstage",
        abstract: "Inspect audio devices and sounds with SoundStage (OpenAL Soft).",
        subcommands: [Devices.self, Info.self, Convert.self, Render.self, Play.self, Record.self, Latency.self, Session.self, Effects.self, Music.self]
    )
}

/// Prints a one-line error to stderr and exits non-zero.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("soundstage: \(message)\n".utf8))
    exit(1)
}

/// Writes a warning line on standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("soundstage: warning: \(message)\n".utf8))
}

/// Shuts `engine` down and lets it go, waiting (a second at most) until it has gone, so its
/// device is closed before the process ends (its service thread may hold it for a tick).
/// Whatever else holds the engine's objects (a player, a sound) must be let go first.
func close(_ engine: inout AudioEngine?) {
    weak let released = engine
    engine?.shutdown()
    engine = nil
    let deadline = ContinuousClock.now + .seconds(1)
    while released != nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List output and capture devices, the defaults, the OpenAL in use, HRTF sets and extensions.")

    @Flag(help: "Also open the default output device, and fail if it does not open.")
    var open = false

    func run() throws {
        func list(_ title: String, _ names: [String], default name: String?) {
            print("\(title):")
            if names.isEmpty { print("  (none)") }
            for n in names { print("  \(n == name ? "*" : " ") \(n)") }
        }
        list("Output devices (* default)", AudioDevice.outputDevices, default: AudioDevice.defaultOutputDevice)
        list("Capture devices (* default)", AudioDevice.captureDevices, default: AudioDevice.defaultCaptureDevice)
        print("ALC extensions: \(AudioDevice.extensions.joined(separator: " "))")
        print("OpenAL configuration: \(AudioDevice.configuration)")
        do {
            let loopback = try AudioDevice.openLoopback()
            let hrtfs = loopback.availableHRTFs
            print("HRTF sets: \(hrtfs.isEmpty ? "(none)" : hrtfs.joined(separator: ", "))")
            let context = try AudioContext(device: loopback)
            print("OpenAL: \(context.version)")
            print("AL extensions: \(context.extensions.joined(separator: " "))")
            print("Resamplers: \(context.resamplers.joined(separator: ", "))")
        } catch {
            print("Offline rendering: unavailable (\(error))")
        }
        if open {
            do {
                let device = try AudioDevice.openOutput()
                let context = try AudioContext(device: device)
                print("Opened \(device): \(context.frequency) Hz, HRTF \(context.hrtfStatus)")
            } catch {
                fail("\(error)")
            }
        }
    }
}
