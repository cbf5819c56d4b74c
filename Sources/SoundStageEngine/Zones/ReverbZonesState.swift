import Foundation
import SoundStageCore
import SoundStageSession

/// The engine's reverb zones and the slots their reverbs play in (kept in the voice pool's
/// state, since every source's sends to them are set there).
///
/// Each zone heard gets a slot of its own, loaded with its reverb once, and is faded in and
/// out by the slot's gain alone: OpenAL Soft's reverb cannot change its settings every tick
/// without breaking up, so zones are crossfaded, never blended setting by setting.
struct ReverbZonesState {
    /// A zone the game added.
    struct Entry {
        var zone: ReverbZone
        /// The listener's weight in it at the last tick (0 once it is leaving).
        var weight: Float = 0
        /// Removed by the game: it fades out, then goes.
        var isLeaving = false
    }

    /// A slot the zones take turns in: one zone's reverb and how loud it returns.
    struct Lane {
        var slot: EffectSlot?
        /// The zone it plays, nil when free.
        var zone: String?
        /// Fading out to make room (its zone was given a new reverb, or a heavier zone waits
        /// for a lane): free once silent.
        var isReleasing = false
        var reverb: Reverb?
        /// The return in dB now (-infinity when silent) and as a gain.
        var levelDB: Float = -.infinity
        var gain: Float { levelDB.isFinite ? powf(10, levelDB / 20) : 0 }
    }

    var entries: [Entry] = []
    /// Sources' sends 1, 2 and 3 (as many as the context grants) each go to a lane.
    var lanes: [Lane] = []
    /// Seconds for a zone's return to rise from `floorDB` to full at the fastest.
    var fadeSeconds: Float = ReverbZonesState.defaultFadeSeconds

    static let defaultFadeSeconds: Float = 2
    /// A zone's return starts here and ends below it (it is then cut to silence).
    static let floorDB: Float = -60
    /// The first auxiliary send the zones use (send 0 is the bus effects').
    static let firstSend = 1
    /// At most this many zones are heard at once (a send each).
    static let maxLanes = 3
    /// How much heavier a waiting zone must be than the lightest zone heard to take its lane
    /// (which fades out first), so two zones of about the same weight do not take turns.
    static let preemptMargin: Float = 0.1

    /// How many zones `context` lets be heard at once: its sends after the first, up to
    /// ``maxLanes``.
    static func laneCount(_ context: AudioContext) -> Int { min(maxLanes, max(0, context.auxiliarySends - firstSend)) }

    /// The return a zone is heard at for the listener's weight in it: the square root, so
    /// that two overlapping zones whose weights add up to 1 crossfade at equal power.
    static func targetDB(weight: Float) -> Float {
        weight <= 0 ? -.infinity : max(floorDB, 10 * log10(min(weight, 1)))
    }
}
