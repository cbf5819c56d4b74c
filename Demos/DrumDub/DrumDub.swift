import Foundation
import SoundStage

/// drumdub: a game-style scene. Four drums stand around the player (snare front-left, bass
/// front-right, tambourine back-right, maraca back-left) and play a groove while the player
/// turns on the spot, so the kit circles the player's head.
///
///     drumdub [--seconds N] [--hrtf] [--render OUT.wav] [--assets DIR]
///
/// Built on ``AudioEngine`` and ``Player``: each drum is a pair of positioned players, and
/// every hit is scheduled on the engine's clock (`engine.play(_:atTime:)`). Live by default,
/// through the default output device. `--render` renders the same scene offline through the
/// loopback device to a 16-bit WAV file, deterministically.
/// Exit status: 0 done, 1 error, 2 bad arguments, 3 no output device (see scripts/demo.sh).
@main
struct DrumDub {
    struct Drum {
        let name: String
        let position: SIMD3<Float>
        /// Steps of the 16-step bar it plays on.
        let steps: Set<Int>
        let gain: Float
    }

    static let drums = [
        Drum(name: "snare", position: [-2, 0, -2], steps: [4, 12], gain: 0.9),
        Drum(name: "bass", position: [2, 0, -2], steps: [0, 8, 10], gain: 1.0),
        Drum(name: "tambourine", position: [2, 0, 2], steps: [2, 6, 10, 14], gain: 0.6),
        Drum(name: "maraca", position: [-2, 0, 2], steps: [1, 3, 5, 7, 9, 11, 13, 15], gain: 0.5),
    ]
    static let tempo = 110.0                          // beats per minute, four steps a beat
    static var stepSeconds: Double { 60 / tempo / 4 }

    struct Options {
        var seconds = 16.0
        var hrtf = false
        var render: String?
        var assets: String?
    }

    static func main() {
        let options: Options
        do { options = try parse(Array(CommandLine.arguments.dropFirst())) } catch {
            FileHandle.standardError.write(Data("drumdub: \(error)\nusage: drumdub [--seconds N] [--hrtf] [--render OUT.wav] [--assets DIR]\n".utf8))
            exit(2)
        }
        do {
            if let path = options.render {
                try renderOffline(options, to: path)
            } else {
                try playLive(options)
            }
        } catch let error as SoundStageError where error.code == .noOutputDevice {
            FileHandle.standardError.write(Data("drumdub: \(error)\n".utf8))
            exit(3)
        } catch {
            FileHandle.standardError.write(Data("drumdub: \(error)\n".utf8))
            exit(1)
        }
    }

    static func parse(_ args: [String]) throws -> Options {
        struct BadArgument: Error, CustomStringConvertible { let description: String }
        var options = Options()
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BadArgument(description: "\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--seconds":
                guard let s = Double(try value()), s > 0, s <= 3600 else { throw BadArgument(description: "--seconds takes a number in (0, 3600]") }
                options.seconds = s
            case "--hrtf": options.hrtf = true
            case "--render": options.render = try value()
            case "--assets": options.assets = try value()
            default: throw BadArgument(description: "unknown argument \(args[i])")
            }
            i += 1
        }
        return options
    }

    /// The folder with the drum sounds: --assets, or assets/drums found from the working
    /// directory or the executable's location upwards.
    static func assetsFolder(_ options: Options) throws -> URL {
        if let path = options.assets { return URL(fileURLWithPath: path) }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 { candidates.append(dir); dir = dir.deletingLastPathComponent() }
        for base in candidates {
            let folder = base.appendingPathComponent("assets/drums")
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("snare.wav").path) { return folder }
        }
        throw SoundStageError(.fileAccess, operation: "drumdub", object: "assets/drums",
                              reason: "the drum sounds were not found; run from the package folder or pass --assets DIR")
    }

    /// The kit: two players per drum, placed in the room, so a hit does not cut the previous
    /// one's tail. Each hit is scheduled on the engine's clock, so the groove keeps time.
    final class Kit {
        let engine: AudioEngine
        let players: [[Player]]
        var next: [Int]

        init(engine: AudioEngine, folder: URL) throws {
            self.engine = engine
            players = try drums.map { drum in
                let sound = try Sound(engine: engine, contentsOf: folder.appendingPathComponent("\(drum.name).wav"))
                return try (0..<2).map { _ in
                    let player = engine.makePlayer(sound)
                    player.position = drum.position
                    try player.setVolume(drum.gain)
                    try player.prepareToPlay()
                    return player
                }
            }
            next = Array(repeating: 0, count: drums.count)
        }

        /// Starts every drum that plays on `step` at engine time `time`, together on one sample.
        func hit(step: Int, at time: Double) throws {
            var starting: [Player] = []
            for (d, drum) in drums.enumerated() where drum.steps.contains(step % 16) {
                let player = players[d][next[d]]
                next[d] = (next[d] + 1) % players[d].count
                player.stop()
                try player.seek(to: 0)
                starting.append(player)
            }
            try engine.play(starting, atTime: time)
        }
    }

    /// The player turns once around every 4 bars (about 8.7 s), turning left.
    static func yaw(atStep step: Int) -> Float { Float(step) / 64 * 2 * .pi }

    static func playLive(_ options: Options) throws {
        let folder = try assetsFolder(options)
        let engine = try AudioEngine(attributes: ContextAttributes(hrtf: options.hrtf ? .on : .default))
        defer { engine.shutdown() }
        let kit = try Kit(engine: engine, folder: folder)
        let context = engine.context
        print("drumdub: playing on \(engine.device.name) at \(context.frequency) Hz, HRTF \(context.hrtfStatus); \(Int(options.seconds)) s")
        let steps = Int(options.seconds / stepSeconds)
        let start = engine.currentTime + 0.1
        for step in 0..<steps {
            let due = start + Double(step) * stepSeconds
            // Wake a little early and schedule the hit on the engine's clock.
            let wait = due - 0.03 - engine.currentTime
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            try context.listener.setPose(position: .zero, yaw: yaw(atStep: step))
            try kit.hit(step: step, at: max(due, engine.currentTime))
            if step % 16 == 0 {
                let degrees = Int((yaw(atStep: step) * 180 / .pi).rounded()) % 360
                print("  bar \(step / 16 + 1): facing \(degrees) degrees left of the snare-bass line")
            }
        }
        Thread.sleep(forTimeInterval: 0.6)
    }

    static func renderOffline(_ options: Options, to path: String) throws {
        let folder = try assetsFolder(options)
        let format = RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)
        let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(hrtf: options.hrtf ? .on : .off), service: .manual())
        defer { engine.shutdown() }
        let kit = try Kit(engine: engine, folder: folder)
        let steps = Int(options.seconds / stepSeconds)
        var audio = RenderedAudio(format: format, samples: [])
        for step in 0...steps {
            if step < steps {
                try engine.context.listener.setPose(position: .zero, yaw: yaw(atStep: step))
                try kit.hit(step: step, at: engine.currentTime)
            }
            // Render up to the next step's frame (the last block lets the tails ring out).
            let end = step < steps ? Int((Double(step + 1) * stepSeconds * 48_000).rounded()) : audio.frameCount + 24_000
            audio.append(try engine.render(frames: end - audio.frameCount))
        }
        try audio.writeWAV(to: URL(fileURLWithPath: path), as: .pcm16)
        print("drumdub: rendered \(String(format: "%.2f", Double(audio.frameCount) / 48_000)) s offline to \(path) (HRTF \(engine.context.hrtfStatus))")
        for (name, level) in zip(["left", "right"], audio.levels()) {
            print(String(format: "  %@: peak %.1f dBFS, RMS %.1f dBFS", name, level.peak, level.rms))
        }
    }
}
