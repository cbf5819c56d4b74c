import ArgumentParser
import Foundation
import SoundStage

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a sound file through a real output device, optionally placed in 3D.")

    @Argument(help: "The sound file.")
    var file: String

    @Option(help: "Place the sound at X,Y,Z (metres; the listener is at the origin facing -Z).")
    var at: String?

    @Option(help: "Gain, at least 0.")
    var gain: Float = 1

    @Option(help: "The output device (see `soundstage devices`); the default device if omitted.")
    var device: String?

    func run() throws {
        var position: SIMD3<Float>?
        if let at {
            let parts = at.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3, parts.allSatisfy(\.isFinite) else { fail("--at takes X,Y,Z, got \(at)") }
            position = SIMD3(parts[0], parts[1], parts[2])
        }
        let output: AudioDevice
        do { output = try AudioDevice.openOutput(named: device) } catch {
            fail("\(error). To hear it without a device, render a scene instead: soundstage render SCENE.json -o out.wav")
        }
        do {
            let context = try AudioContext(device: output)
            let buffer = try AudioBuffer(context: context, contentsOf: URL(fileURLWithPath: file))
            let source = try AudioSource(context: context)
            try source.setBuffer(buffer)
            try source.set(.gain, to: gain)
            if let position {
                try source.set(.position, to: position)
            } else {
                try source.set(.isRelative, to: true)
                try source.set(.spatialize, to: .off)
            }
            try source.play()
            let live = isatty(STDOUT_FILENO) != 0
            let total = buffer.duration
            while source.state == .playing {
                if live {
                    let now = source.get(.offsetWithLatency).heard
                    // Written straight to the descriptor: print() would buffer the line.
                    FileHandle.standardOutput.write(Data(String(format: "\r%@  %6.2f / %.2f s", output.name, now, total).utf8))
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            print(live ? "\r\(output.name)  done (\(String(format: "%.2f", total)) s)\u{1B}[K" : "played \(file) (\(String(format: "%.2f", total)) s) on \(output.name)")
        } catch {
            fail("\(error)")
        }
    }
}
