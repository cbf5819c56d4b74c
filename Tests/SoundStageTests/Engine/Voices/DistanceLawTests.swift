import Foundation
@testable import SoundStageEngine
import Testing

/// The tick's bounds under OpenAL's default distance model, on lanes the test builds: what
/// they skip, each voice's own bound would skip too.
@Suite("Distance law: the farthest reach skips only voices each one's own bound skips")
struct DistanceLawTests {
    @Test("four voices past the farthest any voice reaches are skipped only where each voice's own bound skips it: rolloffs under 1, short maximum distances, a silent bus, an open floor")
    func farthestReachImpliesEachVoicesBound() {
        typealias Law = DistanceLaw.InverseClamped
        var uniform = SeededUniform(seed: 5)
        var coarse = 0, skipped = 0
        for round in 0..<20_000 {
            // Eight voices, the bound taken over all of them; the first four are tested.
            var distances: [VoiceDistance] = [], gains: [Float] = [], points: [SIMD3<Float>] = []
            for k in 0..<8 {
                let reference = uniform(0.25...4)
                // Some maximum distances just past the reference (heard from anywhere): the
                // bound must then skip nothing on its own.
                let maximum = round % 7 == 0 && k == 2 ? reference + uniform(0...2) : Float.greatestFiniteMagnitude
                distances.append(VoiceDistance(reference: reference, maximum: maximum, rolloff: uniform(0.2...3)))
                gains.append(uniform(0.01...1))
                points.append([uniform(-40...40), uniform(-3...3), uniform(-40...40)])
            }
            var bound = ReachBound()
            var reach = [SIMD4<Float>](repeating: .zero, count: 8)
            for k in 0..<8 {
                let parts = Law.reach(gain: gains[k], distance: distances[k])
                bound.include(parts)
                // In columns of four voices, as the table keeps them.
                for part in 0..<4 { reach[(k & ~3) + part][k & 3] = parts[part] }
            }
            let listener = ListenerSnapshot(position: [uniform(-5...5), 0, uniform(-5...5)], gain: 1, model: .inverseClamped)
            // The least kept audibility; now and then none yet (the floor open).
            let least = uniform(0.002...0.3)
            let floor = round % 11 == 0 ? RankFloor.open : RankFloor(least: 128 << 32 | UInt64(least.bitPattern), listenerGain: 1)
            let busGain: Float = [0, 0.25, 1][round % 3]
            // Three floats a voice, as the table keeps them.
            var floats: [Float] = points.flatMap { p -> [Float] in [p.x, p.y, p.z] }
            reach.withUnsafeBufferPointer { reach in
                floats.withUnsafeMutableBufferPointer { floats in
                    let lanes = ReachLanes(reach: reach, bound: bound, position: PointLane(floats))
                    // Where the farthest reach alone would skip the four (the test's own sums).
                    let farthest = bound.farthest(busGain * floor.scale)
                    let beyond = (0..<4).allSatisfy { k in
                        let q = listener.position - points[k]
                        return q.x * q.x + q.y * q.y + q.z * q.z > farthest * farthest * DistanceLaw.margin
                    }
                    if farthest < bound.maximum, beyond { coarse += 1 }
                    guard Law.cannotReachFour(lanes, 0, busGain: busGain, floor: floor, listener: listener) else { return }
                    skipped += 1
                    for k in 0..<4 {
                        #expect(Law.cannotReach(lanes, k, tier: floor.tier, flags: [.live, .positioned], busGain: busGain, floor: floor,
                                                listener: listener), "round \(round), voice \(k): skipped four at a time, not alone")
                    }
                }
            }
        }
        // The rounds reach the farthest reach's own skip, not only the bound of each voice.
        #expect(coarse > 1_000, "the farthest reach would skip \(coarse) fours")
        #expect(skipped >= coarse, "\(skipped) fours skipped, \(coarse) by the farthest reach")
    }
}
