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
            // A clock that went back (it never should) moves no playhead.
            if nowFrame < s.clockFrame { rebaseClock(&s, to: nowFrame) }
            s.clockFrame = nowFrame
            let ranked = rank(&s, elapsed: elapsed)
            for i in ranked.ended { end(&s, i, .finished, fade: false) }
            choose(&s, held, ranked.chosen, context: context)
            // A `.stop` voice that is virtual now (not chosen, or no source for it) ends.
            for i in ranked.stopping where s.slots.isLive(i) && s.slots.real[i] < 0 { end(&s, i, .culled) }
            settleReals(&s, outputFrames: tickSeconds * Double(context.frequency))
            serviceZones(&s, context: context, elapsedSeconds: Float(elapsed) / Float(context.frequency))
        }
    }

    /// What one pass over the voices found.
    private struct Ranking {
        /// Virtual voices that reached their end.
        var ended: [Int] = []
        /// The slots ranked highest.
        var chosen: [Int32] = []
        /// `.stop` voices that may not stay virtual.
        var stopping: [Int] = []
    }

    /// Ranks every voice, `elapsed` output frames after the last tick (the pool's clock is at
    /// this tick already, so playheads have moved on by themselves, and those of voices that
    /// waited are held back). The loop every voice goes through each tick.
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
        s.slots.ageReachBound()
        gains.withUnsafeBufferPointer { gains in busStates.withUnsafeBufferPointer { busStates in s.reals.withUnsafeBufferPointer { reals in
                let inputs = RankInputs(gains: gains, buses: busStates, reals: reals, elapsed: elapsed, now: Int64(s.clockFrame),
                                        listener: listener, floor: floor, everyone: everyone)
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
        } } }
        ranking.chosen = top.slots
        // In slot order, as one pass over the slots found them (the real ones came first):
        // their `.culled` ends are posted in that order.
        ranking.stopping.sort()
        s.weakestRealFound = nil   // the real voices' ranks moved
        return ranking
    }

    /// What the tick reads of a bus for each of its voices, in one byte.
    private struct BusBits: OptionSet {
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
    private struct RankInputs {
        /// Per bus: its gain, and what its voices do (``BusBits``).
        let gains: UnsafeBufferPointer<Float>, buses: UnsafeBufferPointer<BusBits>
        /// The real voices, ranked first.
        let reals: UnsafeBufferPointer<RealVoice>
        /// Output frames since the last tick.
        let elapsed: Int64
        /// The pool's clock at this tick.
        let now: Int64
        let listener: ListenerSnapshot
        /// The audibility under which a voice is not offered a source (pinned ones aside).
        let floor: Float
        /// Every voice's audibility is worked out again, not only those that changed.
        let everyone: Bool
    }

    /// The loop over every voice of ``rank(_:elapsed:)``, made once for each distance model
    /// (`Law`), so that the model is a constant in it.
    private static func rank<Law: DistanceLaw.Model>(_ v: TickLanes, _ inputs: RankInputs, _ law: Law.Type, _ top: inout TopRanks,
                                                      _ ranking: inout Ranking) {
        var listener = inputs.listener
        listener.model = Law.model
        let gains = inputs.gains, buses = inputs.buses
        // The least rank kept, once every place is taken: most voices of a crowded pool rank
        // far below it, and those surely below are not worked out (their audibility is left
        // until it is asked for).
        var floor = RankFloor.open
        // A plain voice: virtual, not pinned, positioned in the world, with no cone, not
        // paused, kept in time while virtual, and moved since the last tick (or the listener
        // did), on a bus that plays: most voices of a crowded pool. Its flags are told by one
        // comparison.
        let plainMask: VoiceFlags = [.live, .paused, .pinned, .real, .positioned, .relative, .hasCone, .pausesWhenVirtual,
                                     .stopsWhenVirtual, .needsRank]
        let plain: VoiceFlags = inputs.everyone ? [.live, .positioned] : [.live, .positioned, .needsRank]
        let plainLooks = inputs.everyone ? plainMask.subtracting(.needsRank) : plainMask
        // A voice worked out in full: a real one, one that is not plain, one on a bus that
        // waits or is muted (what `skipPlain` does not skip or stop at).
        func rankInFull(_ i: Int) {
            let flags = v.flags[i]
            guard flags.contains(.live) else { return }
            let bus = Int(v.bus[i])
            let busBits = buses[bus]
            if flags.contains(.paused) || busBits.contains(.waiting) {
                v.hold(i, by: inputs.elapsed)
                v.rank[i] = v.tier[i]
                v.flags[i] = flags.union(.needsRank).subtracting(.rankUnknown)
                return
            }
            if !flags.contains(.real) {
                if flags.contains(.pausesWhenVirtual), !busBits.contains(.keptTime) { v.hold(i, by: inputs.elapsed) }
                if !flags.contains(.endless), v.end[i] <= inputs.now {
                    ranking.ended.append(i)
                    return
                }
            }
            let muted = busBits.contains(.muted)
            let rank: UInt64
            if inputs.everyone || flags.contains(.needsRank) {
                if !muted, Law.cannotReach(v.reachLanes, i, tier: v.tier[i], flags: flags, busGain: gains[bus], floor: floor, listener: listener) {
                    v.flags[i] = flags.union([.needsRank, .rankUnknown])
                    if flags.contains(.stopsWhenVirtual) { ranking.stopping.append(i) }
                    return
                }
                let cone = flags.contains(.hasCone) ? v.details[i].cone : nil
                let audibility = muted ? 0 : Audibility.of(gain: v.gain[i] * gains[bus], flags: flags, position: v.point(i),
                                                           distance: v.distance[i], cone: cone, listener: listener)
                rank = v.tier[i] | UInt64(audibility.bitPattern)
                v.rank[i] = rank
                v.flags[i] = flags.subtracting([.needsRank, .rankUnknown])
            } else {
                rank = v.rank[i]
            }
            guard !muted else { return }
            if Float(bitPattern: UInt32(truncatingIfNeeded: rank)) >= inputs.floor || flags.contains(.pinned) {
                offer(rank, i, &top, &floor, listener)
            }
            if flags.contains(.stopsWhenVirtual) { ranking.stopping.append(i) }
        }
        // The real voices first: the most audible at the last tick, most of them still among
        // the most audible, they raise the floor at once, and far more of the others are
        // skipped, four at a time, than if the floor rose as the slots come. (Which voices are
        // kept does not hang on the order: ties go to the lower slot whatever comes first.)
        for r in inputs.reals.indices {
            let i = Int(inputs.reals[r].slot)
            if v.flags[i].contains(.real) { rankInFull(i) }
        }
        var next = 0
        while next < v.count {
            // Any other voice is worked out here, with no call (the real ones were ranked first).
            if !isPlain(v.flags[next], bus: v.bus[next], buses, plain: plain, plainLooks: plainLooks) {
                if !v.flags[next].contains(.real) { rankInFull(next) }
                next += 1
                continue
            }
            // The plain voices that cannot reach a source (most of a crowded pool) go by in a
            // loop of their own, which keeps its values in registers; it stops at the first
            // voice that needs more.
            let (i, look) = skipPlain(v, from: next, inputs, floor, listener, plain: plain, plainLooks: plainLooks, law)
            guard i < v.count else { break }
            next = i + 1
            switch look {
            case .ended:
                ranking.ended.append(i)
            case .reaches:
                let audibility = Audibility.of(gain: v.gain[i] * gains[Int(v.bus[i])], flags: [.live, .positioned], position: v.point(i),
                                               distance: v.distance[i], cone: nil, listener: listener)
                // Not pinned: its tier is its priority.
                let rank = UInt64(v.priority[i]) << 32 | UInt64(audibility.bitPattern)
                v.rank[i] = rank
                v.flags[i] = v.flags[i].subtracting([.needsRank, .rankUnknown])
                if audibility >= inputs.floor { offer(rank, i, &top, &floor, listener) }
            case .other:
                // The real ones were ranked first.
                if !v.flags[i].contains(.real) { rankInFull(i) }
            }
        }
    }

    /// Whether a voice with `flags` on `bus` is plain (`plain` when its flags are masked with
    /// `plainLooks`), on a bus that plays.
    @inline(__always)
    private static func isPlain(_ flags: VoiceFlags, bus: Int32, _ buses: UnsafeBufferPointer<BusBits>, plain: VoiceFlags,
                                plainLooks: VoiceFlags) -> Bool {
        flags.intersection(plainLooks) == plain && buses[Int(bus)].isEmpty
    }

    /// What ``skipPlain(_:from:_:_:_:plain:plainLooks:_:)`` stopped at.
    private enum PlainLook {
        /// A plain voice that reached its end.
        case ended
        /// A plain voice that may reach a source: its audibility is worked out.
        case reaches
        /// Any other voice (or none: the end of the table).
        case other
    }

    /// Skips the plain voices from `start` on that cannot reach a source (each marked to be
    /// ranked when asked, ``VoiceFlags/rankUnknown``), and returns the first that is not one,
    /// with what it is. Not inlined: its loop keeps the lanes and the floor in registers, which
    /// the whole tick's loop cannot.
    @inline(never)
    private static func skipPlain<Law: DistanceLaw.Model>(_ v: TickLanes, from start: Int, _ inputs: RankInputs, _ floor: RankFloor,
                                                           _ listener: ListenerSnapshot, plain: VoiceFlags, plainLooks: VoiceFlags,
                                                           _ law: Law.Type) -> (Int, PlainLook) {
        // The lanes in registers: read through `v`, each would be read again after every
        // write to the flags.
        let count = v.count, flagLane = v.flags, busLane = v.bus, end = v.end, priority = v.priority, fours = v.fours
        let reach = v.reachLanes, buses = inputs.buses, gains = inputs.gains, now = inputs.now
        // The floor's priority (past any priority while it is pinned).
        let floorPriority = floor.tier >> 32
        var i = start
        while i < count {
            if i & 3 == 0, i &+ 4 <= count, skipFour(i, flagLane, fours, reach, buses: buses, gains: gains, floor, floorPriority: floorPriority,
                                                     listener, plain: plain, plainLooks: plainLooks, law) {
                i &+= 4
                continue
            }
            // One at a time to the next four.
            let last = min((i | 3) &+ 1, count)
            while i < last {
                let flags = flagLane[i]
                guard isPlain(flags, bus: busLane[i], buses, plain: plain, plainLooks: plainLooks) else { return (i, .other) }
                let bus = Int(busLane[i])
                if !flags.contains(.endless), end[i] <= now { return (i, .ended) }
                // Not pinned: its tier is its priority.
                let tier = UInt64(priority[i]) << 32
                guard Law.cannotReach(reach, i, tier: tier, flags: [.live, .positioned], busGain: gains[bus], floor: floor,
                                      listener: listener) else { return (i, .reaches) }
                flagLane[i] = flags.union([.needsRank, .rankUnknown])
                i += 1
            }
        }
        return (i, .other)
    }

    /// Whether voices `i` to `i + 3` (`i` a multiple of four) are plain, never end, share one
    /// bus that plays and one priority (``FourSlots``), and cannot reach a source; if so they
    /// are marked as the one-at-a-time path marks each. False leaves them to that path.
    /// `floorPriority` is the floor's tier over 2^32: its priority, or more than any while it is
    /// pinned.
    @inline(__always)
    private static func skipFour<Law: DistanceLaw.Model>(_ i: Int, _ flagLane: UnsafeMutableBufferPointer<VoiceFlags>,
                                                          _ fours: UnsafeBufferPointer<FourSlots>, _ reach: ReachLanes,
                                                          buses: UnsafeBufferPointer<BusBits>, gains: UnsafeBufferPointer<Float>,
                                                          _ floor: RankFloor, floorPriority: UInt64, _ listener: ListenerSnapshot,
                                                          plain: VoiceFlags, plainLooks: VoiceFlags, _ law: Law.Type) -> Bool {
        let flagsAt = UnsafeMutableRawPointer(flagLane.baseAddress.unsafelyUnwrapped + i)
        let flags = flagsAt.loadUnaligned(as: SIMD4<UInt16>.self)
        // Each plain, and endless (a voice that may end is looked at alone).
        let looks = SIMD4(repeating: plainLooks.rawValue | VoiceFlags.endless.rawValue)
        guard flags & looks == SIMD4(repeating: plain.rawValue | VoiceFlags.endless.rawValue) else { return false }
        let four = fours[i &>> 2]
        guard !four.isMixed, buses[four.bus].isEmpty else { return false }
        let unknown = VoiceFlags([.needsRank, .rankUnknown])
        if four.priority == floorPriority {
            // The floor's tier: the bound decides.
            guard Law.cannotReachFour(reach, i, busGain: gains[four.bus], floor: floor, listener: listener) else { return false }
        } else {
            // Not pinned: their tier is their priority. One below the floor's never gets in.
            guard four.priority << 32 < floor.tier else { return false }
        }
        flagsAt.storeBytes(of: flags | SIMD4(repeating: unknown.rawValue), as: SIMD4<UInt16>.self)
        return true
    }

    /// Offers voice `i`'s `rank` for a source, and moves the floor up with the least kept.
    @inline(__always)
    private static func offer(_ rank: UInt64, _ i: Int, _ top: inout TopRanks, _ floor: inout RankFloor, _ listener: ListenerSnapshot) {
        top.offer(rank, slot: Int32(truncatingIfNeeded: i))
        if let least = top.least, least != floor.least { floor = RankFloor(least: least, listenerGain: listener.gain) }
    }

    /// Gives the chosen voices sources and takes them from the others (they fade out).
    private func choose(_ s: inout VoicePoolState, _ held: borrowing LockHeld, _ chosen: [Int32], context: AudioContext) {
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
            if s.slots.isLive(i), s.slots.real[i] < 0 { makeReal(&s, held, i, in: context) }
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
            if s.slots.playhead(i, at: s.clockFrame) < s.slots.length[i] &- margin, s.reals[r].feed.isExhausted { continue }
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
