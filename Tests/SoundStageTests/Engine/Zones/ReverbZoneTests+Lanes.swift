import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

@Suite("Reverb zone lanes: players prepared or scheduled before a zone, moves mid-fade, replaced reverbs, heavier zones, fewer sends")
struct ReverbZoneLaneTests {
    static let cave = ReverbZone(name: "cave", shape: .sphere(center: .zero, innerRadius: 4, outerRadius: 12), reverb: Reverb(preset: .stoneroom))

    static func burst(_ engine: AudioEngine) throws -> Sound {
        let burst = (0..<480).map { 0.5 * sin(Float($0) * 0.3) }
        return try EngineRig.sound(engine, burst, streamed: false)
    }

    /// Tail level (dB) 0.3...0.6 s after `start` was called.
    static func tail(_ engine: AudioEngine, _ start: () throws -> Void) throws -> Double {
        try start()
        let audio = try engine.render(frames: 28_800)
        return Measure.dB(Array(audio.channel(0)[14_400..<28_800]))
    }

    @Test("a player prepared before the first zone is added hears it when it plays")
    func preparedPlayerMissesZone() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        try engine.context.listener.set(.position, to: .zero)
        let sound = try Self.burst(engine)
        let prepared = engine.makePlayer(sound)
        try prepared.setBus(engine.effectsBus)
        prepared.position = [0, 0, -1]
        try prepared.prepareToPlay()
        try engine.addReverbZone(Self.cave)
        _ = try engine.render(frames: 480)
        let control = engine.makePlayer(sound)
        try control.setBus(engine.effectsBus)
        control.position = [0, 0, -1]
        let fresh = try Self.tail(engine) { try control.play() }
        _ = try engine.render(frames: 6 * EngineRig.rate)
        let preparedTail = try Self.tail(engine) { try prepared.play() }
        #expect(fresh > -70, "control: \(fresh) dB")
        #expect(preparedTail > -70, "prepared before the zone: \(preparedTail) dB (fresh player: \(fresh) dB)")
    }

    @Test("a move to a higher sample rate does not jump a fade in flight")
    func rateChangeJumpsFade() throws {
        let low = 22_050
        let engine = try AudioEngine(output: .offline(RenderFormat(sampleRate: low, channels: .stereo, sampleType: .float32)),
                                     attributes: ContextAttributes(hrtf: .off), service: .manual(tick: 0.01))
        defer { engine.shutdown() }
        try engine.addReverbZone(Self.cave)
        try engine.context.listener.set(.position, to: [0, 0, 50])
        _ = try engine.render(frames: 10 * low)   // 10 s outside
        try engine.context.listener.set(.position, to: .zero)
        _ = try engine.render(frames: low / 5)    // 0.2 s in: about -54 dB
        let before = 20 * log10(engine.reverbZoneReturns["cave"]!)
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)))
        try engine.context.listener.set(.position, to: .zero)
        let after = 20 * log10(engine.reverbZoneReturns["cave"]!)
        #expect(after - before < 1, "the move alone took the return from \(before) dB to \(after) dB (at most 30 dB/s allowed)")
    }

    @Test("contexts with 2 and 3 sends: one lane fewer than sends, waiting zones, slots through a move", arguments: [2, 3])
    func fewerSends(sends: Int) throws {
        let engine = try AudioEngine(output: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)),
                                     attributes: ContextAttributes(hrtf: .off, auxiliarySends: sends), service: .manual(tick: 0.01))
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        try engine.play(try EngineRig.sine(engine, amplitude: 0.1), at: .zero, loops: -1)
        for k in 0..<4 {
            try engine.addReverbZone(ReverbZone(name: "z\(k)", shape: .sphere(center: .zero, innerRadius: Float(k), outerRadius: 10), reverb: Reverb(preset: .cave)))
        }
        try engine.context.listener.set(.position, to: [0, 0, 5])
        _ = try engine.render(frames: 480)
        let heard = engine.reverbZoneReturns.filter { $0.value > 0 }.keys.sorted()
        #expect(heard.count == sends - 1, "\(engine.reverbZoneReturns)")
        #expect(engine.context.liveEffectSlots.load(ordering: .relaxed) == sends - 1)
        engine.removeReverbZone(named: heard.last!)
        _ = try engine.render(frames: 960)
        #expect(engine.reverbZoneReturns.filter { $0.value > 0 }.count == sends - 1, "\(engine.reverbZoneReturns)")
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
        _ = try engine.render(frames: 960)
        #expect(engine.context.liveEffectSlots.load(ordering: .relaxed) == sends - 1)
    }

    @Test("a player's send level 0 keeps it dry of zones; 1 sends")
    func playerSend() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        try engine.context.listener.set(.position, to: .zero)
        try engine.addReverbZone(Self.cave)
        _ = try engine.render(frames: 480)
        let sound = try Self.burst(engine)
        let p = engine.makePlayer(sound)
        try p.setBus(engine.effectsBus)
        p.position = [0, 0, -1]
        try p.setSendLevel(0)
        let dry = try Self.tail(engine) { try p.play() }
        _ = try engine.render(frames: 6 * EngineRig.rate)
        try p.setSendLevel(1)
        let wet = try Self.tail(engine) { try p.play() }
        #expect(dry == -160 && wet > -70, "dry \(dry) wet \(wet)")
    }

    @Test("a zone reaching past finite space is refused when parsed, so a plot never draws NaN")
    func farZone() throws {
        let json = #"{"duration": 0.1, "sources": [{"sound": {"tone": "sine", "frequency": 440, "duration": 0.1}}], "effects": {"zones": [{"name": "far", "sphere": {"center": [3e38, 0, 0], "inner": 1, "outer": 1e38}, "reverb": "cave"}]}}"#
        #expect(throws: SceneError.self) { try SceneDescription.parse(Data(json.utf8)) }
    }

    @Test("a zone given a new reverb counts its old one in its return until that has faded out")
    func replacedReturns() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.context.listener.set(.position, to: .zero)
        try engine.addReverbZone(Self.cave)
        _ = try engine.render(frames: 3 * EngineRig.rate)
        #expect(engine.reverbZoneReturns["cave"] == 1)
        var hall = Self.cave
        hall.reverb = Reverb(preset: .hallway)
        try engine.addReverbZone(hall)
        _ = try engine.render(frames: 480)
        let lanes = engine.voices.state.withLockedValue { $0.zones.lanes.map { ($0.zone, $0.gain) } }
        #expect(engine.reverbZoneReturns["cave"]! > 0.5, "returns \(engine.reverbZoneReturns), lanes \(lanes)")
    }

    @Test("a player prepared before a bus effect is set hears it when it plays")
    func preparedPlayerBusEffect() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let sound = try Self.burst(engine)
        let prepared = engine.makePlayer(sound)
        try prepared.setBus(engine.effectsBus)
        try prepared.prepareToPlay()
        var reverb = Reverb()
        reverb.decayTime = 2
        try engine.effectsBus.setEffect(.reverb(reverb))
        _ = try engine.render(frames: 480)
        let t = try Self.tail(engine) { try prepared.play() }
        #expect(t > -70, "bus effect, prepared before: \(t) dB")
    }

    @Test("a player scheduled before the zone is added hears it")
    func scheduledPlayer() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        try engine.context.listener.set(.position, to: .zero)
        let sound = try Self.burst(engine)
        let p = engine.makePlayer(sound)
        try p.setBus(engine.effectsBus)
        p.position = [0, 0, -1]
        try p.play(atTime: engine.currentTime + 0.1)
        try engine.addReverbZone(Self.cave)
        let audio = try engine.render(frames: 4800 + 28_800)
        let t = Measure.dB(Array(audio.channel(0)[(4800 + 14_400)...]))
        #expect(t > -70, "scheduled before the zone: \(t) dB")
    }

    @Test("a player scheduled after the zone is added hears it")
    func scheduledControl() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        try engine.context.listener.set(.position, to: .zero)
        let sound = try Self.burst(engine)
        let p = engine.makePlayer(sound)
        try p.setBus(engine.effectsBus)
        p.position = [0, 0, -1]
        try engine.addReverbZone(Self.cave)
        try p.play(atTime: engine.currentTime + 0.1)
        let audio = try engine.render(frames: 4800 + 28_800)
        let t = Measure.dB(Array(audio.channel(0)[(4800 + 14_400)...]))
        #expect(t > -70, "zone then scheduled: \(t) dB")
    }

    @Test("a zone the listener is fully inside takes the lane of one barely heard")
    func heaviestNotHeard() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        for k in 0..<3 {   // big, soft-edged zones around the origin
            try engine.addReverbZone(ReverbZone(name: "wide\(k)", shape: .sphere(center: .zero, innerRadius: 0, outerRadius: 100 + Float(k)),
                                                reverb: Reverb(preset: .plain)))
        }
        try engine.addReverbZone(ReverbZone(name: "room", shape: .sphere(center: [90, 0, 0], innerRadius: 3, outerRadius: 5), reverb: Reverb(preset: .bathroom)))
        try engine.context.listener.set(.position, to: .zero)
        _ = try engine.render(frames: 480)
        try engine.context.listener.set(.position, to: [90, 0, 0])   // fully in the room
        _ = try engine.render(frames: 5 * EngineRig.rate)
        let w = engine.reverbZoneWeights, r = engine.reverbZoneReturns
        #expect(r["room"]! > 0.5, "room weight \(w["room"]!) return \(r["room"]!); the others: \(w) \(r)")
    }
}
