import Foundation
import SoundStageCore
import SoundStageSession

/// A track's tempo and meter: where its beats and bars fall, so transitions and stingers can
/// land on them. Set it on the player of the track (``Player/tempo``).
///
/// ```swift
/// calm.tempo = MusicalTempo(beatsPerMinute: 96, beatsPerBar: 4)
/// try calm.crossfade(to: battle, duration: 2, on: .nextBar)
/// try stinger.play(on: .nextBeat, of: calm)
/// ```
public struct MusicalTempo: Sendable, Hashable, Codable {
    /// Beats per minute, 1...1000.
    public var beatsPerMinute: Double
    /// Beats per bar, 1...64.
    public var beatsPerBar: Int
    /// Where the first downbeat is, in seconds into the sound (a pickup before it is not a
    /// bar). Each play of a looping sound starts its grid again from here.
    public var firstBeat: Double

    /// A tempo of `beatsPerMinute`, `beatsPerBar` beats to the bar, the first downbeat
    /// `firstBeat` seconds into the sound (checked when a player or playlist takes it).
    public init(beatsPerMinute: Double, beatsPerBar: Int = 4, firstBeat: Double = 0) {
        self.beatsPerMinute = beatsPerMinute
        self.beatsPerBar = beatsPerBar
        self.firstBeat = firstBeat
    }

    /// The length of a beat in seconds.
    public var beatSeconds: Double { 60 / beatsPerMinute }
    /// The length of a bar in seconds.
    public var barSeconds: Double { beatSeconds * Double(beatsPerBar) }

    /// The first beat or bar strictly after `time` seconds into the sound, in seconds into
    /// the sound (the first downbeat for a time before it).
    public func nextBoundary(_ unit: MusicalUnit, after time: Double) -> Double {
        let length = unit == .beat ? beatSeconds : barSeconds
        guard time >= firstBeat else { return firstBeat }
        let count = ((time - firstBeat) / length).rounded(.down) + 1
        return firstBeat + count * length
    }

    /// Nil when the tempo can be used; otherwise why not.
    package var problem: String? {
        guard beatsPerMinute.isFinite, (1...1_000).contains(beatsPerMinute) else { return "beatsPerMinute must be in 1...1000, got \(beatsPerMinute)" }
        guard (1...64).contains(beatsPerBar) else { return "beatsPerBar must be in 1...64, got \(beatsPerBar)" }
        guard firstBeat.isFinite, firstBeat >= 0, firstBeat <= AudioEngine.latestStartSeconds else {
            return "firstBeat must be in 0...\(AudioEngine.latestStartSeconds) s, got \(firstBeat)"
        }
        return nil
    }
}

/// A musical unit a transition can wait for.
public enum MusicalUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// The next beat.
    case beat
    /// The next downbeat of a bar.
    case bar
}

/// When a transition or a stinger begins.
public enum TransitionPoint: Sendable, Hashable {
    /// At once.
    case now
    /// At engine time `seconds` (``AudioEngine/currentTime``).
    case atTime(Double)
    /// On the next beat of the playing track, as heard.
    case nextBeat
    /// On the next bar (downbeat) of the playing track, as heard.
    case nextBar
}
