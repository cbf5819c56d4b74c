import Foundation
import SoundStage

/// `drumdub --render OUT.wav`: the fixed demo groove rendered offline. The four drums stand
/// where the game puts them and play a 16-step groove at 110 bpm while the player turns on
/// the spot, so the kit circles the player's head. Every hit is scheduled on the engine's
/// clock (`engine.play(_:atTime:)`) through the loopback device: deterministic.
enum FixedGroove {
    /// Steps of the 16-step bar each drum of ``Room/drums`` plays on.
    static let steps: [Set<Int>] = [[4, 12], [0, 8, 10], [2, 6, 10, 14], [1, 3, 5, 7, 9, 11, 13, 15]]
    static let tempo = 110.0                          // beats per minute, four steps a beat
    static var stepSeconds: Double { 60 / tempo / 4 }

    /// The kit: two players per drum, so a hit does not cut the previous one's tail.
    final class Kit {
        let engine: AudioEngine
        let players: [[Player]]
        var next: [Int]

        init(engine: AudioEngine, assets: Assets) throws {
            self.engine = engine
            players = try Room.drums.map { drum in
                let sound = try Sound(engine: engine, contentsOf: assets.drum(drum.name))
                return try (0..<2).map { _ in
                    let player = engine.makePlayer(sound)
                    player.position = drum.position
                    try player.setVolume(drum.gain)
                    try player.prepareToPlay()
                    return player
                }
            }
            next = Array(repeating: 0, count: Room.drums.count)
        }

        /// Starts every drum that plays on `step` at engine time `time`, together on one sample.
        func hit(step: Int, at time: Double) throws {
            var starting: [Player] = []
            for d in Room.drums.indices where FixedGroove.steps[d].contains(step % 16) {
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

    static func render(_ options: Options, to path: String) throws {
        let assets = try Assets.find(options.assets)
        let format = RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)
        let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(hrtf: options.hrtf ? .on : .off), service: .manual())
        defer { engine.shutdown() }
        let kit = try Kit(engine: engine, assets: assets)
        let steps = Int(options.seconds / stepSeconds)
        var audio = RenderedAudio(format: format, samples: [])
        for step in 0...steps {
            if step < steps {
                try engine.listener.setPose(position: .zero, yaw: yaw(atStep: step))
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
