import SoundStageCore
import SoundStageSession

/// "While dialog plays, music drops 12 dB with 100 ms attack and 500 ms release": a bus
/// whose voices or players play (the trigger) lowers another bus (the target), moving in dB
/// at a steady rate. Added with ``AudioEngine/addDucking(_:)``; the service loop drives it.
public struct DuckingRule: Sendable, Hashable {
    /// The bus whose playing lowers the target (its sub-buses count too).
    public var trigger: Bus
    /// The bus lowered.
    public var target: Bus
    /// How far the target drops, in dB (positive: 12 lowers it by 12 dB).
    public var depthDB: Float
    /// Seconds to go from 0 to the full depth once the trigger plays.
    public var attackSeconds: Double
    /// Seconds to come back from the full depth to 0 once the trigger is silent.
    public var releaseSeconds: Double

    /// A rule: `target` drops `depthDB` while `trigger` plays.
    public init(trigger: Bus, target: Bus, depthDB: Float = 12, attackSeconds: Double = 0.1, releaseSeconds: Double = 0.5) {
        self.trigger = trigger
        self.target = target
        self.depthDB = depthDB
        self.attackSeconds = attackSeconds
        self.releaseSeconds = releaseSeconds
    }
}
