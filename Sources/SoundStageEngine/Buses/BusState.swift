import SoundStageCore
import SoundStageSession

/// One bus as the pool keeps it: what the game set, and what the last refresh made of it.
struct BusState {
    let name: String
    /// The parent's index, -1 for the master bus. A parent always comes before its children.
    let parent: Int32
    var volume: Float = 1
    var isMuted = false
    var isPaused = false
    var fade: BusFade?
    /// Voices on this bus playing and not paused by the game (for ducking).
    var playingVoices = 0
    /// Players on this bus playing, counted at the last tick (for ducking).
    var playingPlayers = 0
    /// The gain its voices and players get: every volume, mute and duck from here up to
    /// the master, due a tick from the last refresh.
    var gain: Float = 1
    /// Whether it or a bus above it is paused.
    var isPausedInTree = false
    /// Whether it or a bus above it is muted (its voices are virtual and keep time).
    var isMutedInTree = false
    /// Whether it was muted at any time since the last tick (its voices kept time until the
    /// tick, though unmuted now).
    var mutedSinceTick = false
    /// The ducking applied to it at the last refresh, in dB (0 or less).
    var duckDB: Float = 0
    /// Whether its level is measured each tick.
    var isMetering = false
    /// Its level meters: the last reading.
    var meter = BusMeter()
    /// The effect its sounds send to, and how loud its return is; the slot is made on the
    /// engine's current context when first needed.
    var effect: (settings: EffectSettings, level: Float)?
    var effectSlot: EffectSlot?
    /// Whether its sounds send to the engine's reverb zones (if every bus above it lets
    /// them): yes but for music and UI sounds.
    var sendsToReverbZones = true

    init(name: String, parent: Int32) {
        self.name = name
        self.parent = parent
    }
}

/// A bus's volume moving along a curve over engine time.
struct BusFade {
    var from: Float
    var to: Float
    var startSeconds: Double
    var durationSeconds: Double
    var curve: FadeCurve

    func value(atSeconds seconds: Double) -> Float {
        curve.mix(from, to, FadeCurve.progress(at: seconds, start: startSeconds, duration: durationSeconds))
    }
}

/// A ducking rule in force, and how far it has ducked its target.
struct DuckingState {
    /// The rule's buses as indices and its numbers, not the rule itself: a rule holds its
    /// buses, which hold the pool, so keeping it here would make the pool keep itself alive.
    let trigger: Int32
    let target: Int32
    let depthDB: Float
    let attackSeconds: Double
    let releaseSeconds: Double
    /// The duck in dB (0 ... -depth) at ``seconds``.
    var levelDB: Float = 0
    var seconds: Double = 0
    /// Whether the trigger was playing at the last refresh.
    var active = false

    init(rule: DuckingRule, seconds: Double) {
        trigger = rule.trigger.index
        target = rule.target.index
        depthDB = rule.depthDB
        attackSeconds = rule.attackSeconds
        releaseSeconds = rule.releaseSeconds
        self.seconds = seconds
    }

    /// Whether this is the state of `rule`.
    func isState(of rule: DuckingRule) -> Bool {
        trigger == rule.trigger.index && target == rule.target.index && depthDB == rule.depthDB
            && attackSeconds == rule.attackSeconds && releaseSeconds == rule.releaseSeconds
    }

    /// The duck at `seconds`, moving from ``levelDB`` toward the depth (trigger playing) or
    /// 0 (silent) at the rule's attack or release rate.
    func level(at later: Double, active: Bool) -> Float {
        let dt = Float(max(0, later - seconds))
        if active {
            let rate = attackSeconds > 0 ? depthDB / Float(attackSeconds) : .infinity
            return max(-depthDB, levelDB - rate * dt)
        }
        let rate = releaseSeconds > 0 ? depthDB / Float(releaseSeconds) : .infinity
        return min(0, levelDB + rate * dt)
    }
}

/// A bus's level meter reading: the peak and RMS level in dBFS of what its voices and
/// players put out over the last tick (see ``Bus/averagePower``).
struct BusMeter {
    var average: Float = -160
    var peak: Float = -160
}
