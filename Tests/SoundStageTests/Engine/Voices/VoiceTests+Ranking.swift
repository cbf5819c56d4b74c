import Foundation
import SoundStage
@testable import SoundStageEngine
import Testing
import SoundStageTestSupport

/// Ranking in more detail: pinned voices, the quietest stolen, cones, moving many at once,
/// ducking heard on voices under an audible line.
@Suite("Voices ranked: pinned first, cones and distance, the quietest stolen, ducking heard")
struct VoiceRankingTests {
    @Test("pinned voices are real before any priority or audibility; stealQuietest takes the least audible instance")
    func pinnedAndQuietest() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 2))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let far = try engine.play(tone, at: [0, 0, -90], priority: 0, loops: -1, options: VoiceOptions(isPinned: true))
        let loud = try (0..<3).map { _ in try engine.play(tone, at: [0, 0, -1], priority: 255, loops: -1) }
        _ = try engine.render(frames: 480)
        #expect(far.status == .real, "pinned, far and unimportant, still real")
        #expect(loud.filter(\.isReal).count == 1)

        let step = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        try engine.setVoiceRules(VoiceRules(maxInstances: 3, whenFull: .stealQuietest), for: step)
        let steps = try [1, 50, 3].map { try engine.play(step, at: [Float($0), 0, 0], loops: -1) }
        _ = try engine.render(frames: 480)
        let fourth = try engine.play(step, at: [2, 0, 0], loops: -1)
        #expect(steps[1].status == .ended(.stolen) && steps[0].isValid && steps[2].isValid && fourth.isValid,
                "the one 50 m away was the quietest: \(steps.map(\.status))")
    }

    @Test("a cone turned away and setPositions for many voices at once change who is real, as OpenAL would hear it")
    func conesAndMoves() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 1))
        let tone = try EngineRig.sine(engine, amplitude: 0.2, seconds: 0.5)
        // Both 2 m away; the nearer-sounding one faces away with a 0.05 outer gain.
        let away = try engine.play(tone, at: [0, 0, -2], loops: -1,
                                   options: VoiceOptions(cone: VoiceCone(direction: [0, 0, -1], innerAngle: 30, outerAngle: 60, outerGain: 0.05)))
        let side = try engine.play(tone, at: [3, 0, 0], loops: -1)
        _ = try engine.render(frames: 480)
        #expect(side.isReal && !away.isReal, "1/3 beats 1/2 x 0.05: side \(side.status), away \(away.status)")
        // Turned to face the listener (a new cone means a new voice), the coned one wins.
        away.stop()
        let facing = try engine.play(tone, at: [0, 0, -2], loops: -1,
                                     options: VoiceOptions(cone: VoiceCone(direction: [0, 0, 1], innerAngle: 30, outerAngle: 60, outerGain: 0.05)))
        _ = try engine.render(frames: 480)
        #expect(facing.isReal && !side.isReal)
        // One call moves both: the side one comes close, the other goes far.
        #expect(engine.setPositions([(side, [0.5, 0, 0]), (facing, [0, 0, -40]), (away, [0, 0, 0])]) == 2, "the stopped one is skipped")
        _ = try engine.render(frames: 480)
        #expect(side.isReal && !facing.isReal && side.position == [0.5, 0, 0])
    }

    @Test("a crowded pool makes real the most audible voices by OpenAL's formula, whatever their reference, rolloff, maximum and priority, and steals the least audible of all")
    func crowdedPoolMatchesTheFormula() throws {
        // Most of these voices rank far below the last place: the tick skips working out
        // their audibility when a bound says they cannot get in. What it chooses, and what a
        // full pool steals, must be what the exact formula says.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let count = 2_000, real = 16
        try engine.configureVoices(VoiceConfiguration(realVoices: real, maxVoices: count))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        var uniform = SeededUniform(seed: 7)
        struct Expected { let voice: Voice; let position: SIMD3<Float>; let volume: Float; let options: VoiceOptions; let priority: Int }
        var all: [Expected] = []
        for k in 0..<count {
            let reference = uniform(0.25...6), rolloff = k % 7 == 0 ? 0 : uniform(0...4)
            let maximum = k % 2 == 0 ? Float.greatestFiniteMagnitude : reference + uniform(0...80)
            let options = VoiceOptions(referenceDistance: reference, maxDistance: maximum, rolloffFactor: rolloff, isRelative: k % 5 == 0)
            let position = SIMD3<Float>(uniform(-60...60), 0, uniform(-60...60)), volume = uniform(0.05...1)
            let priority = k % 400 == 0 ? 200 : 128
            let voice = try engine.play(tone, at: position, volume: volume, priority: priority, loops: -1, options: options)
            all.append(Expected(voice: voice, position: position, volume: volume, options: options, priority: priority))
        }
        // OpenAL's inverse clamped distance gain, as the test computes it (not the engine's code).
        func rank(_ e: Expected, listener l: SIMD3<Float>) -> UInt64 {
            let audibility = openALAudibility(gain: e.volume, at: e.position, listener: e.options.isRelative ? .zero : l, e.options)
            return UInt64(e.priority) << 32 | UInt64(audibility.bitPattern)
        }
        for round in 0..<30 {
            let listener = SIMD3<Float>(uniform(-40...40), 0, uniform(-40...40))
            try engine.listener.set(.position, to: listener)
            _ = try engine.render(frames: 480)
            let expected = Set(all.sorted { rank($0, listener: listener) > rank($1, listener: listener) }.prefix(real).map(\.voice))
            let got = Set(all.map(\.voice).filter(\.isReal))
            let same = got == expected
            #expect(same, "round \(round): \(got.subtracting(expected).count) real that should not be, \(expected.subtracting(got).count) missing")
        }
        // The pool is full: a newcomer steals the least audible voice of all, the skipped included.
        let listener = engine.listener.get(.position)
        let weakest = all.min { rank($0, listener: listener) < rank($1, listener: listener) }!
        let newcomer = try engine.play(tone, at: listener + [0, 0, -1], loops: -1)
        #expect(newcomer.isValid && weakest.voice.status == .ended(.stolen), "the weakest is \(weakest.voice.status)")
        #expect(all.filter { $0.voice.status == .ended(.stolen) }.count == 1)
    }

    @Test("voices moved in place each tick, and a bus turned up and down, make real what OpenAL's formula says, at three priorities, looping or not, four at a time or alone")
    func movedCrowdMatchesTheFormula() throws {
        // Runs of plain voices (positioned in the world, on one bus, of one priority, looping)
        // are skipped four at a time; the others, and every four with one that may get in, one
        // at a time. The listener stands still: only what moved is ranked again, and every
        // voice when the bus's volume changes.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let count = 4_000, real = 16
        try engine.configureVoices(VoiceConfiguration(realVoices: real, maxVoices: count))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let quiet = try engine.makeBus(named: "quiet")
        try quiet.setVolume(0.5)
        var uniform = SeededUniform(seed: 11)
        struct Expected {
            let voice: Voice; var position: SIMD3<Float>; let volume: Float; let onQuiet: Bool; let options: VoiceOptions; let priority: Int
        }
        var all: [Expected] = []
        for k in 0..<count {
            // (No rolloff of 0: such a voice is never skipped, and a few loud ones would take
            // every place.)
            let reference = uniform(0.25...6), rolloff = uniform(0.5...4)
            // Some reach their maximum distance soon after their reference: heard from afar
            // almost as loud as near.
            let maximum = k % 2 == 0 ? Float.greatestFiniteMagnitude : reference + (k % 150 == 1 ? uniform(0...1) : uniform(0...80))
            let options = VoiceOptions(referenceDistance: reference, maxDistance: maximum, rolloffFactor: rolloff)
            let position = SIMD3<Float>(uniform(-60...60), uniform(-2...2), uniform(-60...60)), volume = uniform(0.05...1)
            // A few above the rest (always real), some below (never).
            let priority = k % 1_000 == 0 ? 200 : k % 89 == 0 ? 100 : 128
            let onQuiet = (k / 40) % 3 == 0
            // Most loop forever; some play three times through (they may end, so are looked at alone).
            let voice = try engine.play(tone, at: position, volume: volume, priority: priority, loops: k % 23 == 0 ? 2 : -1,
                                        bus: onQuiet ? quiet : nil, options: options)
            all.append(Expected(voice: voice, position: position, volume: volume, onQuiet: onQuiet, options: options, priority: priority))
        }
        let listener = SIMD3<Float>(3, 1, -4)
        try engine.listener.set(.position, to: listener)
        // OpenAL's inverse clamped distance gain, as the test computes it (not the engine's code).
        func rank(_ e: Expected) -> UInt64 {
            let audibility = openALAudibility(gain: e.volume * (e.onQuiet ? quiet.volume : 1), at: e.position, listener: listener, e.options)
            return UInt64(e.priority) << 32 | UInt64(audibility.bitPattern)
        }
        for round in 0..<30 {
            // The quiet bus turned up (the voices on it that carry far come in from afar) and down.
            if round % 5 == 0 { try quiet.setVolume(round % 10 == 0 ? 1 : 0.25) }
            // Every voice takes a stride of its own, toward the listener or away: long enough
            // that some of the virtual come close enough to take a source each tick.
            var steps: [SIMD3<Float>] = []
            for _ in all.indices { steps.append([uniform(-10...10), 0, uniform(-10...10)]) }
            let moved = engine.moveVoices { positions in
                var moved = 0
                for (e, step) in zip(all, steps) where positions.move(e.voice, by: step) { moved += 1 }
                return moved
            }
            for k in all.indices { all[k].position += steps[k] }
            #expect(moved == count, "round \(round): \(moved) of \(count) moved")
            _ = try engine.render(frames: 480)
            let expected = Set(all.sorted { rank($0) > rank($1) }.prefix(real).map(\.voice))
            let got = Set(all.map(\.voice).filter(\.isReal))
            #expect(got == expected, "round \(round): \(got.subtracting(expected).count) real that should not be, \(expected.subtracting(got).count) missing")
        }
    }

    @Test("voices past the farthest any voice reaches are skipped four at a time, and that bound is worked out again from the live voices alone: real as OpenAL's formula says for 300 ticks, as quiet voices end and far-carrying ones stop")
    func farthestReachMatchesTheFormula() throws {
        // The tick skips four voices at once, their own reach unread, when all four are past
        // the farthest any live voice could be heard from (`ReachBound`), and that is under
        // every voice's maximum distance. Voices that carry far (a maximum just past their
        // reference: heard from anywhere) keep it off until they stop and the bound is worked
        // out again (every 256 ticks); quiet voices that end must not leave it too short.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let crowd = 1_000, real = 16
        try engine.configureVoices(VoiceConfiguration(realVoices: real, maxVoices: crowd + 64))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        var uniform = SeededUniform(seed: 23)
        struct Expected {
            let voice: Voice; var position: SIMD3<Float>; let volume: Float; let options: VoiceOptions
        }
        var all: [Expected] = []
        func play(_ position: SIMD3<Float>, volume: Float, _ options: VoiceOptions, loops: Int = -1) throws {
            let voice = try engine.play(tone, at: position, volume: volume, loops: loops, options: options)
            all.append(Expected(voice: voice, position: position, volume: volume, options: options))
        }
        for _ in 0..<crowd {
            let options = VoiceOptions(referenceDistance: uniform(0.25...4), rolloffFactor: uniform(0.5...3))
            try play([uniform(-60...60), uniform(-2...2), uniform(-60...60)], volume: uniform(0.05...1), options)
        }
        // Quiet, near the listener, played once: they end after 0.5 s.
        for _ in 0..<40 {
            try play([uniform(-3...3), 0, uniform(-3...3)], volume: 0.001, VoiceOptions(referenceDistance: 0.25), loops: 0)
        }
        // Far off, but heard from anywhere, about as loud as the least of the real ones: in
        // and out of the real ones until they stop at round 100.
        var carrying: [Voice] = []
        for _ in 0..<4 {
            let reference = uniform(1...2)
            try play([uniform(50...60), 0, uniform(50...60)], volume: uniform(0.2...0.4),
                     VoiceOptions(referenceDistance: reference, maxDistance: reference + 1))
            carrying.append(all[all.count - 1].voice)
        }
        let listener = SIMD3<Float>(-2, 1, 3)
        try engine.listener.set(.position, to: listener)
        // OpenAL's inverse clamped distance gain, as the test computes it (not the engine's code).
        func audibility(_ e: Expected) -> Float {
            openALAudibility(gain: e.volume, at: e.position, listener: listener, e.options)
        }
        for round in 0..<300 {
            if round == 100 { for voice in carrying { voice.stop() } }
            var steps: [SIMD3<Float>] = []
            for _ in all.indices { steps.append([uniform(-4...4), 0, uniform(-4...4)]) }
            engine.moveVoices { positions in
                for (e, step) in zip(all, steps) { positions.move(e.voice, by: step) }
            }
            for k in all.indices { all[k].position += steps[k] }
            _ = try engine.render(frames: 480)
            let playing = all.filter { $0.voice.isValid }
            let expected = Set(playing.sorted { audibility($0) > audibility($1) }.prefix(real).map(\.voice))
            let got = Set(playing.map(\.voice).filter(\.isReal))
            #expect(got == expected, "round \(round): \(got.subtracting(expected).count) real that should not be, \(expected.subtracting(got).count) missing")
        }
        #expect(all.filter { $0.voice.isValid }.count == crowd, "the quiet voices ended, the carrying ones stopped")
        // Worked out again from the live voices alone: the greatest `ref g / r` of the crowd,
        // and no maximum distance short of the crowd's.
        let bound = engine.voices.state.withLockedValue { $0.slots.reachBound }
        let loudest = all.filter { $0.voice.isValid }.map { $0.options.referenceDistance * $0.volume / $0.options.rolloffFactor }.max()
        #expect(bound.gain == loudest)
        #expect(bound.maximum == VoiceOptions().maxDistance)
    }

    @Test("four slots on more than one bus, or of more than one priority, are looked at one by one: real as OpenAL's formula says, and what each four share follows every play into a freed slot")
    func mixedFoursMatchTheFormula() throws {
        // The tick reads one bus and one priority for four plain voices that share them
        // (`FourSlots`); fours that do not are looked at one voice at a time. Here one slot of
        // most fours differs: on a loud bus among voices on a quiet one, or of a higher or a
        // lower priority among voices of the default.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let count = 1_200, real = 12
        try engine.configureVoices(VoiceConfiguration(realVoices: real, maxVoices: count))
        let tone = try EngineRig.sine(engine, amplitude: 0.1, seconds: 0.5)
        let loud = try engine.makeBus(named: "loud"), quiet = try engine.makeBus(named: "quiet")
        try quiet.setVolume(0.05)
        var uniform = SeededUniform(seed: 37)
        struct Expected {
            var voice: Voice; var position: SIMD3<Float>; var volume: Float; var bus: Bus?; var priority: Int; var options: VoiceOptions
        }
        /// Slot `k`'s bus and priority: in three of every five fours one slot differs (and in
        /// one four of fifty more).
        func kind(_ k: Int) -> (bus: Bus?, priority: Int) {
            let four = k / 4, odd = k % 4 == four % 4
            switch four % 5 {
            case 1: return (odd ? loud : quiet, 128)
            case 2: return (nil, odd && four % 50 == 2 ? 200 : 128)   // 6 voices above the rest
            case 3: return (nil, odd ? 100 : 128)
            case 4: return (odd ? nil : quiet, 128)
            default: return (nil, 128)
            }
        }
        func play(_ k: Int) throws -> Expected {
            let (bus, priority) = kind(k)
            let options = VoiceOptions(referenceDistance: uniform(0.25...4), rolloffFactor: uniform(0.5...3))
            let position = SIMD3<Float>(uniform(-60...60), uniform(-2...2), uniform(-60...60)), volume = uniform(0.05...1)
            let voice = try engine.play(tone, at: position, volume: volume, priority: priority, loops: -1, bus: bus, options: options)
            return Expected(voice: voice, position: position, volume: volume, bus: bus, priority: priority, options: options)
        }
        var all = try (0..<count).map(play)
        #expect(all.enumerated().allSatisfy { Int($0.element.voice.index) == $0.offset }, "voice k in slot k")
        let listener = SIMD3<Float>(2, 0, -1)
        try engine.listener.set(.position, to: listener)
        // OpenAL's inverse clamped distance gain, as the test computes it (not the engine's code).
        func rank(_ e: Expected) -> UInt64 {
            let audibility = openALAudibility(gain: e.volume * (e.bus?.volume ?? 1), at: e.position, listener: listener, e.options)
            return UInt64(e.priority) << 32 | UInt64(audibility.bitPattern)
        }
        /// What each four share, as the table holds it and as its bus and priority lanes say.
        func fours() -> (held: [FourSlots], lanes: [FourSlots]) {
            engine.voices.state.withLockedValue { s in
                let t = s.slots
                let lanes = stride(from: 0, to: t.bus.count, by: 4).map { g in
                    FourSlots(buses: SIMD4(t.bus[g], t.bus[g + 1], t.bus[g + 2], t.bus[g + 3]),
                              priorities: SIMD4(t.priority[g], t.priority[g + 1], t.priority[g + 2], t.priority[g + 3]))
                }
                return (t.fours, lanes)
            }
        }
        let first = fours()
        #expect(first.held == first.lanes)
        #expect((0..<count / 4).allSatisfy { g in first.held[g].isMixed == ([1, 3, 4].contains(g % 5) || g % 50 == 2) },
                "one slot differs in three of every five fours, and in one of fifty more")
        for round in 0..<40 {
            // Every tenth round, a tenth of the voices stop and others take their slots, the
            // other way round: what was a four alike is mixed now, and back.
            if round % 10 == 5 {
                for k in stride(from: round % 4, to: count, by: 10) {
                    all[k].voice.stop()   // its slot is freed at once, and taken by the next play
                    let (bus, priority) = kind(k + 1)
                    let voice = try engine.play(tone, at: all[k].position, volume: all[k].volume, priority: priority, loops: -1, bus: bus,
                                                options: all[k].options)
                    #expect(Int(voice.index) == k, "the freed slot is taken again")
                    (all[k].voice, all[k].bus, all[k].priority) = (voice, bus, priority)
                }
                let now = fours()
                #expect(now.held == now.lanes, "round \(round): what each four shares follows the plays")
            }
            var steps: [SIMD3<Float>] = []
            for _ in all.indices { steps.append([uniform(-6...6), 0, uniform(-6...6)]) }
            engine.moveVoices { positions in
                for (e, step) in zip(all, steps) { positions.move(e.voice, by: step) }
            }
            for k in all.indices { all[k].position += steps[k] }
            _ = try engine.render(frames: 480)
            let expected = Set(all.sorted { rank($0) > rank($1) }.prefix(real).map(\.voice))
            let got = Set(all.map(\.voice).filter(\.isReal))
            #expect(got == expected, "round \(round): \(got.subtracting(expected).count) real that should not be, \(expected.subtracting(got).count) missing")
        }
    }

    @Test("a virtual voice tied with a real one of a higher slot takes its source, whatever the rolloff: ties go to the lower slot")
    func tieGoesToTheLowerSlot() throws {
        // Inside its reference distance a voice is heard at its volume: two voices of one
        // volume there are tied. The real one is ranked first at a tick, and the bound that
        // skips a voice sure to rank below it must not skip the tied one of the lower slot. Its
        // slack over the reference shrinks as 1 / rolloff: the last three cases (reference,
        // volume, rolloff) are ones where, in Float, it is lost in rounding.
        let cases: [(reference: Float, volume: Float, rolloff: Float)] = [
            (2, 0.7, 1), (2, 0.7, 50_000), (3.634727, 0.21680348, 18_397.482), (0.45609087, 0.75763953, 21_561.918),
            (3.1416812, 0.84923685, 22_723.695),
        ]
        for (reference, volume, rolloff) in cases {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            try engine.configureVoices(VoiceConfiguration(realVoices: 1, maxVoices: 16))
            let tone = try EngineRig.sine(engine, amplitude: 0.1)
            let options = VoiceOptions(referenceDistance: reference, rolloffFactor: rolloff)
            // The lower slot first, far off; a voice inside its reference then takes the source.
            let low = try engine.play(tone, at: [0, 0, -50], volume: volume, loops: -1, options: options)
            let high = try engine.play(tone, at: [0, 0, -0.1], volume: volume, loops: -1, options: options)
            _ = try engine.render(frames: 480)
            #expect(high.isReal && !low.isReal, "rolloff \(rolloff): the near voice takes the source")
            // The lower slot comes inside its reference too: tied, it takes the source.
            engine.moveVoices { positions in positions.move(low, to: [0, 0, 0.1]) }
            _ = try engine.render(frames: 480)
            #expect(low.isReal && !high.isReal, "reference \(reference), volume \(volume), rolloff \(rolloff): the tied voice of the lower slot is real")
        }
    }

    @Test("ducking lowers voices on the target bus by the rule's depth while an audible line plays on the trigger")
    func duckingUnderAudibleLine() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let rate = EngineRig.rate
        let music = Sound(buffer: try AudioBuffer(context: engine.context, samples: Tone.samples(frequency: 500, sampleRate: rate, seconds: 1, amplitude: 0.3),
                                                  sampleRate: rate, label: "music"))
        let line = Sound(buffer: try AudioBuffer(context: engine.context, samples: Tone.samples(frequency: 2_000, sampleRate: rate, seconds: 0.5, amplitude: 0.3),
                                                 sampleRate: rate, label: "line"))
        try engine.addDucking(DuckingRule(trigger: engine.dialogBus, target: engine.musicBus, depthDB: 12, attackSeconds: 0.05, releaseSeconds: 0.1))
        try engine.play(music, loops: -1, bus: engine.musicBus)
        _ = try engine.render(frames: 4_800)
        let before = try engine.render(frames: 4_800).channel(0)
        try engine.play(line, bus: engine.dialogBus)
        _ = try engine.render(frames: 4_800)
        let during = try engine.render(frames: 4_800).channel(0)
        _ = try engine.render(frames: 14_400 + 9_600)   // the line ends at 0.5 s; 0.1 s release
        let after = try engine.render(frames: 4_800).channel(0)
        let (b, d, a) = (toneDB(before, frequency: 500, sampleRate: rate), toneDB(during, frequency: 500, sampleRate: rate),
                         toneDB(after, frequency: 500, sampleRate: rate))
        #expect(abs(d - b + 12) < 0.5, "the music under the line: \(b) -> \(d) dB")
        #expect(abs(a - b) < 0.5, "back after the release: \(a) dB")
        #expect(toneDB(during, frequency: 2_000, sampleRate: rate) > toneDB(during, frequency: 500, sampleRate: rate), "the line is heard over it")
    }
}

/// The same numbers every run, in a range: a linear congruential generator, the test's own.
/// OpenAL's inverse clamped distance gain times `gain`, clamped to 0...1, as the ranking tests
/// compute it (not the engine's code): the distance from `listener` to `position` clamped to
/// the reference...maximum distance of `options`.
func openALAudibility(gain: Float, at position: SIMD3<Float>, listener: SIMD3<Float>, _ options: VoiceOptions) -> Float {
    let dx = listener.x - position.x, dy = listener.y - position.y, dz = listener.z - position.z
    let ref = options.referenceDistance, rolloff = options.rolloffFactor
    let d = min(max((dx * dx + dy * dy + dz * dz).squareRoot(), ref), options.maxDistance)
    let denominator = ref + rolloff * (d - ref)
    return min(1, max(0, gain * (denominator > 0 ? ref / denominator : 1)))
}

struct SeededUniform {
    var seed: UInt32

    mutating func callAsFunction(_ range: ClosedRange<Float>) -> Float {
        seed = seed &* 1_103_515_245 &+ 12_345
        return range.lowerBound + (range.upperBound - range.lowerBound) * Float(seed >> 8) / Float(1 << 24)
    }
}
