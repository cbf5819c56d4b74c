// Reverb zones: every tick the listener's weight in each zone is worked out; each zone
// heard takes a free lane (a slot that every source sends to through one of its sends
// after the first), and each lane's return moves toward its zone's level, never faster
// than `floorDB / fadeSeconds`, so walking or jumping in and out is always a smooth fade.
extension VoicePool {
    /// Adds `zone`, or replaces the zone of the same name.
    func setZone(_ zone: ReverbZone, context: AudioContext) throws {
        if let problem = zone.problem() { throw failure(.invalidArgument, "addReverbZone(\(zone.name))", problem) }
        guard ReverbZonesState.laneCount(context) > 0 else {
            throw failure(.invalidState, "addReverbZone(\(zone.name))",
                          "reverb zones use a source's auxiliary sends after the first and \(context) grants \(context.auxiliarySends); ask for 2 or more with ContextAttributes.auxiliarySends")
        }
        try changeEffects { s in
            if s.zones.lanes.isEmpty { try makeLanes(&s, context: context) }
            if let k = s.zones.entries.firstIndex(where: { $0.zone.name == zone.name }) {
                s.zones.entries[k].zone = zone
                s.zones.entries[k].isLeaving = false
                // A lane playing its old reverb fades out and the new one takes a lane.
                for l in s.zones.lanes.indices where s.zones.lanes[l].zone == zone.name && s.zones.lanes[l].reverb != zone.reverb {
                    s.zones.lanes[l].zone = nil
                }
            } else {
                s.zones.entries.append(.init(zone: zone))
            }
        }
    }

    /// Fades out and removes the zone named `name`; false when there is none.
    func removeZone(named name: String) -> Bool {
        state.withLockedValue { s in
            guard let k = s.zones.entries.firstIndex(where: { $0.zone.name == name && !$0.isLeaving }) else { return false }
            s.zones.entries[k].isLeaving = true
            return true
        }
    }

    /// Sets whether `bus`'s sounds send to the zones.
    func setSendsToZones(_ bus: Bus, _ on: Bool) {
        do {
            try changeEffects { $0.buses[Int(bus.index)].sendsToReverbZones = on }
        } catch {
            state.withLockedValue { $0.errors.append(error) }
        }
    }

    /// The zones the game has (not those fading out after removal), in the order added.
    var zones: [ReverbZone] { state.withLockedValue { s in s.zones.entries.filter { !$0.isLeaving }.map(\.zone) } }

    /// The listener's weight in each zone at the last tick, and the gain each zone's reverb
    /// returns at now (0 for a zone not heard), by name.
    var zoneLevels: (weights: [String: Float], returns: [String: Float]) {
        state.withLockedValue { s in
            var returns = Dictionary(s.zones.entries.map { ($0.zone.name, Float(0)) }, uniquingKeysWith: max)
            for lane in s.zones.lanes { if let zone = lane.zone { returns[zone, default: 0] += lane.gain } }
            return (Dictionary(s.zones.entries.map { ($0.zone.name, $0.weight) }, uniquingKeysWith: max), returns)
        }
    }

    /// Makes the lanes' slots on `context` (again, after a move, with what they played).
    private func makeLanes(_ s: inout VoicePoolState, context: AudioContext) throws {
        let count = ReverbZonesState.laneCount(context)
        if s.zones.lanes.count > count { s.zones.lanes.removeLast(s.zones.lanes.count - count) }
        while s.zones.lanes.count < count { s.zones.lanes.append(.init()) }
        for l in s.zones.lanes.indices {
            let slot = try EffectSlot(context: context)
            if let reverb = s.zones.lanes[l].reverb { try slot.setEffect(try AudioEffect(context: context, .reverb(reverb))) }
            try slot.setGain(s.zones.lanes[l].gain)
            s.zones.lanes[l].slot = slot
        }
    }

    /// The slot of lane `l` on `context`, the lanes made first if the engine moved; nil
    /// while no zone was ever added.
    func zoneSlot(_ s: inout VoicePoolState, lane l: Int, context: AudioContext) throws -> EffectSlot? {
        guard l < s.zones.lanes.count else { return nil }
        if let slot = s.zones.lanes[l].slot, slot.context === context { return slot }
        try makeLanes(&s, context: context)
        return s.zones.lanes[l].slot
    }

    /// One tick of the zones at `nowFrame`, for the listener as this tick read it.
    func serviceZones(_ s: inout VoicePoolState, context: AudioContext, nowFrame: Int) {
        let elapsed = Float(max(0, nowFrame - (s.zones.lastFrame ?? nowFrame))) / Float(context.frequency)
        s.zones.lastFrame = nowFrame
        guard !s.zones.lanes.isEmpty else { return }
        let position = s.listener.position
        for k in s.zones.entries.indices {
            s.zones.entries[k].weight = s.zones.entries[k].isLeaving ? 0 : s.zones.entries[k].zone.weight(at: position)
        }
        let step = s.zones.fadeSeconds > 0 ? -ReverbZonesState.floorDB * elapsed / s.zones.fadeSeconds : .infinity
        do {
            // Zones heard and not in a lane take the free lanes, the heaviest first.
            let waiting = s.zones.entries.filter { e in e.weight > 0 && !s.zones.lanes.contains { $0.zone == e.zone.name } }
            for entry in waiting.sorted(by: { $0.weight > $1.weight }) {
                guard let l = s.zones.lanes.indices.first(where: { isFree(s, lane: $0) }) else { break }
                guard let slot = try zoneSlot(&s, lane: l, context: context) else { break }
                if s.zones.lanes[l].reverb != entry.zone.reverb {
                    try slot.setEffect(try AudioEffect(context: context, .reverb(entry.zone.reverb)))
                    s.zones.lanes[l].reverb = entry.zone.reverb
                }
                s.zones.lanes[l].zone = entry.zone.name
            }
            for l in s.zones.lanes.indices {
                let lane = s.zones.lanes[l]
                let weight = lane.zone.flatMap { z in s.zones.entries.first { $0.zone.name == z } }?.weight ?? 0
                let level = Self.approach(lane.levelDB, ReverbZonesState.targetDB(weight: weight), by: step)
                guard level != lane.levelDB, let slot = try zoneSlot(&s, lane: l, context: context) else { continue }
                s.zones.lanes[l].levelDB = level
                try slot.setGain(s.zones.lanes[l].gain)
            }
        } catch {
            s.errors.append(error)
        }
        // A zone removed and no longer heard goes; a lane whose zone went is free.
        s.zones.entries.removeAll { e in e.isLeaving && !s.zones.lanes.contains { $0.zone == e.zone.name && $0.levelDB.isFinite } }
        for l in s.zones.lanes.indices where isFree(s, lane: l) { s.zones.lanes[l].zone = nil }
    }

    /// Whether lane `l` is silent and its zone (if any) is not heard.
    private func isFree(_ s: VoicePoolState, lane l: Int) -> Bool {
        let lane = s.zones.lanes[l]
        guard !lane.levelDB.isFinite else { return false }
        guard let zone = lane.zone else { return true }
        return !s.zones.entries.contains { $0.zone.name == zone && $0.weight > 0 }
    }

    /// `level` moved toward `target` by at most `step` dB; a fade in starts at the floor, a
    /// fade out ends in silence once it passes below the floor.
    static func approach(_ level: Float, _ target: Float, by step: Float) -> Float {
        if level == target { return level }
        let from = level.isFinite ? level : ReverbZonesState.floorDB
        if target > from || !level.isFinite { return target.isFinite ? min(target, from + step) : level }
        let next = max(target, from - step)
        return next.isFinite && next > ReverbZonesState.floorDB ? next : (target.isFinite ? max(next, target) : -.infinity)
    }

    /// Whether sounds on bus `b` send to the zones: it and every bus above it let them.
    func hearsZones(_ s: VoicePoolState, bus: Int32) -> Bool {
        var b = Int(bus)
        while b >= 0 {
            if !s.buses[b].sendsToReverbZones { return false }
            b = Int(s.buses[b].parent)
        }
        return true
    }
}
