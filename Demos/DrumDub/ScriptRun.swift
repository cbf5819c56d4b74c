import Foundation
import SoundStage

/// `drumdub --script FILE`: the game played offline from a script of key presses, rendered
/// through the loopback device (48 kHz stereo) to a WAV file. Each key press lands on its
/// frame (the render stops there, the game acts, the render goes on), and so does each hit
/// of a looping groove: the same script makes the same file.
enum ScriptRun {
    static let sampleRate = 48_000

    static func run(_ options: Options, script path: String) throws {
        let script = try Script.load(path)
        let assets = try Assets.find(options.assets)
        // Beside the script, named after it, unless --render says.
        let output = options.render ?? URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("wav").path
        let format = RenderFormat(sampleRate: sampleRate, channels: .stereo, sampleType: .float32)
        let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(hrtf: options.hrtf ? .on : .off), service: .manual())
        defer { engine.shutdown() }
        let game = try Game(engine: engine, assets: assets)
        try game.start()

        func frame(_ seconds: Double) -> Int { Int((seconds * Double(sampleRate)).rounded()) }
        // Half a frame: a hit due on a frame is played on it, whatever the rounding.
        let slack = 0.5 / Double(sampleRate)
        var audio = RenderedAudio(format: format, samples: [])
        var next = 0, endFrame = frame(script.end), complaints = 0
        while true {
            let now = Double(audio.frameCount) / Double(sampleRate)
            while next < script.presses.count, frame(script.presses[next].seconds) <= audio.frameCount {
                let press = script.presses[next]
                next += 1
                if press.action == .quit {
                    endFrame = audio.frameCount
                    let left = script.presses.count - next
                    if left > 0 { FileHandle.standardError.write(Data("drumdub: \(path) line \(press.line): q ends the script; the \(left) key presses after it are not played\n".utf8)) }
                    next = script.presses.count
                    break
                }
                do { try game.perform(press.action, at: now) } catch {
                    // As the game shows it on screen and plays on.
                    FileHandle.standardError.write(Data("drumdub: \(path) line \(press.line) (\(press.key) at \(press.seconds) s): \(error)\n".utf8))
                    complaints += 1
                }
            }
            do { try game.tick(at: now + slack) } catch {
                FileHandle.standardError.write(Data("drumdub: \(path): the groove's hit at \(String(format: "%.3f", now)) s: \(error)\n".utf8))
                complaints += 1
            }
            guard audio.frameCount < endFrame else { break }
            var stop = endFrame
            if next < script.presses.count { stop = min(stop, frame(script.presses[next].seconds)) }
            if let due = game.nextDue { stop = min(stop, frame(due)) }
            audio.append(try engine.render(frames: max(1, stop - audio.frameCount)))
        }
        try audio.writeWAV(to: URL(fileURLWithPath: output), as: .pcm16)
        if let screen = options.screen {
            let text = Screen.draw(game.snapshot(at: Double(audio.frameCount) / Double(sampleRate))).text
            try Data(text.utf8).write(to: URL(fileURLWithPath: screen))
        }
        print("drumdub: played \(next) key presses of \(path) offline: \(String(format: "%.2f", Double(audio.frameCount) / Double(sampleRate))) s to \(output) (HRTF \(engine.context.hrtfStatus))")
        for (name, level) in zip(["left", "right"], audio.levels()) {
            print(String(format: "  %@: peak %.1f dBFS, RMS %.1f dBFS", name, level.peak, level.rms))
        }
        if complaints > 0 { print("  \(complaints) key presses could not act (see above)") }
    }
}
