import ArgumentParser
import Foundation
import SoundStage

struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a sound file to the end of what is heard, optionally placed in 3D.",
        discussion: """
        Plays through the engine as a game uses it: in the audio session, so a call or Ctrl-Z pauses it (`fg` \
        resumes it where it was), and it follows a new default output. It ends once the last frame has been \
        heard, not when the mixer is done with it. The file and every option are checked before a device opens.
        """)

    @Argument(help: "The sound file.")
    var file: String

    @Option(help: "Place the sound at X,Y,Z (metres; the listener is at the origin facing -Z).")
    var at: String?

    // Unconditional, so `--gain -1` reaches the check (and its message) as a value.
    @Option(parsing: .unconditional, help: "Gain, at least 0 (above 1 amplifies).")
    var gain: Float = 1

    @Option(help: "The output device (see `soundstage devices`); the default device if omitted.")
    var device: String?

    func run() throws {
        // Everything checked before a device opens.
        var position: SIMD3<Float>?
        if let at {
            let parts = at.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3, parts.allSatisfy(\.isFinite) else { fail("--at takes X,Y,Z, got \(at)") }
            position = SIMD3(parts[0], parts[1], parts[2])
        }
        guard gain.isFinite, gain >= 0 else { fail("--gain must be at least 0, got \(gain)") }
        let url = URL(fileURLWithPath: file)
        let decoded: SoundFile
        do { decoded = try SoundFile.decode(contentsOf: url) } catch { fail("\(error)") }
        guard decoded.frameCount > 0 else { fail("\(file): the file holds no audio (0 frames)") }
        if let damage = decoded.damage { warn("\(file) did not decode whole: \(damage)") }
        if let device, !AudioDevice.outputDevices.contains(device) {
            fail("no output device '\(device)'; available: \(AudioDevice.outputDevices.joined(separator: ", "))")
        }

        let stop = Stopper()
        for signal in [SIGINT, SIGTERM, SIGHUP] { stop.watch(signal) }
        var engine: AudioEngine?
        do { engine = try AudioEngine(output: device.map { .named($0) } ?? .defaultDevice) } catch {
            fail("\(error). To hear it without a device, render a scene instead: soundstage render SCENE.json -o out.wav")
        }
        let outputName = engine!.device.name
        let ending = Ending()
        let total = decoded.duration
        let live = isatty(STDOUT_FILENO) != 0
        var player: Player?
        do {
            let sound = Sound(buffer: try AudioBuffer(context: engine!.context, sound: decoded, label: url.lastPathComponent))
            player = engine!.makePlayer(sound)
            player?.delegate = ending
            player?.position = position
            // The listener's gain is the one above 1 (a player's volume is 0...1).
            try engine!.listener.set(.gain, to: gain)
            try player?.play()
        } catch {
            player = nil
            close(&engine)
            fail("\(error)")
        }
        while !ending.done, !stop.asked, let playing = player {
            if live {
                // Written straight to the descriptor: print() would buffer the line.
                let state = playing.isPlaying ? "" : "  (paused)"
                FileHandle.standardOutput.write(Data(String(format: "\r%@  %6.2f / %.2f s%@\u{1B}[K", outputName, playing.currentTime, total, state).utf8))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        player = nil
        close(&engine)
        if stop.asked {
            if live { print("") }
            Foundation.exit(130)
        }
        print(live ? "\r\(outputName)  done (\(String(format: "%.2f", total)) s)\u{1B}[K" : "played \(file) (\(String(format: "%.2f", total)) s) on \(outputName)")
        if ending.failed { fail("\(file) did not play to its end") }
    }
}

/// Whether the player finished, and how.
private final class Ending: PlayerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var finished: Bool?
    var done: Bool { lock.withLock { finished != nil } }
    var failed: Bool { lock.withLock { finished == false } }
    func playerDidFinishPlaying(_ player: Player, successfully: Bool) { lock.withLock { finished = successfully } }
}
