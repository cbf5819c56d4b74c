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
            for i in ranked.stopping where s.slots[i].isLive && s.slots[i].real < 0 { end(&s, i, .culled) }
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

    /// Moves every playhead on by `elapsed` output frames and ranks every voice. The loop
    /// every voice goes through each tick.
    ///
    /// A voice that waits (paused, its bus paused, an interruption) does not move and keeps
    /// only its tier (pinned, priority) in its rank, so it is never taken for a less important
    /// one. A voice on a muted bus is virtual and keeps time whatever its options, and is
    /// never culled for being muted.
    private func rank(_ s: inout VoicePoolState, elapsed: Int) -> Ranking {
        let gains = s.buses.map(\.gain)
        let waiting = s.buses.map { s.interrupted || $0.isPausedInTree }
        let muted = s.buses.map(\.isMutedInTree)
        // A voice muted at any time since the last tick kept time until now, whatever its
        // options: one unmuted since comes back in step, not a tick behind.
        let keptTime = s.buses.map { $0.isMutedInTree || $0.mutedSinceTick }
        for b in s.buses.indices { s.buses[b].mutedSinceTick = s.buses[b].isMutedInTree }
        let elapsed = Int64(elapsed)
        let listener = s.listener
        let floor = s.configuration.audibilityFloor
        let everyone = s.rankInputsChanged
        s.rankInputsChanged = false
        var top = TopRanks(capacity: voiceCapacity(s))
        var ranking = Ranking()
        let details = s.details
        gains.withUnsafeBufferPointer { gains in waiting.withUnsafeBufferPointer { waiting in muted.withUnsafeBufferPointer { muted in
            keptTime.withUnsafeBufferPointer { keptTime in
            s.slots.withUnsafeMutableBufferPointer { slots in
                for i in slots.indices where slots[i].phase == .playing {
                    let bus = Int(slots[i].bus)
                    if slots[i].isPaused || waiting[bus] {
                        slots[i].rank = Audibility.rank(priority: slots[i].priority, audibility: 0, pinned: slots[i].isPinned)
                        slots[i].needsRank = true
                        continue
                    }
                    let real = slots[i].real >= 0
                    if real || slots[i].whenVirtual != .pause || keptTime[bus] {
                        slots[i].playhead += elapsed &* slots[i].increment
                    }
                    if !real, slots[i].playhead >= slots[i].length {
                        ranking.ended.append(i)
                        continue
                    }
                    if everyone || slots[i].needsRank {
                        let cone = slots[i].hasCone ? details[i].cone : nil
                        let audibility = muted[bus] ? 0 : Audibility.of(slots[i], cone: cone, busGain: gains[bus], listener: listener)
                        slots[i].rank = Audibility.rank(priority: slots[i].priority, audibility: audibility, pinned: slots[i].isPinned)
                        slots[i].needsRank = false
                    }
                    let audibility = slots[i].audibility, rank = slots[i].rank
                    guard !muted[bus] else { continue }
                    if audibility >= floor || slots[i].isPinned { top.offer(rank, slot: Int32(i)) }
                    if slots[i].whenVirtual == .stop { ranking.stopping.append(i) }
                }
            }
        } } } }
        ranking.chosen = top.slots
        return ranking
    }

    /// Gives the chosen voices sources and takes them from the others (they fade out).
    private func choose(_ s: inout VoicePoolState, _ chosen: [Int32], context: AudioContext) {
        // The usual tick: the chosen are the real ones already.
        if chosen.count == s.reals.count, s.slots.withUnsafeBufferPointer({ slots in chosen.allSatisfy { slots[Int($0)].real >= 0 } }) {
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
            if s.slots[i].isLive, s.slots[i].real < 0 { makeReal(&s, i, in: context) }
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
            let margin = Int64(2 * outputFrames) &* s.slots[i].increment
            if s.slots[i].playhead < s.slots[i].length &- margin, s.reals[r].feed.isExhausted { continue }
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
