import Foundation
import Testing
@testable import SoundStageCore
@testable import SoundStageEngine

/// The tick's loop takes eight plain voices at once (`VoicePool.rankBlock`): it must work out
/// exactly what the loop one voice at a time does (`VoicePool.rankOne`), to the bit, for every
/// distance model it takes, whatever the voices' places, gains and distances.
@Suite("The voice tick eight at a time: the same ranks, playheads and choices as one at a time")
struct VoiceTickBlockTests {
    /// A table of `count` plain voices, drawn from `seed`: places on a 200 m square (some
    /// inside their reference distance, some past their maximum), volumes and direct gains
    /// (some 0), priorities, distance parameters (some with the maximum at the reference),
    /// two buses; some real, some needing their rank worked out.
    static func table(count: Int, seed: UInt64) -> VoiceTable {
        var generator = SeededGenerator(seed: seed)
        func uniform(_ range: ClosedRange<Float>) -> Float { Float.random(in: range, using: &generator) }
        var table = VoiceTable()
        for i in 0..<count {
            table.appendFree()
            var slot = VoiceSlot()
            slot.flags = [.live, .positioned]
            if i % 3 == 0 { slot.flags.insert(.needsRank) }
            slot.bus = Int32(i % 2)
            slot.real = i % 5 == 0 ? Int32(i / 5) : -1
            slot.increment = Int64(1 << 14) + Int64(i)
            slot.playhead = Int64(i) * 1_000
            slot.length = i % 4 == 0 ? Int64.max : 1 << 40
            slot.position = SIMD3(uniform(-100...100), uniform(-2...2), uniform(-100...100))
            slot.volume = i % 11 == 0 ? 0 : uniform(0.1...1)
            slot.directGain = i % 13 == 0 ? 0.25 : 1
            let reference = uniform(0.5...20)
            slot.distance = VoiceDistance(reference: reference, maximum: i % 7 == 0 ? reference : reference + uniform(0...150),
                                          rolloff: uniform(0...3))
            slot.priority = UInt8(i % 4 * 60)
            slot.rank = UInt64(i)
            table.setRow(i, slot)
        }
        return table
    }

    static let models: [DistanceModel] = [.none, .inverse, .inverseClamped, .linear, .linearClamped]

    @Test("every model with a vector form, 256 voices from four seeds: every lane the same, the same voices chosen", arguments: models)
    func sameAsOneAtATime(model: DistanceModel) throws {
        for seed in UInt64(1)...4 {
            var one = Self.table(count: 256, seed: seed), eight = one
            let gains: [Float] = [1, 0.5]
            let buses = [VoicePool.BusBits](repeating: [], count: 2)
            let listener = ListenerSnapshot(position: SIMD3(3, 1, -7), gain: 0.8, model: model)
            var topOne = TopRanks(capacity: 32), topEight = TopRanks(capacity: 32)
            var ranking = VoicePool.Ranking()
            var blocks = 0
            gains.withUnsafeBufferPointer { gains in buses.withUnsafeBufferPointer { buses in
                for everyone in [false, true] {
                    let inputs = VoicePool.RankInputs(gains: gains, buses: buses, elapsed: 480, listener: listener, floor: 0.001,
                                                      everyone: everyone)
                    one.withTickLanes { v in
                        for i in 0..<v.count { VoicePool.rankOne(v, i, inputs, listener, &topOne, &ranking) }
                    }
                    eight.withTickLanes { v in
                        for i in stride(from: 0, to: v.count, by: 8) {
                            let done: Bool
                            switch model {
                            case .none: done = VoicePool.rankBlock(v, i, inputs, listener, DistanceLaw.None.self, &topEight)
                            case .inverse: done = VoicePool.rankBlock(v, i, inputs, listener, DistanceLaw.Inverse.self, &topEight)
                            case .inverseClamped: done = VoicePool.rankBlock(v, i, inputs, listener, DistanceLaw.InverseClamped.self, &topEight)
                            case .linear: done = VoicePool.rankBlock(v, i, inputs, listener, DistanceLaw.Linear.self, &topEight)
                            default: done = VoicePool.rankBlock(v, i, inputs, listener, DistanceLaw.LinearClamped.self, &topEight)
                            }
                            if done { blocks += 1 }
                        }
                    }
                }
            } }
            #expect(blocks == 64, "every block of plain voices taken eight at a time (\(blocks) of 64)")
            #expect(ranking.ended.isEmpty && ranking.stopping.isEmpty)
            #expect(one.rank == eight.rank, "\(model), seed \(seed): ranks differ at \(zip(one.rank, eight.rank).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset } ?? -1)")
            #expect(one.playhead == eight.playhead && one.flags == eight.flags, "\(model), seed \(seed)")
            #expect(Set(topOne.slots) == Set(topEight.slots), "\(model), seed \(seed): the same voices chosen")
            let audible = one.rank.filter { Float(bitPattern: UInt32(truncatingIfNeeded: $0)) > 0 }.count
            #expect(audible > 32, "voices heard, so the ranks compared are worked out: \(audible) of 256")
        }
    }

    @Test("a block with one voice that is not plain (paused, pinned, relative, coned, at its end, on a muted bus) is left to the loop one at a time, unchanged")
    func notPlain() throws {
        let gains: [Float] = [1, 1]
        let listener = ListenerSnapshot(position: .zero, gain: 1, model: .inverseClamped)
        let changes: [(String, (inout VoiceTable) -> Void, [VoicePool.BusBits])] = [
            ("paused", { $0[.paused, 3] = true }, [[], []]),
            ("pinned", { $0[.pinned, 3] = true }, [[], []]),
            ("relative", { $0[.relative, 3] = true }, [[], []]),
            ("coned", { $0[.hasCone, 3] = true }, [[], []]),
            ("stops when virtual", { $0[.stopsWhenVirtual, 3] = true }, [[], []]),
            ("at its end", { t in t.real[3] = -1; t.length[3] = t.playhead[3] }, [[], []]),
            ("on a muted bus", { _ in }, [[], .muted]),
            ("on a waiting bus", { _ in }, [.waiting, []]),
        ]
        for (what, change, busBits) in changes {
            var table = Self.table(count: 8, seed: 9)
            change(&table)
            let before = table
            var top = TopRanks(capacity: 4)
            let done = gains.withUnsafeBufferPointer { gains in busBits.withUnsafeBufferPointer { buses in
                table.withTickLanes { v in
                    VoicePool.rankBlock(v, 0, VoicePool.RankInputs(gains: gains, buses: buses, elapsed: 480, listener: listener, floor: 0,
                                                                   everyone: true), listener, DistanceLaw.InverseClamped.self, &top)
                }
            } }
            #expect(!done, "\(what): taken eight at a time")
            #expect(table.rank == before.rank && table.playhead == before.playhead && table.flags == before.flags && top.slots.isEmpty,
                    "\(what): changed")
        }
    }
}
