import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Voices moved in place (`moveVoices`), against the same moves made one voice at a time.
extension VoiceTests {
    @Test("moveVoices moves 600 voices in place as setting each voice's position does: the same real voices and the same samples at every tick")
    func movedInPlaceAsOneByOne() throws {
        // Two engines play the same field; one moves each voice by its handle (`position`,
        // a path of its own), the other moves them all in place.
        func field(_ engine: AudioEngine) throws -> [(Voice, SIMD3<Float>)] {
            try engine.configureVoices(VoiceConfiguration(realVoices: 16, maxVoices: 600))
            let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.25)
            var seed: UInt32 = 3
            func next() -> Float {
                seed = seed &* 1_103_515_245 &+ 12_345
                return Float(seed % 2_000) / 10 - 100
            }
            return try (0..<600).map { _ in
                let p = SIMD3<Float>(next(), 0, next())
                return (try engine.play(tone, at: p, loops: -1), p)
            }
        }
        let a = try EngineRig.offline(), b = try EngineRig.offline()
        defer { a.shutdown(); b.shutdown() }
        var moves = try field(a)
        let voices = try field(b).map(\.0)
        // Each voice walks its own way, some far enough to trade places with the real ones.
        let steps = (0..<600).map { k in SIMD3<Float>(Float(k % 7) - 3, 0, Float(k % 5) - 2) * 0.5 }
        for tick in 0..<30 {
            for k in moves.indices {
                moves[k].1 += steps[k]
                moves[k].0.position = moves[k].1
            }
            let moved = b.moveVoices { positions in
                var moved = 0
                for (voice, step) in zip(voices, steps) where positions.move(voice, by: step) { moved += 1 }
                return moved
            }
            #expect(moved == 600)
            let heardA = try a.render(frames: 480), heardB = try b.render(frames: 480)
            let realA = moves.map(\.0.isReal), realB = voices.map(\.isReal)
            #expect(realA == realB, "tick \(tick): \(zip(realA, realB).filter { $0 != $1 }.count) voices differ in being real")
            #expect(realB.filter { $0 }.count == 16)
            let diff = zip(heardA.samples, heardB.samples).map { abs($0 - $1) }.max() ?? 0
            #expect(diff < 1e-6, "tick \(tick): the renders differ by \(diff)")
            if tick == 29 {
                #expect(Measure.dB(heardB, channel: 0) > -60, "the real voices are heard")
                #expect(voices[5].position == moves[5].1, "the voice is where its steps took it")
            }
        }
    }

    @Test("moves made from the last slot to the first, and in a scrambled order, put every coordinate of every voice where its steps take it, and touch no neighbour; a step or point not finite in any one coordinate moves nothing")
    func movedInAnyOrder() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.configureVoices(VoiceConfiguration(realVoices: 4, maxVoices: 64))
        let tone = try EngineRig.sine(engine, amplitude: 0.05, seconds: 0.25)
        // Each coordinate of each voice its own value.
        var expected = (0..<64).map { k in SIMD3<Float>(Float(k), Float(100 + k), Float(-k)) }
        let voices = try expected.map { try engine.play(tone, at: $0, loops: -1) }
        let steps = (0..<64).map { k in SIMD3<Float>(0.5, Float(k % 3) - 1, 0.25 * Float(k % 5)) }
        // From the last slot to the first, then every 7th slot (64 and 7 are coprime: each once).
        let orders = [Array((0..<64).reversed()), (0..<64).map { $0 * 7 % 64 }]
        for order in orders {
            let moved = engine.moveVoices { positions in
                var moved = 0
                for k in order where positions.move(voices[k], by: steps[k]) { moved += 1 }
                return moved
            }
            #expect(moved == 64)
            for k in order { expected[k] += steps[k] }
            #expect(voices.map(\.position) == expected, "every voice where its steps took it")
        }
        // One coordinate not finite at a time, for a voice between two others: nothing moves.
        let bad: [Float] = [.nan, .infinity, -.infinity]
        let refused = engine.moveVoices { positions in
            var refused: [Bool] = []
            for lane in 0..<3 {
                for value in bad {
                    var step = SIMD3<Float>.zero, point = SIMD3<Float>(1, 2, 3)
                    step[lane] = value
                    point[lane] = value
                    refused.append(!positions.move(voices[10], by: step))
                    refused.append(!positions.move(voices[10], to: point))
                }
            }
            return refused
        }
        #expect(refused.count == 18 && refused.allSatisfy { $0 }, "a NaN or an infinity in x, y or z, by a step or as a point")
        #expect(voices.map(\.position) == expected, "the voice and its neighbours where they were")
        // A finite step that takes a coordinate out of Float's range moves nothing either.
        let far = SIMD3<Float>(0, .greatestFiniteMagnitude, 0)
        let (placed, overflowed) = engine.moveVoices { positions in
            (positions.move(voices[20], to: far), positions.move(voices[20], by: far))
        }
        #expect(placed && !overflowed && voices[20].position == far)
    }

    @Test("a real voice moved into the world after playing at the listener is heard where the world puts it, and back at the listener: its source's relative flag is written again")
    func movedBetweenSpaces() throws {
        // A move within a voice's space writes its source's position alone; a move out of it
        // writes the space too. Turned around, the world's -x is on the listener's right and
        // the listener's own -x on its left: a source left relative would be heard on the left.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.2)
        try engine.listener.setPose(position: .zero, yaw: .pi)
        let voice = try engine.play(tone, loops: -1)   // at the listener, in its space
        _ = try engine.render(frames: 2_400)
        func heardOnTheRight() throws -> Double {
            _ = try engine.render(frames: 2_400)   // the pan's smoothing
            let heard = try engine.render(frames: 4_800)
            return Measure.dB(heard, channel: 1) - Measure.dB(heard, channel: 0)
        }
        engine.moveVoices { positions in positions.move(voice, to: [-3, 0, 0]) }   // into the world
        let right = try heardOnTheRight()
        #expect(voice.isReal && right > 6, "in the world: right louder by \(right) dB")
        try voice.setPosition(nil)   // back at the listener
        let centred = try heardOnTheRight()
        #expect(abs(centred) < 1, "at the listener: right minus left \(centred) dB")
        engine.moveVoices { positions in positions.move(voice, to: [-3, 0, 0]) }   // into the world again
        let again = try heardOnTheRight()
        #expect(again > 6, "in the world again: right louder by \(again) dB")
    }

    @Test("a voice moved in place to the left is heard on the left: its source follows when the body returns")
    func movedInPlaceIsHeard() throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.2)
        let voice = try engine.play(tone, at: [3, 0, 0], loops: -1)
        let right = try engine.render(frames: 4_800)
        #expect(Measure.dB(right, channel: 1) - Measure.dB(right, channel: 0) > 6, "on the right first")
        engine.moveVoices { positions in positions.move(voice, to: [-3, 0, 0]) }
        _ = try engine.render(frames: 2_400)   // the pan's smoothing
        let left = try engine.render(frames: 4_800)
        let louder = Measure.dB(left, channel: 0) - Measure.dB(left, channel: 1)
        #expect(louder > 6, "left louder by \(louder) dB")
        #expect(voice.isReal && voice.position == [-3, 0, 0])
    }

    @Test("moveVoices skips what cannot move (an ended voice, another engine's, a non-finite point, a step for an unpositioned one) and keeps the moves made before its body throws")
    func movedInPlaceSkips() throws {
        struct Stop: Error, Equatable {}
        let engine = try EngineRig.offline(), other = try EngineRig.offline()
        defer { engine.shutdown(); other.shutdown() }
        let tone = try EngineRig.sine(engine, amplitude: 0.1)
        let placed = try engine.play(tone, at: [0, 0, -2], loops: -1)
        let ended = try engine.play(tone, at: [0, 0, -3], loops: -1)
        let atListener = try engine.play(tone, loops: -1)
        let foreign = try other.play(try EngineRig.sine(other, amplitude: 0.1), at: [1, 0, 0], loops: -1)
        ended.stop()
        // Read into locals: #expect cannot take the positions themselves (they cannot be copied).
        let (read, skipped, stepped, placedNow) = engine.moveVoices { positions in
            let read = [positions.position(of: placed), positions.position(of: atListener), positions.position(of: ended),
                        positions.position(of: foreign)]
            let skipped = [positions.move(ended, to: [1, 1, 1]), positions.move(foreign, to: [1, 1, 1]),
                           positions.move(placed, to: [.nan, 0, 0]), positions.move(placed, by: [.infinity, 0, 0]),
                           positions.move(atListener, by: [1, 0, 0])]
            let stepped = positions.move(placed, by: [1, 0, 0]) ? positions.position(of: placed) : nil
            let placedNow = positions.move(atListener, to: [0, 0, -5])
            return (read, skipped, stepped, placedNow)
        }
        #expect(read == [[0, 0, -2], nil, nil, nil], "only the placed voice of this engine has a position to read")
        #expect(skipped == [false, false, false, false, false],
                "an ended voice, another engine's, a non-finite point or step, a step for a voice at the listener")
        #expect(stepped == [1, 0, -2] && placedNow)
        #expect(placed.position == [1, 0, -2] && atListener.position == [0, 0, -5] && foreign.position == [1, 0, 0])
        // Heard on the right first (the voice at the listener is 5 m ahead, in the middle).
        _ = try engine.render(frames: 2_400)
        let before = try engine.render(frames: 4_800)
        #expect(Measure.dB(before, channel: 1) > Measure.dB(before, channel: 0) + 3, "on the right first")
        // A body that throws: its error comes out typed, and what it moved first stays moved,
        // its source too.
        #expect(throws: Stop()) {
            try engine.moveVoices { (positions: inout VoicePositions) throws(Stop) in
                positions.move(placed, to: [-2, 0, 0])
                throw Stop()
            }
        }
        #expect(placed.position == [-2, 0, 0])
        _ = try engine.render(frames: 2_400)   // the pan's smoothing
        let after = try engine.render(frames: 4_800)
        #expect(Measure.dB(after, channel: 0) > Measure.dB(after, channel: 1) + 3, "the voice moved before the throw is heard on the left")
    }
}

/// What `moveVoices`' body must not do, each in a process of its own: it traps (a Swift trap,
/// SIGILL here: not an error thrown, nor OpenAL's trap), rather than write the pool's lanes
/// after they moved.
@Suite("moveVoices: a body that calls the engine, or swaps its positions with another engine's, traps")
struct VoiceMovingTrapTests {
    @Test("a play inside the body traps (the pool's box is open)")
    func playInsideTraps() async {
        await #expect(processExitsWith: .signal(SIGILL)) {
            let engine = try EngineRig.offline()
            let tone = try EngineRig.sine(engine, amplitude: 0.1)
            let voice = try engine.play(tone, at: [0, 0, -1], loops: -1)
            engine.moveVoices { positions in
                positions.move(voice, to: [1, 0, 0])
                _ = try? engine.play(tone, at: [0, 0, -2])
            }
        }
    }

    @Test("positions swapped with a nested moveVoices' on another engine trap when the inner one returns")
    func swappedTraps() async {
        await #expect(processExitsWith: .signal(SIGILL)) {
            let a = try EngineRig.offline(), b = try EngineRig.offline()
            a.moveVoices { outer in
                b.moveVoices { inner in swap(&outer, &inner) }
            }
        }
    }

    @Test("the same nested moves, not swapped, run")
    func nestedRuns() async {
        await #expect(processExitsWith: .success) {
            let a = try EngineRig.offline(), b = try EngineRig.offline()
            let va = try a.play(try EngineRig.sine(a, amplitude: 0.1), at: [0, 0, -1], loops: -1)
            let vb = try b.play(try EngineRig.sine(b, amplitude: 0.1), at: [0, 0, -1], loops: -1)
            let moved = a.moveVoices { outer in
                outer.move(va, to: [1, 0, 0]) && b.moveVoices { inner in inner.move(vb, to: [-1, 0, 0]) }
            }
            guard moved, va.position == [1, 0, 0], vb.position == [-1, 0, 0] else { exit(1) }
        }
    }
}
