import Foundation
import SoundStageCore
import SoundStageSession

extension VoicePool {
    /// One service tick: every playhead moves on to `nowFrame` (virtual ones keep time
    /// unless their options say wait), voices that reached their end while virtual finish,
    /// every voice is ranked (pinned first, then priority, then audibility), the top ones get
    /// sources and the rest give theirs up, `.stop` voices left virtual end, and real voices
    /// are refilled and checked for their end.
    ///
    /// The engine refreshes the buses right after (``refreshBuses(_:nowSeconds:players:)``), so
    /// ranking uses the gains the last refresh worked out for this tick.
    func service(_ held: borrowing LockHeld, context: AudioContext, nowFrame: Int) {
        let listener = ListenerSnapshot(position: context.listener.get(.position), gain: context.listener.get(.gain),
                                        model: context.get(.distanceModel))
        state.withLockedValue(held) { s in
            if !s.isConfigured { try? configureByDefault(&s, context: context) }
            if listener != s.listener { s.rankInputsChanged = true }
            s.listener = listener
            releaseLeaving(&s)
            let elapsed = max(0, nowFrame - s.clockFrame)
            s.clockFrame = nowFrame
            let ranked = rank(&s, elapsed: elapsed)
            for i in ranked.ended { end(&s, i, .finished, fade: false) }
            choose(&s, ranked.chosen, context: context)
            // A `.stop` voice that is virtual now (not chosen, or no source for it) ends.
            for i in ranked.stopping where s.slots.isLive(i) && s.slots.real[i] < 0 { end(&s, i, .culled) }
            settleReals(&s, outputFrames: tickSeconds * Double(context.frequency))
            serviceZones(&s, context: context, elapsedSeconds: Float(elapsed) / Float(context.frequency))
        }
    }

    /// What one pass over the voices found.
    struct Ranking {
        /// Virtual voices that reached their end.
        var ended: [Int] = []
        /// The slots ranked highest.
        var chosen: [Int32] = []
        /// `.stop` voices that may not stay virtual.
        var stopping: [Int] = []
    }

    /// Moves every playhead on by `elapsed` output frames and ranks every voice. The loop
    /// every voice goes through each tick.
    ///
    /// A voice that waits (paused, its bus paused, an interruption) does not move and keeps
    /// only its tier (pinned, priority) in its rank, so it is never taken for a less important
    /// one. A voice on a muted bus is virtual and keeps time whatever its options, and is
    /// never culled for being muted.
    private func rank(_ s: inout VoicePoolState, elapsed: Int) -> Ranking {
        let gains = s.tree.buses.map(\.gain)
        // A voice muted at any time since the last tick kept time until now, whatever its
        // options: one unmuted since comes back in step, not a tick behind.
        let busStates = s.tree.buses.map { bus in
            BusBits(waiting: s.interrupted || bus.isPausedInTree, muted: bus.isMutedInTree, keptTime: bus.isMutedInTree || bus.mutedSinceTick)
        }
        for b in s.tree.buses.indices { s.tree.buses[b].mutedSinceTick = s.tree.buses[b].isMutedInTree }
        let elapsed = Int64(elapsed)
        let listener = s.listener
        let floor = s.configuration.audibilityFloor
        let everyone = s.rankInputsChanged
        s.rankInputsChanged = false
        var top = TopRanks(capacity: voiceCapacity(s))
        var ranking = Ranking()
        gains.withUnsafeBufferPointer { gains in busStates.withUnsafeBufferPointer { busStates in
                let inputs = RankInputs(gains: gains, buses: busStates, elapsed: elapsed, listener: listener, floor: floor, everyone: everyone)
                s.slots.withTickLanes { v in
                    // One loop per distance model, each with its model a constant: no switch
                    // on it for every voice.
                    switch listener.model {
                    case .none: Self.rank(v, inputs, DistanceLaw.None.self, &top, &ranking)
                    case .inverse: Self.rank(v, inputs, DistanceLaw.Inverse.self, &top, &ranking)
                    case .inverseClamped: Self.rank(v, inputs, DistanceLaw.InverseClamped.self, &top, &ranking)
                    case .linear: Self.rank(v, inputs, DistanceLaw.Linear.self, &top, &ranking)
                    case .linearClamped: Self.rank(v, inputs, DistanceLaw.LinearClamped.self, &top, &ranking)
                    case .exponent: Self.rank(v, inputs, DistanceLaw.Exponent.self, &top, &ranking)
                    case .exponentClamped: Self.rank(v, inputs, DistanceLaw.ExponentClamped.self, &top, &ranking)
                    }
                }
        } }
        ranking.chosen = top.slots
        return ranking
    }

    /// What the tick reads of a bus for each of its voices, in one byte.
    struct BusBits: OptionSet {
        let rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Its voices wait (it is paused in the tree, or an interruption is under way).
        static let waiting = BusBits(rawValue: 1)
        static let muted = BusBits(rawValue: 2)
        /// Its voices kept time since the last tick whatever their options (it was muted).
        static let keptTime = BusBits(rawValue: 4)

        init(waiting: Bool, muted: Bool, keptTime: Bool) {
            rawValue = (waiting ? 1 : 0) | (muted ? 2 : 0) | (keptTime ? 4 : 0)
        }
    }

    /// What every voice's rank is worked out from at a tick.
    struct RankInputs {
        /// Per bus: its gain, and what its voices do (``BusBits``).
        let gains: UnsafeBufferPointer<Float>, buses: UnsafeBufferPointer<BusBits>
        /// Output frames since the last tick.
        let elapsed: Int64
        let listener: ListenerSnapshot
        /// The audibility under which a voice is not offered a source (pinned ones aside).
        let floor: Float
        /// Every voice's audibility is worked out again, not only those that changed.
        let everyone: Bool
    }

    /// The loop over every voice of ``rank(_:elapsed:)``, made once for each distance model
    /// (`Law`), so that the model is a constant in it. Eight voices at a time where all eight
    /// are plain (``rankBlock(_:_:_:_:_:_:)``), one at a time otherwise.
    private static func rank<Law: DistanceLaw.Model>(_ v: TickLanes, _ inputs: RankInputs, _ law: Law.Type, _ top: inout TopRanks,
                                                      _ ranking: inout Ranking) {
        var listener = inputs.listener
        listener.model = Law.model
        var i = 0
        while i < v.count {
            if i + 8 <= v.count, rankBlock(v, i, inputs, listener, law, &top) {
                i += 8
                continue
            }
            for k in i..<min(v.count, i + 8) { rankOne(v, k, inputs, listener, &top, &ranking) }
            i += 8
        }
    }

    /// One voice of ``rank(_:_:_:_:_:)``: whatever it is.
    @inline(__always)
    static func rankOne(_ v: TickLanes, _ i: Int, _ inputs: RankInputs, _ listener: ListenerSnapshot, _ top: inout TopRanks,
                                _ ranking: inout Ranking) {
        let gains = inputs.gains, buses = inputs.buses
        let flags = v.flags[i]
        guard flags.contains(.live) else { return }
        let bus = Int(v.bus[i])
        let busBits = buses[bus]
        if flags.contains(.paused) || busBits.contains(.waiting) {
            v.rank[i] = v.tier[i]
            v.flags[i] = flags.union(.needsRank)
            return
        }
        let real = v.real[i] >= 0
        if real || !flags.contains(.pausesWhenVirtual) || busBits.contains(.keptTime) {
            v.playhead[i] &+= inputs.elapsed &* v.increment[i]
        }
        if !real, v.playhead[i] >= v.length[i] {
            ranking.ended.append(i)
            return
        }
        let muted = busBits.contains(.muted)
        var rank = v.rank[i]
        if inputs.everyone || flags.contains(.needsRank) {
            let cone = flags.contains(.hasCone) ? v.details[i].cone : nil
            let audibility = muted ? 0 : Audibility.of(gain: v.gain[i] * gains[bus], flags: flags, position: SIMD3(v.x[i], v.y[i], v.z[i]),
                                                       distance: v.distance[i], cone: cone, listener: listener)
            rank = v.tier[i] | UInt64(audibility.bitPattern)
            v.rank[i] = rank
            v.flags[i] = flags.subtracting(.needsRank)
        }
        guard !muted else { return }
        if Float(bitPattern: UInt32(truncatingIfNeeded: rank)) >= inputs.floor || flags.contains(.pinned) {
            top.offer(rank, slot: Int32(truncatingIfNeeded: i))
        }
        if flags.contains(.stopsWhenVirtual) { ranking.stopping.append(i) }
    }

    /// Eight voices from `i` of ``rank(_:_:_:_:_:)`` at once, when all eight are plain: live,
    /// positioned in the world, not paused, pinned or coned, keeping time while virtual, on
    /// buses that neither wait nor are muted, and not at their end; the distance model one
    /// with a vector form (not the exponent models). Works out exactly what ``rankOne`` would
    /// (the same operations in the same order, lane by lane). False, having changed nothing,
    /// when one of them is not plain.
    @inline(__always)
    static func rankBlock<Law: DistanceLaw.Model>(_ v: TickLanes, _ i: Int, _ inputs: RankInputs, _ listener: ListenerSnapshot,
                                                          _ law: Law.Type, _ top: inout TopRanks) -> Bool {
        guard Law.hasVectorForm else { return false }
        let flags = UnsafeRawPointer(v.flags.baseAddress! + i).loadUnaligned(as: SIMD8<UInt16>.self)
        let looked: VoiceFlags = [.live, .positioned, .paused, .pinned, .relative, .hasCone, .pausesWhenVirtual, .stopsWhenVirtual]
        let plain: VoiceFlags = [.live, .positioned]
        guard all(flags & looked.rawValue .== plain.rawValue) else { return false }
        var busGain = SIMD8<Float>()
        var playhead = SIMD8<Int64>()
        for k in 0..<8 {
            let bus = Int(v.bus[i + k])
            guard inputs.buses[bus].isDisjoint(with: [.waiting, .muted]) else { return false }
            busGain[k] = inputs.gains[bus]
            let p = v.playhead[i + k] &+ inputs.elapsed &* v.increment[i + k]
            if v.real[i + k] < 0, p >= v.length[i + k] { return false }
            playhead[k] = p
        }
        UnsafeMutableRawPointer(v.playhead.baseAddress! + i).storeBytes(of: playhead, as: SIMD8<Int64>.self)
        var rank = UnsafeRawPointer(v.rank.baseAddress! + i).loadUnaligned(as: SIMD8<UInt64>.self)
        let needs = inputs.everyone ? SIMDMask<SIMD8<Int16>>(repeating: true)
            : (flags & VoiceFlags.needsRank.rawValue) .!= 0
        if any(needs) {
            func load(_ lane: UnsafeBufferPointer<Float>) -> SIMD8<Float> {
                UnsafeRawPointer(lane.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
            }
            var reference = SIMD8<Float>(), maximum = SIMD8<Float>(), rolloff = SIMD8<Float>()
            for k in 0..<8 {
                let d = v.distance[i + k]
                (reference[k], maximum[k], rolloff[k]) = (d.reference, d.maximum, d.rolloff)
            }
            let gain = load(v.gain) * busGain
            let l = listener.position
            let dx = SIMD8(repeating: l.x) - load(v.x), dy = SIMD8(repeating: l.y) - load(v.y), dz = SIMD8(repeating: l.z) - load(v.z)
            let distance = (dx * dx + dy * dy + dz * dz).squareRoot()
            let heard = gain * Law.gain(distance: distance, reference: reference, maximum: maximum, rolloff: rolloff)
            let clamped = pointwiseMin(SIMD8(repeating: 1), pointwiseMax(SIMD8(repeating: 0), heard)) * listener.gain
            let audibility = clamped.replacing(with: 0, where: gain .<= 0)
            let tier = UnsafeRawPointer(v.tier.baseAddress! + i).loadUnaligned(as: SIMD8<UInt64>.self)
            for k in 0..<8 where needs[k] { rank[k] = tier[k] | UInt64(audibility[k].bitPattern) }
            UnsafeMutableRawPointer(v.rank.baseAddress! + i).storeBytes(of: rank, as: SIMD8<UInt64>.self)
            let cleared = flags & ~VoiceFlags.needsRank.rawValue
            UnsafeMutableRawPointer(v.flags.baseAddress! + i).storeBytes(of: cleared, as: SIMD8<UInt16>.self)
        }
        for k in 0..<8 where Float(bitPattern: UInt32(truncatingIfNeeded: rank[k])) >= inputs.floor {
            top.offer(rank[k], slot: Int32(truncatingIfNeeded: i + k))
        }
        return true
    }

    /// Gives the chosen voices sources and takes them from the others (they fade out).
    private func choose(_ s: inout VoicePoolState, _ chosen: [Int32], context: AudioContext) {
        // The usual tick: the chosen are the real ones already.
        if chosen.count == s.reals.count, s.slots.real.withUnsafeBufferPointer({ real in chosen.allSatisfy { real[Int($0)] >= 0 } }) {
            return
        }
        if s.chosen.count < s.slots.count { s.chosen.append(contentsOf: repeatElement(false, count: s.slots.count - s.chosen.count)) }
        for i in chosen { s.chosen[Int(i)] = true }
        for r in s.reals.indices.reversed() {
            let i = Int(s.reals[r].slot)
            if !s.chosen[i] { makeVirtual(&s, i, fade: true) }
        }
        for i in chosen.map(Int.init) {
            s.chosen[i] = false
            if s.slots.isLive(i), s.slots.real[i] < 0 { makeReal(&s, i, in: context) }
        }
    }

    /// Refills real voices and ends those that played out. A voice with nothing more to
    /// queue (a looping buffer, the last plays of a sound all queued) is asked nothing of
    /// OpenAL until its playhead nears its end: each query costs a trip into the mixer's
    /// locks, and a full pool of looping voices would pay it every tick.
    private func settleReals(_ s: inout VoicePoolState, outputFrames: Double) {
        var finished: [Int] = []
        for r in s.reals.indices {
            guard !s.reals[r].loopsInPlace else { continue }
            let i = Int(s.reals[r].slot)
            let margin = Int64(2 * outputFrames) &* s.slots.increment[i]
            if s.slots.playhead[i] < s.slots.length[i] &- margin, s.reals[r].feed.isExhausted { continue }
            let outcome = s.reals[r].feed.settle(s.reals[r].source, isOffline: isOffline)
            if let decodeError = outcome.decodeError { s.errors.append(decodeError) }
            s.errors.append(contentsOf: outcome.errors)
            if outcome.playedOut { finished.append(Int(s.reals[r].slot)) }
        }
        for i in finished { end(&s, i, .finished, fade: false) }
    }

    /// The errors met since the last call, for the engine to post.
    func takeErrors(_ held: borrowing LockHeld) -> [any Error] {
        state.withLockedValue(held) { s in
            defer { s.errors.removeAll() }
            return s.errors
        }
    }
}
