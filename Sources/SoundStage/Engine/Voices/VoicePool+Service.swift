import Foundation

extension VoicePool {
    /// One service tick: every playhead moves on to `nowFrame` (virtual ones keep time
    /// unless their options say wait), virtual voices that reached their end finish, every
    /// voice is ranked (pinned first, then priority, then audibility), the top
    /// ``VoicePoolState/realLimit`` get sources and the rest give theirs up, and real
    /// voices are refilled and checked for their end.
    /// The buses were refreshed for this tick just before (``refreshBuses(_:nowSeconds:players:)``).
    func service(_ held: borrowing LockHeld, context: AudioContext, nowFrame: Int) {
        let listener = ListenerSnapshot(position: context.listener.get(.position), gain: context.listener.get(.gain),
                                        model: context.get(.distanceModel))
        state.withLockedValue(held) { s in
            if !s.isConfigured { try? configure(&s, s.configuration, context: context) }
            s.listener = listener
            releaseLeaving(&s)
            let elapsed = Double(max(0, nowFrame - s.clockFrame))
            s.clockFrame = nowFrame
            let (ended, chosen) = rank(&s, elapsed: elapsed)
            for i in ended { end(&s, i, .finished, fade: false) }
            choose(&s, chosen, context: context)
            settleReals(&s, outputFrames: tickSeconds * Double(context.frequency))
        }
    }

    /// Moves every playhead on by `elapsed` output frames and ranks every voice; returns the
    /// virtual voices that have played out, and the slots ranked highest. The loop every
    /// voice goes through each tick.
    private func rank(_ s: inout VoicePoolState, elapsed: Double) -> (ended: [Int], chosen: [Int32]) {
        let gains = s.buses.map(\.gain)
        let paused = s.buses.map(\.isPausedInTree)
        let listener = s.listener
        let floor = s.configuration.audibilityFloor
        var top = TopRanks(capacity: voiceCapacity(s))
        var ended: [Int] = []
        s.slots.withUnsafeMutableBufferPointer { slots in
            for i in slots.indices where slots[i].phase == .playing {
                let bus = Int(slots[i].bus)
                if slots[i].isPaused || paused[bus] {
                    slots[i].rank = 0
                    continue
                }
                let real = slots[i].real >= 0
                if real || slots[i].whenVirtual == .keepTime {
                    slots[i].playhead += elapsed * slots[i].step * Double(slots[i].pitch)
                    if !real, slots[i].playhead >= slots[i].length {
                        ended.append(i)
                        continue
                    }
                }
                let audibility = Audibility.of(slots[i], busGain: gains[bus], listener: listener)
                let rank = Audibility.rank(priority: slots[i].priority, audibility: audibility, pinned: slots[i].isPinned)
                slots[i].audibility = audibility
                slots[i].rank = rank
                if audibility >= floor || slots[i].isPinned { top.offer(rank, slot: Int32(i)) }
            }
        }
        return (ended, top.slots)
    }

    /// Gives the chosen voices sources and takes them from the others.
    private func choose(_ s: inout VoicePoolState, _ chosen: [Int32], context: AudioContext) {
        if s.chosen.count < s.slots.count { s.chosen.append(contentsOf: repeatElement(false, count: s.slots.count - s.chosen.count)) }
        for i in chosen { s.chosen[Int(i)] = true }
        for r in s.reals.indices.reversed() {
            let i = Int(s.reals[r].slot)
            guard !s.chosen[i] else { continue }
            let slot = s.slots[i]
            if slot.whenVirtual == .stop, !slot.isPaused, !s.buses[Int(slot.bus)].isPausedInTree {
                end(&s, i, .culled)
            } else {
                makeVirtual(&s, i, fade: true)
            }
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
            let slot = s.slots[Int(s.reals[r].slot)]
            let margin = 2 * outputFrames * slot.step * Double(slot.pitch)
            if s.reals[r].feed.isExhausted, slot.playhead < slot.length - margin { continue }
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
