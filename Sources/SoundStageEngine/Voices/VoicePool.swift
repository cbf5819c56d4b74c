import Foundation
import SoundStageCore
import SoundStageSession

/// Everything the voice pool keeps, in one locked box, as parts of one concern each: the voice
/// table (``VoiceTable``, a structure of arrays for the tick), the real voices and the sources
/// (``SourcePool``), the sounds with their rules, the bus tree (``BusTree``) and the reverb
/// zones' lanes (``ReverbZonesState``).
struct VoicePoolState {
    var configuration = VoiceConfiguration()
    /// Whether the sizes below were worked out (at the first play, or when configured).
    var isConfigured = false
    /// Real voices at most, from the configuration and the context.
    var realLimit = 0
    /// The voices, a structure of arrays.
    var slots = VoiceTable()
    /// Free slots, oldest first (a slot is reused as late as possible, so old handles can
    /// still say why their voice ended).
    var freeSlots: [Int32] = []
    var freeHead = 0
    var live = 0
    var reals: [RealVoice] = [] {
        didSet { weakestRealFound = nil }
    }
    /// What ``VoicePool/weakestReal(_:)`` last found (`.some(nil)`: no real voice may be
    /// displaced); nil once a voice became real or virtual, or the tick ranked them again. A
    /// crowded pool's plays mostly lose to the weakest real voice, and change nothing.
    var weakestRealFound: (real: Int, rank: UInt64)??
    /// The sources held: spare, leaving, lent, and the filters they share.
    var sources = SourcePool()
    /// The reverb zones and their slot.
    var zones = ReverbZonesState()
    var sounds: [SoundEntry] = []
    var soundIndex: [ObjectIdentifier: Int32] = [:]
    /// The entry of the sound played last (see ``VoicePool/register(_:_:)``).
    var lastSound: Int?
    /// The buses and the ducking rules between them.
    var tree = BusTree()
    var generator = SeededGenerator(seed: 0)
    /// The engine frame the playheads are as of (the last tick's).
    var clockFrame = 0
    /// How the context's mixer steps sources, which the playheads follow.
    var stepping = MixerStepping(.oldest)
    var listener = ListenerSnapshot()
    var stolen = 0
    var refused = 0
    /// Set when something every voice's audibility depends on changed (the listener, a bus's
    /// gain, pause or mute): the next tick works every audibility out again, not only those
    /// of the voices that changed.
    var rankInputsChanged = true
    /// Set during an interruption: every voice waits, as under a paused bus.
    var interrupted = false
    /// Errors met where no caller can catch them, for the engine to post at its tick.
    var errors: [any Error] = []
    /// Scratch for the tick: which slots were chosen to be real.
    var chosen: [Bool] = []
    /// The engine, for its clock.
    weak var engine: AudioEngine?
}

/// The engine's voices: a table of virtual voices that keep time, a few of which, the most
/// important and audible, are real at any moment; and the bus tree they play through.
///
/// Every member runs under ``OpenAL/lock``; real voices call OpenAL.
@usableFromInline
final class VoicePool: Sendable {
    let state = LockedState(VoicePoolState())
    let isOffline: Bool
    /// The engine's service tick in seconds.
    let tickSeconds: Double
    /// How far ahead of a tick the bus curves (fades, ducking) are read (the engine's).
    let curveLeadSeconds: Double
    /// Names the engine in errors.
    let engineName: String

    init(isOffline: Bool, tickSeconds: Double, curveLeadSeconds: Double, engineName: String) {
        self.isOffline = isOffline
        self.tickSeconds = tickSeconds
        self.curveLeadSeconds = curveLeadSeconds
        self.engineName = engineName
        state.withLockedValue { s in
            for (name, parent) in Bus.standard {
                var bus = BusState(name: name, parent: parent)
                bus.sendsToReverbZones = !Bus.outsideZones.contains(name)
                s.tree.buses.append(bus)
            }
        }
    }

    /// The engine's clock in seconds (0 once it is gone).
    func engineSeconds() -> Double {
        state.withLockedValue { $0.engine }?.currentTime ?? 0
    }

    /// The engine's mixer frame (``AudioEngine/mixerFrame(_:)``; nil once the engine is
    /// gone). Read before the pool's state is locked: the engine's clock has a lock of its own.
    func engineFrame(_ held: borrowing LockHeld) -> Int? {
        state.withLockedValue(held) { $0.engine }?.mixerFrame(held)
    }

    // MARK: - Slots

    /// The slot of a live voice, nil for an ended one.
    func liveSlot(_ s: VoicePoolState, _ voice: Voice) -> Int? {
        let i = Int(voice.index)
        guard i < s.slots.count, s.slots.generation[i] == voice.generation, s.slots.isLive(i) else { return nil }
        return i
    }

    /// Takes a free slot (the oldest freed), or a new one.
    func takeSlot(_ s: inout VoicePoolState) -> Int {
        if s.freeHead < s.freeSlots.count {
            let i = Int(s.freeSlots[s.freeHead])
            s.freeHead += 1
            if s.freeHead > 1_024, s.freeHead * 2 > s.freeSlots.count {
                s.freeSlots.removeFirst(s.freeHead)
                s.freeHead = 0
            }
            return i
        }
        s.slots.appendFree()
        return s.slots.count - 1
    }

    /// Ends the voice in slot `i`: its source (if real) is silenced and let go, its sound and
    /// bus forget it, and the slot is freed for another voice.
    func end(_ s: inout VoicePoolState, _ i: Int, _ why: VoiceEnd, fade: Bool = true) {
        if s.slots.real[i] >= 0 { makeVirtual(&s, i, fade: fade) }
        let sound = Int(s.slots.details[i].sound)
        let k = Int(s.slots.details[i].soundPosition), last = s.sounds[sound].voices.count - 1
        if k >= 0, k <= last {
            let moved = s.sounds[sound].voices[last]
            s.sounds[sound].voices[k] = moved
            s.slots.details[Int(moved)].soundPosition = Int32(k)
            s.sounds[sound].voices.removeLast()
        }
        // The pool keeps a sound only while it has voices: a sound the game lets go of goes.
        if s.sounds[sound].voices.isEmpty { s.sounds[sound].playing = nil }
        if !s.slots[.paused, i] { s.tree.buses[Int(s.slots.bus[i])].playingVoices -= 1 }
        if why == .stolen { s.stolen += 1 }
        s.slots[.live, i] = false
        s.slots.generation[i] &+= 1
        s.slots.details[i].previousEnd = why
        s.slots[.paused, i] = false
        s.freeSlots.append(Int32(i))
        s.live -= 1
    }

    // MARK: - What voices and buses ask

    func status(of voice: Voice) -> VoiceStatus {
        state.withLockedValue { s in status(s, voice) }
    }

    /// A voice's status, read from the state in hand.
    func status(_ s: VoicePoolState, _ voice: Voice) -> VoiceStatus {
        let i = Int(voice.index)
        if voice.refusal != nil { return .ended(.refused) }
        guard voice.pool === self, i < s.slots.count else { return .ended(.unknown) }
        let generation = s.slots.generation[i]
        if generation == voice.generation, s.slots.isLive(i) {
            if isHeld(s, i) { return .paused }
            return s.slots.real[i] >= 0 ? .real : .virtual
        }
        return generation == voice.generation &+ 1 ? .ended(s.slots.details[i].previousEnd) : .ended(.unknown)
    }

    /// Reads from a live voice's slot; nil once it ended.
    func read<R>(_ voice: Voice, _ body: (VoiceSlot) -> R) -> R? {
        state.withLockedValue { s in liveSlot(s, voice).map { body(s.slots.row($0)) } }
    }

    /// Reads from a live voice's details; nil once it ended.
    func readDetails<R>(_ voice: Voice, _ body: (VoiceDetails) -> R) -> R? {
        state.withLockedValue { s in liveSlot(s, voice).map { body(s.slots.details[$0]) } }
    }

    /// Changes a live voice; a real one's source follows at once, in the one property the
    /// change touched (a voice moved every frame writes its position, not all it has).
    func change(_ voice: Voice, _ member: String, writing parts: SourceSettings.Parts, _ body: (inout VoiceSlot, inout VoiceDetails) -> Void) throws {
        try OpenAL.lock.withLock { held in
            let now = parts.contains(.pitch) ? engineFrame(held) : nil
            try state.withLockedValue(held) { s in
                guard let i = liveSlot(s, voice) else { throw endedError(s, voice, member) }
                let was = (advances: advances(s, i), increment: s.slots.increment[i])
                var slot = s.slots.row(i)
                body(&slot, &s.slots.details[i])
                s.slots.setRow(i, slot)
                if parts.contains(.pitch) {
                    s.slots.setIncrement(i, s.stepping.increment(ratio: s.slots.details[i].rateRatio, pitch: s.slots.pitch[i]),
                                         at: s.clockFrame)
                    keepTime(&s, i, was: was, nowFrame: now)
                }
                s.slots[.needsRank, i] = true
                writeSettings(&s, held, i, parts)
            }
        }
    }

    func stop(_ voice: Voice) -> Bool {
        OpenAL.lock.withLock { held in
            state.withLockedValue(held) { s in
                guard let i = liveSlot(s, voice) else { return false }
                end(&s, i, .stopped)
                return true
            }
        }
    }

    func setPaused(_ voice: Voice, _ paused: Bool) -> Bool {
        OpenAL.lock.withLock { held in
            let now = engineFrame(held)
            return state.withLockedValue(held) { s in
                guard let i = liveSlot(s, voice), s.slots[.paused, i] != paused else { return false }
                let was = (advances: advances(s, i), increment: s.slots.increment[i])
                s.slots[.paused, i] = paused
                keepTime(&s, i, was: was, nowFrame: now)
                s.tree.buses[Int(s.slots.bus[i])].playingVoices += paused ? -1 : 1
                // A paused voice gives its source up now; a resumed one competes at the next tick.
                if paused, s.slots.real[i] >= 0 { makeVirtual(&s, i, fade: true) }
                return true
            }
        }
    }

    func soundLabel(of voice: Voice) -> String? {
        state.withLockedValue { s in
            if let entry = voice.refusedSoundEntry { return entry < s.sounds.count ? s.sounds[entry].label : nil }
            let i = Int(voice.index)
            guard i < s.slots.count, s.slots.generation[i] == voice.generation, s.slots.details[i].sound >= 0,
                  Int(s.slots.details[i].sound) < s.sounds.count else { return nil }
            return s.sounds[Int(s.slots.details[i].sound)].label
        }
    }

    /// Whether voice `i`'s playhead moves on at the next tick: it does not wait, and it is
    /// real, keeps time while virtual, or was muted since the last tick.
    func advances(_ s: VoicePoolState, _ i: Int) -> Bool {
        let bus = s.tree.buses[Int(s.slots.bus[i])]
        guard !isHeld(s, i) else { return false }
        return s.slots.real[i] >= 0 || !s.slots[.pausesWhenVirtual, i] || bus.isMutedInTree || bus.mutedSinceTick
    }

    /// Keeps voice `i`'s playhead exact across a change between two ticks, at engine frame
    /// `nowFrame`, to whether it moves or how fast (`was`: before the change). Playheads are
    /// as of the last tick and the next tick moves them on by the whole time since, at the
    /// voice's increment then; its source took the change at `nowFrame`. So the playhead
    /// gains the time up to now at the old pace, and gives back the same time at the new.
    func keepTime(_ s: inout VoicePoolState, _ i: Int, was: (advances: Bool, increment: Int64), nowFrame: Int?) {
        guard let nowFrame else { return }
        let since = Int64(max(0, nowFrame - s.clockFrame))
        var playhead = s.slots.playhead(i, at: s.clockFrame)
        if was.advances { playhead &+= since &* was.increment }
        if advances(s, i) { playhead &-= since &* s.slots.increment[i] }
        s.slots.setPlayhead(i, playhead, at: s.clockFrame)
    }

    /// A live voice's playhead in frames of its sound; nil once it ended.
    func playheadFrames(of voice: Voice) -> Double? {
        state.withLockedValue { s in liveSlot(s, voice).map { s.stepping.frames(s.slots.playhead($0, at: s.clockFrame)) } }
    }

    /// Whether a live voice waits: paused by the game, by its bus, or by an interruption.
    func isHeld(_ s: VoicePoolState, _ i: Int) -> Bool {
        s.slots[.paused, i] || s.interrupted || s.tree.buses[Int(s.slots.bus[i])].isPausedInTree
    }

    /// Starts or ends an interruption for the voices: they wait, silenced at once, and play
    /// on from where they were when it ends.
    func setInterrupted(_ held: borrowing LockHeld, _ interrupted: Bool, nowSeconds: Double) {
        state.withLockedValue(held) { s in
            s.interrupted = interrupted
            refreshBuses(&s, held, nowSeconds: nowSeconds)
        }
    }

    /// The error of an operation on a voice that has ended, saying why it ended.
    func endedError(_ s: VoicePoolState, _ voice: Voice, _ member: String) -> SoundStageError {
        let i = Int(voice.index)
        if let refusal = voice.refusal { return failure(.voiceEnded, of: "Voice", member, "the play was refused: \(refusal)") }
        let why = i < s.slots.count && s.slots.generation[i] == voice.generation &+ 1 ? s.slots.details[i].previousEnd : .unknown
        return failure(.voiceEnded, of: "Voice", member, "voice \(voice.index).\(voice.generation) has ended (\(why))")
    }

    /// Stops every voice (the engine shuts down or goes away); once the engine is gone the
    /// sources go too, though handles may keep the pool.
    func stopAll(_ held: borrowing LockHeld, _ why: VoiceEnd) {
        state.withLockedValue(held) { s in
            for i in s.slots.indices where s.slots.isLive(i) { end(&s, i, why, fade: false) }
            releaseLeaving(&s)
            if why == .engineGone { dropSources(&s) }
        }
    }

    /// Counts of voices by state.
    var counts: VoiceCounts {
        state.withLockedValue { s in
            var paused = 0
            for i in s.slots.indices where s.slots.isLive(i) && s.slots.real[i] < 0 && isHeld(s, i) { paused += 1 }
            return VoiceCounts(playing: s.live, real: s.reals.count, virtual: s.live - s.reals.count - paused, paused: paused,
                               stolen: s.stolen, refused: s.refused, players: s.sources.lent)
        }
    }
}

extension VoicePool: ErrorNaming {
    var errorObject: String { "voice pool of \(engineName)" }
    /// The pool's own operations are the engine's (`AudioEngine.play(_:)`); those of a voice
    /// or a bus name `Voice` or `Bus` (``failure(_:of:_:_:)``).
    static var errorTypeName: String { "AudioEngine" }
}
