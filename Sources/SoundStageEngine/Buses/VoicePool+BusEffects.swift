import SoundStageCore
import SoundStageSession

// Effects on buses: a bus's effect runs in one slot that every sound on the bus (or a bus
// under it without an effect of its own) sends to, through the source's first auxiliary send.
// What a source hears of effects is set in one place, for voices and players alike.
extension VoicePool {
    /// Sets or clears `bus`'s effect and refreshes the sends of its real voices and (through
    /// the engine) its players.
    func setEffect(_ bus: Bus, _ settings: EffectSettings?, level: Float, context: AudioContext) throws {
        try changeEffects { s in
            let b = Int(bus.index)
            if let settings {
                let slot = try EffectSlot(context: context)
                try slot.setEffect(try AudioEffect(context: context, settings))
                try slot.setGain(level)
                s.tree.buses[b].effect = (settings, level)
                s.tree.buses[b].effectSlot = slot
            } else {
                s.tree.buses[b].effect = nil
                s.tree.buses[b].effectSlot = nil
            }
        }
    }

    /// Changes what sounds hear of effects (a bus's effect, the zones, which buses send to
    /// them), then sets every real voice's filter and sends again and (through the engine)
    /// every player's. Sends that did not change are not written again.
    func changeEffects(_ body: (inout VoicePoolState) throws -> Void) throws {
        try OpenAL.lock.withLock { held in
            let engine = try state.withLockedValue(held) { s -> AudioEngine? in
                try body(&s)
                for r in s.reals.indices { writeSettings(&s, held, Int(s.reals[r].slot), .effects) }
                return s.engine
            }
            engine?.busesChanged(held)
        }
    }

    /// The slot a sound on `bus` sends to: its bus's effect, or the nearest above it; made on
    /// `context` if the engine moved since.
    private func effectSlot(_ s: inout VoicePoolState, bus: Int32, context: AudioContext) throws -> EffectSlot? {
        var b = Int(bus)
        while b >= 0, s.tree.buses[b].effect == nil { b = Int(s.tree.buses[b].parent) }
        guard b >= 0, let (settings, level) = s.tree.buses[b].effect else { return nil }
        if let slot = s.tree.buses[b].effectSlot, slot.context === context { return slot }
        let slot = try EffectSlot(context: context)
        try slot.setEffect(try AudioEffect(context: context, settings))
        try slot.setGain(level)
        s.tree.buses[b].effectSlot = slot
        return slot
    }

    /// What a source with `settings` hears of walls and effects: the occlusion filter on its
    /// direct path, its first send to its bus's effect and the next ones to the reverb zones,
    /// what it sends muffled by occlusion and scaled by its send level.
    func sends(_ s: inout VoicePoolState, for settings: SourceSettings, in context: AudioContext) throws -> SourceSends {
        var sends = SourceSends(directFilter: try filter(&s, Occlusion.directFilter(occlusion: settings.occlusion, obstruction: settings.obstruction), in: context))
        guard context.auxiliarySends > 0 else { return sends }
        let sendFilter = Occlusion.sendFilter(occlusion: settings.occlusion, level: settings.sendLevel)
        let slot = try effectSlot(&s, bus: settings.bus, context: context)
        sends.sends.append((0, slot, slot == nil ? nil : try filter(&s, sendFilter, in: context)))
        // The reverb zones' lanes, on the sends after it.
        let hears = hearsZones(s, bus: settings.bus)
        for l in 0..<ReverbZonesState.laneCount(context) {
            let lane = hears ? try zoneSlot(&s, lane: l, context: context) : nil
            sends.sends.append((ReverbZonesState.firstSend + l, lane, lane == nil ? nil : try filter(&s, sendFilter, in: context)))
        }
        return sends
    }
}
