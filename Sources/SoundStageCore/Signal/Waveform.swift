import Foundation

/// A test-tone shape: what a scene's `tone` plays and what
/// ``AudioBuffer/init(context:waveform:frequency:phase:duration:)`` makes.
public enum Waveform: String, Sendable, CaseIterable {
    /// A sine wave.
    case sine
    /// A square wave.
    case square
    /// A rising sawtooth.
    case sawtooth
    /// White noise (seeded, so generated samples repeat exactly).
    case whiteNoise
    /// A single-sample click at the start of each period.
    case impulse

    /// The name in scene files (`"noise"` for ``whiteNoise``, the case name otherwise).
    public var sceneName: String { self == .whiteNoise ? "noise" : rawValue }

    /// The waveform a scene file names.
    public init?(sceneName: String) {
        guard let found = Waveform.allCases.first(where: { $0.sceneName == sceneName }) else { return nil }
        self = found
    }

    /// `seconds` of this waveform at `frequency` Hz, mono Float32 at `sampleRate`, peaking at
    /// `amplitude`; `phase` in degrees shifts a periodic shape's start. Noise comes from a
    /// fixed seed, so it is the same every time.
    public func samples(frequency: Float, seconds: Double, sampleRate: Int, amplitude: Float = 0.5, phase: Float = 0) -> [Float] {
        let count = max(1, Int((seconds * Double(sampleRate)).rounded()))
        let period = Double(sampleRate) / Double(frequency)
        let offset = Double(phase) / 360
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        let a = Double(amplitude)
        return (0..<count).map { i in
            var cycle = (Double(i) / period + offset).truncatingRemainder(dividingBy: 1)
            if cycle < 0 { cycle += 1 }
            switch self {
            case .sine: return Float(a * sin(2 * Double.pi * cycle))
            case .square: return Float(cycle < 0.5 ? a : -a)
            case .sawtooth: return Float(a * (2 * cycle - 1))
            case .impulse: return (Double(i).truncatingRemainder(dividingBy: period) < 1) ? amplitude : 0
            case .whiteNoise:
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int64(bitPattern: seed) >> 11) / Float(1 << 52) * amplitude
            }
        }
    }
}

extension Waveform {
    /// The scene-file spelling of ``whiteNoise``.
    @available(*, deprecated, renamed: "whiteNoise")
    public static var noise: Waveform { .whiteNoise }
}

/// The shape of a scene's generated tone: the same type as a buffer's waveform.
@available(*, deprecated, renamed: "Waveform")
public typealias ToneShape = Waveform

/// Generated test tones.
@available(*, deprecated, message: "use Waveform.samples(frequency:seconds:sampleRate:amplitude:phase:)")
public enum ToneGenerator {
    /// `duration` seconds of `shape` at `frequency`, mono Float32 at `sampleRate`, amplitude 0.5.
    public static func samples(_ shape: Waveform, frequency: Float, duration: Double, sampleRate: Int) -> [Float] {
        shape.samples(frequency: frequency, seconds: duration, sampleRate: sampleRate)
    }
}
