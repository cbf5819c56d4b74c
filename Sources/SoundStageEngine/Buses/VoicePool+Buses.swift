import Foundation
import SoundStageCore
import SoundStageSession

// The bus tree as the pool keeps it: volumes, mutes, pauses, fades and ducking, made into
// one gain per bus by a refresh (each tick, and whenever the game changes a bus).
extension VoicePool {
    func readBus<R>(_ bus: Bus, _ body: (BusState) -> R) -> R {
        state.withLockedValue { body($0.tree.buses[Int(bus.index)]) }
    }

    /// Changes a bus and refreshes the tree at once, so its voices and players hear it now.
    func changeBus(_ bus: Bus, _ body: (inout BusState) -> Void) {
        OpenAL.lock.withLock { held in
            let now = engineSeconds()
            let engine = state.withLockedValue(held) { s in
                body(&s.tree.buses[Int(bus.index)])
                refreshBuses(&s, held, nowSeconds: now)
                return s.engine
            }
            engine?.busesChanged(held)
        }
    }

    /// Every bus's gain and whether it is paused, as the last refresh left them.
    func busGains(_ held: borrowing LockHeld) -> (gain: [Float], paused: [Bool]) {
        state.withLockedValue(held) { s in (s.tree.buses.map(\.gain), s.tree.buses.map(\.isPausedInTree)) }
    }

    /// The gain of bus `index` now.
    func gain(_ held: borrowing LockHeld, ofBus index: Int32) -> Float {
        state.withLockedValue(held) { s in s.tree.buses.indices.contains(Int(index)) ? s.tree.buses[Int(index)].gain : 1 }
    }

    /// The tick's refresh: counts the engine's `players` playing on each bus (for ducking),
    /// then refreshes the tree.
    func refreshBuses(_ held: borrowing LockHeld, nowSeconds now: Double, players: [(bus: Int32, playing: Bool)]) -> (gain: [Float], paused: [Bool]) {
        state.withLockedValue(held) { s in
            for b in s.tree.buses.indices { s.tree.buses[b].playingPlayers = 0 }
            for player in players where player.playing && s.tree.buses.indices.contains(Int(player.bus)) {
                s.tree.buses[Int(player.bus)].playingPlayers += 1
            }
            refreshBuses(&s, held, nowSeconds: now)
            return (s.tree.buses.map(\.gain), s.tree.buses.map(\.isPausedInTree))
        }
    }

    func startFade(_ bus: Bus, to target: Float, duration: Double, curve: FadeCurve) {
        changeBus(bus) { [now = engineSeconds()] b in
            b.fade = BusFade(from: b.volume, to: target, startSeconds: now, durationSeconds: duration, curve: curve)
        }
    }

    /// Makes a bus under `parent`.
    func makeBus(named name: String, parent: Bus) throws -> Bus {
        try state.withLockedValue { s in
            guard !name.isEmpty, !s.tree.buses.contains(where: { $0.name == name }) else {
                throw failure(.invalidArgument, "makeBus(named: \(name))", "a bus needs a name no other bus of the engine has")
            }
            guard s.tree.buses.count < Int(Int32.max) else { throw failure(.invalidArgument, "makeBus(named:)", "too many buses") }
            var bus = BusState(name: name, parent: parent.index)
            bus.gain = s.tree.buses[Int(parent.index)].gain
            bus.isPausedInTree = s.tree.buses[Int(parent.index)].isPausedInTree
            s.tree.buses.append(bus)
            return Bus(pool: self, index: Int32(s.tree.buses.count - 1))
        }
    }

    func bus(named name: String) -> Bus? {
        state.withLockedValue { s in s.tree.buses.firstIndex { $0.name == name }.map { Bus(pool: self, index: Int32($0)) } }
    }

    var allBuses: [Bus] { state.withLockedValue { s in s.tree.buses.indices.map { Bus(pool: self, index: Int32($0)) } } }

    func addDucking(_ rule: DuckingRule) throws {
        guard rule.trigger.pool === self, rule.target.pool === self else {
            throw failure(.invalidArgument, "addDucking(_:)", "both buses must belong to this engine")
        }
        guard rule.trigger != rule.target, rule.depthDB.isFinite, rule.depthDB >= 0, rule.depthDB <= 160,
              rule.attackSeconds.isFinite, rule.attackSeconds >= 0, rule.releaseSeconds.isFinite, rule.releaseSeconds >= 0 else {
            throw failure(.invalidArgument, "addDucking(_:)",
                          "a rule needs two different buses, a depth in 0...160 dB and finite, non-negative attack and release times")
        }
        OpenAL.lock.withLock { held in
            let now = engineSeconds()
            state.withLockedValue(held) { s in
                s.tree.ducking.append(DuckingState(rule: rule, seconds: now))
                refreshBuses(&s, held, nowSeconds: now)
            }
        }
    }

    func removeDucking(_ rule: DuckingRule) {
        OpenAL.lock.withLock { held in
            let now = engineSeconds()
            state.withLockedValue(held) { s in
                s.tree.ducking.removeAll { $0.isState(of: rule) }
                refreshBuses(&s, held, nowSeconds: now)
            }
        }
    }

    /// Whether `bus` is `ancestor` or lies under it.
    func isUnder(_ s: VoicePoolState, _ bus: Int, _ ancestor: Int) -> Bool {
        var b = bus
        while b >= 0 {
            if b == ancestor { return true }
            b = Int(s.tree.buses[b].parent)
        }
        return false
    }

    /// Works out every bus's gain and pause from the game's settings, fades and ducking,
    /// for the coming tick as it will be heard (``AudioEngine/curveLeadSeconds``: so what is
    /// heard follows the curves instead of lagging them), and writes the new gains to the
    /// real voices.
    func refreshBuses(_ s: inout VoicePoolState, _ held: borrowing LockHeld, nowSeconds now: Double) {
        let ahead = now + curveLeadSeconds
        let before = s.tree.buses.map { ($0.gain, $0.isPausedInTree, $0.isMutedInTree) }
        // Pauses and mutes first: whether a trigger plays depends on them.
        for b in s.tree.buses.indices {
            let parent = Int(s.tree.buses[b].parent)
            s.tree.buses[b].isPausedInTree = s.tree.buses[b].isPaused || (parent >= 0 && s.tree.buses[parent].isPausedInTree)
            s.tree.buses[b].isMutedInTree = s.tree.buses[b].isMuted || (parent >= 0 && s.tree.buses[parent].isMutedInTree)
            if s.tree.buses[b].isMutedInTree { s.tree.buses[b].mutedSinceTick = true }
        }
        var duckDB = [Float](repeating: 0, count: s.tree.buses.count)
        for k in s.tree.ducking.indices {
            let d = s.tree.ducking[k]
            var active = false
            for b in s.tree.buses.indices where s.tree.buses[b].playingVoices + s.tree.buses[b].playingPlayers > 0 && !s.tree.buses[b].isPausedInTree {
                if isUnder(s, b, Int(d.trigger)) { active = true; break }
            }
            // Up to now under what held since the last refresh; ahead under what holds now.
            s.tree.ducking[k].levelDB = d.level(at: now, active: d.active)
            s.tree.ducking[k].seconds = now
            s.tree.ducking[k].active = active
            duckDB[Int(d.target)] += s.tree.ducking[k].level(at: ahead, active: active)
        }
        for b in s.tree.buses.indices {
            if let fade = s.tree.buses[b].fade {
                s.tree.buses[b].volume = fade.value(atSeconds: ahead)
                if ahead >= fade.startSeconds + fade.durationSeconds { s.tree.buses[b].fade = nil }
            }
            let parent = Int(s.tree.buses[b].parent)
            let parentGain: Float = parent >= 0 ? s.tree.buses[parent].gain : 1
            let own = s.tree.buses[b].isMuted ? 0 : s.tree.buses[b].volume
            s.tree.buses[b].duckDB = duckDB[b]
            s.tree.buses[b].gain = parentGain * own * powf(10, duckDB[b] / 20)
        }
        let changed = zip(before, s.tree.buses).contains { $0.0 != $1.gain || $0.1 != $1.isPausedInTree || $0.2 != $1.isMutedInTree }
        if changed { s.rankInputsChanged = true }
        // A paused bus (or an interruption) silences its real voices at once, as it pauses
        // its players: they give their sources up and wait.
        for r in s.reals.indices.reversed() {
            let i = Int(s.reals[r].slot)
            if s.interrupted || s.tree.buses[Int(s.slots.bus[i])].isPausedInTree { makeVirtual(&s, i, fade: true) }
        }
        if changed { for r in s.reals.indices { writeGain(&s, held, r) } }
    }
}
