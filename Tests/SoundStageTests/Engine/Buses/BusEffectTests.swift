import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("Effects on buses: every sound on a bus sends to its effect, through moves")
struct BusEffectTests {
    /// The level (dB) of the tail 0.3-0.6 s after a 10 ms burst played on `bus`, as a voice or
    /// a player.
    static func tail(_ engine: AudioEngine, on bus: Bus, player: Bool) throws -> Double {
        var burst = [Float](repeating: 0, count: 480)
        for i in burst.indices { burst[i] = 0.5 * sin(Float(i) * 0.3) }
        let sound = Sound(buffer: try AudioBuffer(context: engine.context, samples: burst, sampleRate: EngineRig.rate, label: "burst"))
        if player {
            let p = engine.makePlayer(sound)
            try p.setBus(bus)
            try p.play()
        } else {
            try engine.play(sound, bus: bus)
        }
        let audio = try engine.render(frames: 28_800)
        return Measure.dB(Array(audio.channel(0)[14_400..<28_800]))
    }

    @Test("a bus's reverb is heard on its voices and players (and a bus under it), not on other buses; it follows a move; nil removes it")
    func reverbOnABus() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        var reverb = Reverb()
        reverb.decayTime = 2
        try engine.effectsBus.setEffect(.reverb(reverb), level: 1)
        let steps = try engine.makeBus(named: "steps", parent: engine.effectsBus)
        #expect(engine.effectsBus.effect == .reverb(reverb) && steps.effect == nil)
        for player in [false, true] {
            // The 2 s tails of what played before die away first (6 s: -180 dB).
            _ = try engine.render(frames: 6 * EngineRig.rate)
            let dry = try Self.tail(engine, on: engine.uiBus, player: player)
            let wet = try Self.tail(engine, on: engine.effectsBus, player: player)
            let under = try Self.tail(engine, on: steps, player: player)
            #expect(wet > -70 && under > -70 && dry == -160, "\(player ? "player" : "voice"): effects \(wet) dB, steps \(under) dB, ui \(dry) dB")
        }
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
        #expect(try Self.tail(engine, on: engine.effectsBus, player: false) > -70, "the reverb followed the move")
        try engine.effectsBus.setEffect(nil)
        _ = try engine.render(frames: 6 * EngineRig.rate)
        #expect(try Self.tail(engine, on: engine.effectsBus, player: false) == -160, "no effect, no tail")
        expectError(.invalidArgument) { try engine.musicBus.setEffect(.echo(Echo()), level: 2) }
    }
}
