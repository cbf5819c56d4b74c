import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

@Suite("Reverb zones: blended by where the listener stands, faded in smoothly, through moves")
struct ReverbZoneTests {
    static let window = EngineRig.rate / 100
    static let cave = ReverbZone(name: "cave", shape: .sphere(center: .zero, innerRadius: 4, outerRadius: 12), reverb: Reverb(preset: .stoneroom))

    /// Renders a looping 1 kHz tone at the origin while the listener stands 20 m out for 3 s,
    /// walks in to the origin at 4 m/s, and stays 2 s: with the cave zone or without it.
    /// Returns the samples (interleaved stereo) and the listener's distance in each window.
    static func walk(zones: [ReverbZone]) throws -> (samples: [Float], distance: [Float]) {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        for zone in zones { try engine.addReverbZone(zone) }
        try engine.play(try EngineRig.sine(engine, amplitude: 0.25), at: .zero, loops: -1)
        var samples: [Float] = []
        var distance: [Float] = []
        let steps = 300 + 500 + 200
        for step in 0..<steps {
            let z = max(0, 20 - 4 * Float(max(0, step - 300)) / 100)
            try engine.context.listener.set(.position, to: [0, 0, z])
            samples += try engine.render(frames: window).samples
            distance.append(z)
        }
        return (samples, distance)
    }

    /// The RMS level in dB (both channels) of each 10 ms window of `samples`.
    static func windowLevels(_ samples: [Float]) -> [Double] {
        stride(from: 0, to: samples.count, by: 2 * window).map { Measure.dB(Array(samples[$0..<min(samples.count, $0 + 2 * window)])) }
    }

    @Test("walking into a zone raises the wet level smoothly: no step over 1 dB between 10 ms windows")
    func walkingIn() throws {
        let zoned = try Self.walk(zones: [Self.cave])
        let dry = try Self.walk(zones: [])
        // The dry path is the same in both renders (OpenAL renders deterministically), so
        // what is left is the reverb alone.
        let wet = Self.windowLevels(zip(zoned.samples, dry.samples).map { $0 - $1 })
        let outside = wet.indices.filter { zoned.distance[$0] > 12.5 }
        #expect(outside.allSatisfy { wet[$0] == -160 }, "no reverb outside the outer radius: \(outside.map { wet[$0] }.max() ?? 0) dB")
        let full = wet.suffix(100)
        let final = full.reduce(0, +) / Double(full.count)
        #expect(final > -40, "the wet level inside: \(final) dB")
        #expect(full.max()! - full.min()! < 0.5, "steady inside: \(full.min()!) ... \(full.max()!) dB")
        // Over the 50 dB below the full level (below that it is the -60 dB start of the fade).
        var largest = 0.0
        for k in 1..<wet.count where wet[k - 1] > final - 50 {
            largest = max(largest, abs(wet[k] - wet[k - 1]))
        }
        #expect(largest <= 1, "largest step between 10 ms windows: \(largest) dB")
        // It never falls back over the 40 dB below the full level. Lower, the reverb's tail is
        // still building up from nothing: OpenAL Soft 1.23.1 wobbles there (0.14 dB back at 47 dB
        // below, 10.4 m from the centre; 1.19.1 under 0.01 dB).
        let rising = wet.indices.filter { zoned.distance[$0] < 12 && zoned.distance[$0] > 4 && wet[$0] > final - 40 }
        let drops = zip(rising, rising.dropFirst()).map { (at: $1, by: wet[$0] - wet[$1]) }
        let worstDrop = drops.max { $0.by < $1.by }
        #expect(rising.count > 100 && drops.allSatisfy { $0.by <= 0.1 },
                "it rises all the way in: the largest drop \(worstDrop?.by ?? 0) dB at window \(worstDrop?.at ?? 0), \(zoned.distance[worstDrop?.at ?? 0]) m from the centre")
        print("reverb zone walk: wet \(final) dB inside, largest 10 ms step \(largest) dB, largest fall on the way in \(worstDrop?.by ?? 0) dB")
    }

    @Test("walking from one zone into another crossfades their reverbs smoothly")
    func zoneToZone() throws {
        let hall = ReverbZone(name: "hall", shape: .sphere(center: [0, 0, 20], innerRadius: 4, outerRadius: 14), reverb: Reverb(preset: .hallway))
        let zoned = try Self.walk(zones: [Self.cave, hall])
        let dry = try Self.walk(zones: [])
        let wet = Self.windowLevels(zip(zoned.samples, dry.samples).map { $0 - $1 })
        var largest = 0.0
        for k in 200..<wet.count { largest = max(largest, abs(wet[k] - wet[k - 1])) }
        #expect(wet[250] > -50 && wet.last! > -40, "the hall's reverb, then the cave's: \(wet[250]) and \(wet.last!) dB")
        #expect(largest <= 1, "largest step between 10 ms windows: \(largest) dB")
        print("reverb zone to zone: from \(wet[250]) dB to \(wet.last!) dB, largest 10 ms step \(largest) dB")
    }

    @Test("music and UI sounds do not send to zones; a bus can be taken out; the zone follows a move")
    func whoHearsZones() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.addReverbZone(Self.cave)
        try engine.context.listener.set(.position, to: .zero)
        func tail(_ bus: Bus) throws -> Double {
            _ = try engine.render(frames: 6 * EngineRig.rate)   // earlier tails die away
            let burst = (0..<480).map { 0.5 * sin(Float($0) * 0.3) }
            try engine.play(try EngineRig.sound(engine, burst, streamed: false), at: [0, 0, -1], bus: bus)
            let audio = try engine.render(frames: 28_800)
            return Measure.dB(Array(audio.channel(0)[14_400..<28_800]))
        }
        #expect(try tail(engine.effectsBus) > -70)
        #expect(try tail(engine.musicBus) == -160)
        #expect(try tail(engine.uiBus) == -160)
        engine.effectsBus.sendsToReverbZones = false
        #expect(try tail(engine.effectsBus) == -160)
        engine.effectsBus.sendsToReverbZones = true
        try engine.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
        try engine.context.listener.set(.position, to: .zero)
        _ = try engine.render(frames: EngineRig.rate)
        #expect(try tail(engine.effectsBus) > -70, "the zone followed the move")
        engine.removeReverbZone(named: "cave")
        _ = try engine.render(frames: 3 * EngineRig.rate)
        #expect(engine.reverbZones.isEmpty && engine.reverbZoneWeights.isEmpty, "removed, faded out and gone")
        #expect(try tail(engine.effectsBus) == -160)
    }

    @Test("weights follow the listener in spheres and boxes; returns fade in at the fade rate to the square root of the weight")
    func weights() throws {
        let sphere = Self.cave
        #expect(sphere.weight(at: .zero) == 1 && sphere.weight(at: [0, 4, 0]) == 1)
        #expect(sphere.weight(at: [8, 0, 0]) == 0.5 && sphere.weight(at: [0, 0, 12]) == 0)
        let box = ReverbZone(name: "hall", shape: .box(center: [10, 0, 0], innerHalfExtents: [2, 2, 2], outerHalfExtents: [4, 4, 6]),
                             reverb: Reverb(preset: .hallway))
        #expect(box.weight(at: [11, 1, 1]) == 1 && box.weight(at: [13, 0, 0]) == 0.5 && box.weight(at: [10, 0, 4]) == 0.5)
        #expect(box.weight(at: [13, 0, 4]) == 0.5 && box.weight(at: [15, 0, 0]) == 0)

        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.addReverbZone(sphere)
        try engine.addReverbZone(box)
        try engine.context.listener.set(.position, to: [7, 0, 0])   // in both: 0.68 of the cave, 0.5 of the hall
        _ = try engine.render(frames: EngineRig.rate / 2)
        let w = engine.reverbZoneWeights
        #expect(w == ["cave": sphere.weight(at: [7, 0, 0]), "hall": 0.5], "the weights follow the listener at once: \(w)")
        // The returns fade in from -60 dB at 30 dB a second (the 2 s default): -45 dB after 0.5 s.
        var r = engine.reverbZoneReturns.mapValues { 20 * log10($0) }
        #expect(r.values.allSatisfy { (-46.5 ... -44.5).contains($0) }, "half a second in: \(r) dB")
        _ = try engine.render(frames: 2 * EngineRig.rate)
        r = engine.reverbZoneReturns
        #expect(abs(r["cave"]! - w["cave"]!.squareRoot()) < 1e-5 && abs(r["hall"]! - Float(0.5).squareRoot()) < 1e-5, "then the square root of the weight: \(r)")
        engine.reverbZoneFadeSeconds = 0
        try engine.context.listener.set(.position, to: [10, 0, 0])
        _ = try engine.render(frames: ReverbZoneTests.window)
        r = engine.reverbZoneReturns
        #expect(abs(r["cave"]! - sphere.weight(at: [10, 0, 0]).squareRoot()) < 1e-5 && r["hall"] == 1, "no fade: at once: \(r)")
        #expect(engine.reverbZones.map(\.name) == ["cave", "hall"])
    }

    @Test("more zones than sends: the heaviest are heard, the others wait for a lane to fall silent")
    func moreZonesThanLanes() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        engine.reverbZoneFadeSeconds = 0
        for k in 0..<5 {
            let zone = ReverbZone(name: "z\(k)", shape: .sphere(center: .zero, innerRadius: Float(k), outerRadius: 10), reverb: Reverb(preset: .cave))
            try engine.addReverbZone(zone)
        }
        try engine.context.listener.set(.position, to: [0, 0, 5])
        _ = try engine.render(frames: ReverbZoneTests.window)
        let heard = engine.reverbZoneReturns.filter { $0.value > 0 }.keys.sorted()
        #expect(heard == ["z2", "z3", "z4"], "three lanes, the three heaviest: \(engine.reverbZoneReturns)")
        engine.removeReverbZone(named: "z4")
        _ = try engine.render(frames: 2 * ReverbZoneTests.window)
        #expect(engine.reverbZoneReturns.filter { $0.value > 0 }.keys.sorted() == ["z1", "z2", "z3"], "z4's lane went to z1")
    }

    @Test("zones added, faded out and removed 200 times, through 5 moves, keep one slot per lane and leave none once the engine goes")
    func noLeftovers() throws {
        /// Runs the cycles on an engine that goes at the end; returns every context it used.
        func cycles() throws -> [AudioContext] {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            var contexts = [engine.context]
            try engine.play(try EngineRig.sine(engine, amplitude: 0.1), at: .zero, loops: -1)
            engine.reverbZoneFadeSeconds = 0.01
            try engine.context.listener.set(.position, to: .zero)
            for cycle in 0..<200 {
                let zone = ReverbZone(name: "z\(cycle % 7)", shape: Self.cave.shape, reverb: Reverb(preset: cycle % 2 == 0 ? .cave : .hallway))
                try engine.addReverbZone(zone)
                _ = try engine.render(frames: ReverbZoneTests.window * 3)
                if cycle % 3 == 0 { engine.removeReverbZone(named: zone.name) }
                if cycle % 40 == 39 {
                    try engine.switchOutput(to: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)))
                    try engine.context.listener.set(.position, to: .zero)
                    contexts.append(engine.context)
                }
            }
            #expect(engine.context.liveEffectSlots.load(ordering: .relaxed) == ReverbZonesState.maxLanes, "one slot per lane, however many zones came and went")
            #expect(contexts.dropLast().allSatisfy { $0.liveEffectSlots.load(ordering: .relaxed) == 0 }, "the old devices' slots went with the moves")
            return contexts
        }
        let contexts = try cycles()
        #expect(contexts.count == 6 && contexts.allSatisfy { $0.liveEffectSlots.load(ordering: .relaxed) == 0 }, "none left once the engine went")
    }

    @Test("bad zones and too few sends are typed errors naming the zone")
    func badZones() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let inverted = ReverbZone(name: "inside out", shape: .sphere(center: .zero, innerRadius: 5, outerRadius: 2), reverb: Reverb())
        expectError(.invalidArgument, mentioning: ["inside out"]) { try engine.addReverbZone(inverted) }
        var loud = Reverb()
        loud.decayTime = 100
        expectError(.invalidArgument, mentioning: ["decayTime"]) { try engine.addReverbZone(ReverbZone(name: "x", shape: Self.cave.shape, reverb: loud)) }
        expectError(.invalidArgument) { try engine.addReverbZone(ReverbZone(name: "", shape: Self.cave.shape, reverb: Reverb())) }
        let box = ReverbZone(name: "flat", shape: .box(center: .zero, innerHalfExtents: [1, 0, 1], outerHalfExtents: [2, 0, 2]), reverb: Reverb())
        expectError(.invalidArgument, mentioning: ["flat"]) { try engine.addReverbZone(box) }
        #expect(engine.reverbZones.isEmpty)

        let one = try AudioEngine(output: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)),
                                  attributes: ContextAttributes(hrtf: .off, auxiliarySends: 1), service: .manual(tick: 0.01))
        defer { one.shutdown() }
        expectError(.invalidState, mentioning: ["auxiliary send"]) { try one.addReverbZone(Self.cave) }
    }
}
