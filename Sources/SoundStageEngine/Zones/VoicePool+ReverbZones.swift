import SoundStageCore
import SoundStageSession

// Reverb zones: every tick the listener's weight in each zone is worked out; each zone
// heard takes a free lane (a slot that every source sends to through one of its sends
// after the first), and each lane's return moves toward its zone's level, never faster
// than `floorDB / fadeSeconds`, so walking or jumping in and out is always a smooth fade.
// A lane changes zone only once silent: a zone given a new reverb, or one lighter than a
// zone waiting, fades out first.
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
                    s.zones.lanes[l].isReleasing = true
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
            try changeEffects { $0.tree.buses[Int(bus.index)].sendsToReverbZones = on }
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
    /// All or nothing: when a slot cannot be made, the lanes are left as they were.
    private func makeLanes(_ s: inout VoicePoolState, context: AudioContext) throws {
        var lanes = Array(s.zones.lanes.prefix(ReverbZonesState.laneCount(context)))
        while lanes.count < ReverbZonesState.laneCount(context) { lanes.append(.init()) }
        for l in lanes.indices {
            let slot = try EffectSlot(context: context)
            if let reverb = lanes[l].reverb { try slot.setEffect(try AudioEffect(context: context, .reverb(reverb))) }
            try slot.setGain(lanes[l].gain)
            lanes[l].slot = slot
        }
        s.zones.lanes = lanes
    }

    /// The slot of lane `l` on `context`, the lanes made first if the engine moved; nil
    /// while no zone was ever added.
    func zoneSlot(_ s: inout VoicePoolState, lane l: Int, context: AudioContext) throws -> EffectSlot? {
        guard l < s.zones.lanes.count || (l < ReverbZonesState.laneCount(context) && !s.zones.lanes.isEmpty) else { return nil }
        if l < s.zones.lanes.count, let slot = s.zones.lanes[l].slot, slot.context === context { return slot }
        try makeLanes(&s, context: context)
        return l < s.zones.lanes.count ? s.zones.lanes[l].slot : nil
    }

    /// One tick of the zones, `elapsedSeconds` after the last, for the listener as this
    /// tick read it.
    func serviceZones(_ s: inout VoicePoolState, context: AudioContext, elapsedSeconds elapsed: Float) {
        guard !s.zones.lanes.isEmpty else { return }
        let position = s.listener.position
        for k in s.zones.entries.indices {
            s.zones.entries[k].weight = s.zones.entries[k].isLeaving ? 0 : s.zones.entries[k].zone.weight(at: position)
        }
        let step = s.zones.fadeSeconds > 0 ? -ReverbZonesState.floorDB * elapsed / s.zones.fadeSeconds : .infinity
        do {
            // Zones heard and not in a lane take the free lanes, the heaviest first.
            let waiting = s.zones.entries.filter { e in e.weight > 0 && !s.zones.lanes.contains { $0.zone == e.zone.name && !$0.isReleasing } }
                .sorted { $0.weight > $1.weight }
            for entry in waiting {
                guard let l = s.zones.lanes.indices.first(where: { isFree(s, lane: $0) }) else { break }
                guard let slot = try zoneSlot(&s, lane: l, context: context) else { break }
                if s.zones.lanes[l].reverb != entry.zone.reverb {
                    try slot.setEffect(try AudioEffect(context: context, .reverb(entry.zone.reverb)))
                    s.zones.lanes[l].reverb = entry.zone.reverb
                }
                s.zones.lanes[l].zone = entry.zone.name
                s.zones.lanes[l].isReleasing = false
            }
            preempt(&s)
            for l in s.zones.lanes.indices {
                let lane = s.zones.lanes[l]
                let weight = lane.isReleasing ? 0 : weightOfZone(s, lane.zone)
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
        for l in s.zones.lanes.indices where isFree(s, lane: l) {
            s.zones.lanes[l].zone = nil
            s.zones.lanes[l].isReleasing = false
        }
    }

    /// The listener's weight in the zone named `name` (0 for none).
    private func weightOfZone(_ s: VoicePoolState, _ name: String?) -> Float {
        guard let name else { return 0 }
        return s.zones.entries.first { $0.zone.name == name }?.weight ?? 0
    }

    /// When a zone waits with every lane taken, the lane of the lightest zone heard fades out
    /// to make room, if the one waiting is clearly heavier (and no lane is making room yet).
    private func preempt(_ s: inout VoicePoolState) {
        guard !s.zones.lanes.contains(where: \.isReleasing) else { return }
        let heard = Set(s.zones.lanes.compactMap(\.zone))
        guard let heaviest = s.zones.entries.filter({ $0.weight > 0 && !heard.contains($0.zone.name) }).map(\.weight).max(),
              let lightest = s.zones.lanes.indices.filter({ s.zones.lanes[$0].zone != nil }).min(by: { weightOfZone(s, s.zones.lanes[$0].zone) < weightOfZone(s, s.zones.lanes[$1].zone) }),
              heaviest > weightOfZone(s, s.zones.lanes[lightest].zone) + ReverbZonesState.preemptMargin else { return }
        s.zones.lanes[lightest].isReleasing = true
    }

    /// Whether lane `l` is silent and making room, or its zone (if any) is not heard.
    private func isFree(_ s: VoicePoolState, lane l: Int) -> Bool {
        let lane = s.zones.lanes[l]
        guard !lane.levelDB.isFinite else { return false }
        return lane.isReleasing || weightOfZone(s, lane.zone) <= 0
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
            if !s.tree.buses[b].sendsToReverbZones { return false }
            b = Int(s.tree.buses[b].parent)
        }
        return true
    }
}
