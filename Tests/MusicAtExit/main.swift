import Foundation
import SoundStage

// A game that never ends its session: it plays a tone for `SECONDS` (argument 1, 2 by
// default) and lets its engine go at the end of a scope, then returns from main. The music
// the session paused as the engine joined must be playing again before the process is gone
// (run by AudioSessionMusicAtExitTests).
func play(seconds: Double) throws {
    let engine = try AudioEngine()
    let rate = 48_000
    let samples = (0..<rate).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
    let tone = Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: rate, label: "tone"))
    _ = try engine.play(tone, loops: -1)
    print("playing")
    Thread.sleep(forTimeInterval: seconds)
    print("letting the engine go")
}
try play(seconds: CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 2)
print("returning from main")
