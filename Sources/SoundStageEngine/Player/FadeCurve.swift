import Foundation
import SoundStageCore
import SoundStageSession

/// How a fade or tween moves from its start to its end.
public enum FadeCurve: Sendable, Hashable {
    /// Straight from start to end.
    case linear
    /// Constant power: `start * cos(x * pi/2) + end * sin(x * pi/2)`, so a fade-out stays
    /// at -3 dB halfway and a cross-fade keeps its loudness.
    case equalPower

    /// How far along a fade of `duration` seconds begun at `start` is at `seconds`, 0...1 (a
    /// fade of no length is done from its start on): the one reckoning of player tweens and
    /// bus fades.
    static func progress(at seconds: Double, start: Double, duration: Double) -> Float {
        if duration > 0 { return Float(min(1, max(0, (seconds - start) / duration))) }
        return seconds >= start ? 1 : 0
    }

    func mix(_ a: Float, _ b: Float, _ x: Float) -> Float {
        switch self {
        case .linear: return a + (b - a) * x
        case .equalPower: return a * cos(x * .pi / 2) + b * sin(x * .pi / 2)
        }
    }
}
