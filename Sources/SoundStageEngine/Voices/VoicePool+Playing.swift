import Foundation
import SoundStageCore
import SoundStageSession

/// One play asked of the pool, checked.
struct VoiceRequest {
    var position: SIMD3<Float>?
    var volume: Float
    var pitch: Float
    var priority: UInt8
    /// Plays in all (-1 forever).
    var plays: Int
    var bus: Int32
    var options: VoiceOptions
}

extension VoicePool {
    /// Starts a voice: the sound's rules first (retrigger interval, instance limit), then a
    /// slot (stealing one when all are in use), then a source at once if the voice ranks
    /// among the real ones. Returns the voice (a refused one when the rules, the options or a
    /// full pool say no: counted, nothing stolen), and whether it set off ducking (the
    /// engine's players then take their buses' new gains).
    func play(_ held: borrowing LockHeld, _ sound: Sound, _ request: VoiceRequest, context: AudioContext,
              nowFrame: Int, nowSeconds: Double) throws -> (voice: Voice, ducking: Bool) {
        try state.withLockedValue(held) { s in
            if !s.isConfigured { try configureByDefault(&s, context: context) }
            let entry = register(&s, sound)
            let rules = s.sounds[entry].rules
            func refuse(_ why: VoiceRefusal) -> (voice: Voice, ducking: Bool) {
                s.refused += 1
                return (Voice(pool: self, refused: why, soundEntry: entry), false)
            }
            // A nanosecond's slack: engine times are sums of frames, and 0.06 - 0.03 falls
            // short of 0.03 in floating point (plays 30 ms apart were refused one in ten).
            if let last = s.sounds[entry].lastStart, nowSeconds - last < rules.minimumInterval - 1e-9 { return refuse(.tooSoon) }
            var slot = VoiceSlot()
            let variation = request.options.variation ?? rules.variation
            slot.volume = Voice.volumeRange.clamping(request.volume * s.generator.value(in: variation.volume))
            slot.pitch = Voice.pitchRange.clamping(request.pitch * s.generator.value(in: variation.pitch))
            slot.priority = request.priority
            slot.isPinned = request.options.isPinned
            slot.whenVirtual = request.options.whenVirtual
            slot.positioned = request.position != nil
            slot.relative = request.options.isRelative
            slot.position = request.position ?? .zero
            slot.distance = VoiceDistance(reference: request.options.referenceDistance, maximum: request.options.maxDistance,
                                          rolloff: request.options.rolloffFactor)
            var details = VoiceDetails()
            details.cone = request.options.cone
            slot.hasCone = details.cone != nil
            details.sound = Int32(entry)
            slot.bus = request.bus
            details.rateRatio = MixerStepping.rateRatio(soundRate: sound.sampleRate, outputRate: context.frequency)
            let increment = s.stepping.increment(ratio: details.rateRatio, pitch: slot.pitch)
            let length = Self.length(plays: request.plays, frames: sound.frameCount, stepping: s.stepping)
            details.startFrame = nowFrame
            let audibility = Audibility.of(slot, cone: details.cone, busGain: s.tree.buses[Int(slot.bus)].gain, listener: s.listener)
            slot.rank = Audibility.rank(priority: slot.priority, audibility: audibility, pinned: slot.isPinned)

            let audible = slot.isPinned || slot.audibility >= s.configuration.audibilityFloor
            let weakest = weakestReal(&s)
            let busMuted = s.tree.buses[Int(slot.bus)].isMutedInTree
            let waits = s.interrupted || s.tree.buses[Int(slot.bus)].isPausedInTree
            let becomesReal = audible && !waits && !busMuted
                && (s.reals.count < voiceCapacity(s) || weakest.map { $0.rank < slot.rank } ?? false)
            if !becomesReal, slot.whenVirtual == .stop, !busMuted, !waits { return refuse(.wouldStartVirtual) }
            // Whom the play would steal, found before anyone is stolen: a refused play
            // takes nothing.
            var victims: [Int] = []
            if let limit = rules.maxInstances, s.sounds[entry].voices.count >= limit {
                guard let victim = roomVictim(s, entry: entry, policy: rules.whenFull, for: slot) else { return refuse(.instanceLimit) }
                victims.append(victim)
            }
            if s.live - victims.count >= s.configuration.maxVoices {
                guard let victim = weakestVoice(s, except: victims), rankNow(s, victim) < slot.rank else { return refuse(.poolFull) }
                victims.append(victim)
            }
            for victim in victims { end(&s, victim, .stolen) }

            let i = takeSlot(&s)
            slot.generation = s.slots.generation[i]
            details.previousEnd = s.slots.details[i].previousEnd
            slot.flags.insert(.live)
            slot.flags.remove(.needsRank)
            s.slots.setRow(i, slot)
            // Playheads are as of the last tick: this voice starts that long after it.
            s.slots.setTiming(i, playhead: -Int64(nowFrame - s.clockFrame) &* increment, increment: increment, length: length,
                              at: s.clockFrame)
            s.slots.details[i] = details
            if s.sounds[entry].playing !== sound { s.sounds[entry].playing = sound }
            s.slots.details[i].soundPosition = Int32(s.sounds[entry].voices.count)
            s.sounds[entry].voices.append(Int32(i))
            s.sounds[entry].lastStart = nowSeconds
            s.tree.buses[Int(slot.bus)].playingVoices += 1
            s.live += 1
            if becomesReal {
                if s.reals.count >= voiceCapacity(s), let weakest = weakestReal(&s) {
                    let w = Int(s.reals[weakest.real].slot)
                    if s.slots.whenVirtual(w) == .stop { end(&s, w, .culled) } else { makeVirtual(&s, w, fade: true) }
                }
                makeReal(&s, held, i, in: context)
            }
            let ducking = s.tree.ducking.contains { isUnder(s, Int(slot.bus), Int($0.trigger)) }
            if ducking { refreshBuses(&s, held, nowSeconds: nowSeconds) }
            return (Voice(pool: self, index: UInt32(i), generation: slot.generation), ducking)
        }
    }

    /// The real voice ranked lowest (pinned ones are never displaced).
    func weakestReal(_ s: inout VoicePoolState) -> (real: Int, rank: UInt64)? {
        if let found = s.weakestRealFound { return found }
        var best: (real: Int, rank: UInt64)?
        for r in s.reals.indices {
            let i = Int(s.reals[r].slot)
            if s.slots[.pinned, i] { continue }
            if best == nil || s.slots.rank[i] < best!.rank { best = (r, s.slots.rank[i]) }
        }
        s.weakestRealFound = .some(best)
        return best
    }

    /// The live, unpinned voice ranked lowest (the first stolen), other than `excluded`.
    private func weakestVoice(_ s: VoicePoolState, except excluded: [Int]) -> Int? {
        var best: Int?
        var least = UInt64.max
        for i in s.slots.indices where s.slots.isLive(i) && !s.slots[.pinned, i] && !excluded.contains(i) {
            let rank = rankNow(s, i)
            if best == nil || rank < least { (best, least) = (i, rank) }
        }
        return best
    }

    /// Voice `i`'s rank: as the last tick worked it out, or worked out now for a voice the
    /// tick left unknown (it could not reach a source then).
    func rankNow(_ s: VoicePoolState, _ i: Int) -> UInt64 {
        guard s.slots[.rankUnknown, i] else { return s.slots.rank[i] }
        let slot = s.slots.row(i), bus = s.tree.buses[Int(slot.bus)]
        let audibility = bus.isMutedInTree ? 0 : Audibility.of(slot, cone: s.slots.details[i].cone, busGain: bus.gain, listener: s.listener)
        return Audibility.rank(priority: slot.priority, audibility: audibility, pinned: slot.isPinned)
    }

    /// The instance of a sound at its limit that makes room for `newcomer`; nil refuses the
    /// play: a pinned voice, or one of higher priority than the newcomer, is never taken.
    private func roomVictim(_ s: VoicePoolState, entry: Int, policy: InstancePolicy, for newcomer: VoiceSlot) -> Int? {
        let voices = s.sounds[entry].voices.map(Int.init).filter { !s.slots[.pinned, $0] && s.slots.priority[$0] <= newcomer.priority }
        switch policy {
        case .refuse: return nil
        case .stealOldest: return voices.min { s.slots.details[$0].startFrame < s.slots.details[$1].startFrame }
        case .stealQuietest: return voices.min { rankNow(s, $0) < rankNow(s, $1) }
        }
    }

    /// The sound's entry, made on its first play (or rules).
    func register(_ s: inout VoicePoolState, _ sound: Sound) -> Int {
        // A sound played again while its voices play (a drum, footsteps): its entry holds
        // it, so no lookup.
        if let last = s.lastSound, s.sounds[last].playing === sound { return last }
        let key = ObjectIdentifier(sound)
        let entry: Int
        if let i = s.soundIndex[key] {
            entry = Int(i)
            // A new sound where one that is gone was (it had no voices left): its place.
            if s.sounds[entry].sound !== sound { s.sounds[entry] = SoundEntry(sound: sound, label: sound.label) }
        } else {
            s.sounds.append(SoundEntry(sound: sound, label: sound.label))
            entry = s.sounds.count - 1
            s.soundIndex[key] = Int32(entry)
        }
        s.lastSound = entry
        return entry
    }

    /// Sets the pool's size from `configuration` and what `context` grants.
    func configure(_ s: inout VoicePoolState, _ configuration: VoiceConfiguration, context: AudioContext) throws {
        let member = "configureVoices(_:)"
        guard VoiceConfiguration.maxVoicesRange.contains(configuration.maxVoices) else {
            throw failure(.invalidArgument, member, "maxVoices must be in \(VoiceConfiguration.maxVoicesRange), got \(configuration.maxVoices)")
        }
        guard configuration.audibilityFloor.isFinite, (0...1).contains(configuration.audibilityFloor) else {
            throw failure(.invalidArgument, member, "the audibility floor must be in 0...1, got \(configuration.audibilityFloor)")
        }
        let granted = context.sourceLimit
        if let asked = configuration.realVoices, !(0...granted).contains(asked) {
            throw failure(.invalidArgument, member, "realVoices must be in 0...\(granted) (the context's sources), got \(asked)")
        }
        if configuration.realVoices == nil, !(0..<granted).contains(configuration.reservedSources) {
            throw failure(.invalidArgument, member, "reservedSources must be in 0..<\(granted), got \(configuration.reservedSources)")
        }
        s.configuration = configuration
        s.stepping = context.mixerStepping
        resize(&s, context: context)
        s.generator = SeededGenerator(seed: configuration.seed)
        s.isConfigured = true
    }

    /// Configures a pool the game never configured, at its first use: the default
    /// configuration, its reserve cut to a quarter of the context's sources when the context
    /// has fewer than four times as many (a context of 8 sources cannot keep 32 free, and
    /// every voice and player was refused with an error about a call the game never made).
    func configureByDefault(_ s: inout VoicePoolState, context: AudioContext) throws {
        var configuration = s.configuration
        if configuration.realVoices == nil {
            configuration.reservedSources = min(configuration.reservedSources, context.sourceLimit / 4)
        }
        try configure(&s, configuration, context: context)
    }

    /// Works out the pool's sizes from its configuration and what `context` grants (on
    /// configuring, and on moving to a device that may grant another number), and lets go of
    /// spare sources beyond them.
    ///
    /// By default the pool keeps ``VoiceConfiguration/reservedSources`` free and uses the rest:
    /// 7/8 of it for real voices, 1/8 for voices fading out. Asked for a number of real
    /// voices, it adds a quarter of that for fading (within what the context grants).
    func resize(_ s: inout VoicePoolState, context: AudioContext) {
        let granted = context.sourceLimit
        if let asked = s.configuration.realVoices {
            s.realLimit = min(asked, granted)
            s.sources.limit = min(granted, s.realLimit + max(1, s.realLimit / 4))
        } else {
            let usable = max(0, granted - s.configuration.reservedSources)
            s.realLimit = usable * 7 / 8
            s.sources.limit = usable
        }
        trimSpares(&s)
    }

    /// The length of `plays` plays (-1: forever) of a sound of `frames` frames, in the
    /// mixer's fixed point (`Int64.max` for forever, or for more than it holds).
    static func length(plays: Int, frames: Int, stepping: MixerStepping) -> Int64 {
        guard plays >= 0 else { return .max }
        let (total, overflow) = Int64(plays).multipliedReportingOverflow(by: Int64(frames))
        guard !overflow, total < Int64.max >> Int64(stepping.fractionBits) else { return .max }
        return total << Int64(stepping.fractionBits)
    }
}
