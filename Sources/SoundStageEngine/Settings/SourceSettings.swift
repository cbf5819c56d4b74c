import Foundation
import SoundStageCore

/// What a sound plays with on an OpenAL source: its gain, pitch, placement, motion, distance
/// law, cone, walls and sends. The one description players and the pool's real voices share:
/// each makes one from what the game set (``Player``'s properties, a ``Voice``'s lanes in the
/// voice table), and ``write(_:to:_:sends:)`` puts it on the source. Every value was checked
/// where the game set it; nothing here checks again. The defaults are OpenAL's own, a source
/// as it is made.
struct SourceSettings {
    /// `AL_GAIN`: the sound's volume times its bus's gain.
    var gain: Float = 1
    /// `AL_PITCH`.
    var pitch: Float = 1
    var placement = SourcePlacement.world(.zero)
    var velocity = SIMD3<Float>.zero
    var distance = VoiceDistance()
    /// nil: heard the same all round.
    var cone: VoiceCone?
    /// Walls (see ``Occlusion``) and how much goes to effects, each 0...1.
    var occlusion: Float = 0
    var obstruction: Float = 0
    var sendLevel: Float = 1
    /// The bus it plays through: which effect its first send reaches, and whether it hears the
    /// reverb zones.
    var bus: Int32 = Bus.musicIndex

    /// Which settings a write puts on the source.
    struct Parts: OptionSet {
        let rawValue: UInt8
        static let gain = Parts(rawValue: 1 << 0)
        static let pitch = Parts(rawValue: 1 << 1)
        static let placement = Parts(rawValue: 1 << 2)
        /// The placement's point alone, in the space last written with ``placement`` (a
        /// source's `AL_SOURCE_RELATIVE` is not written again); a pan is written whole.
        static let position = Parts(rawValue: 1 << 6)
        static let velocity = Parts(rawValue: 1 << 3)
        /// The distance law's parameters and the cone.
        static let shape = Parts(rawValue: 1 << 4)
        /// The direct filter and the sends (``SourceSends``).
        static let effects = Parts(rawValue: 1 << 5)
        static let all: Parts = [.gain, .pitch, .placement, .velocity, .shape, .effects]
    }

    /// Writes `parts` of the settings to `source`, under the gateway's lock the caller holds
    /// (`held`), in one context scope; then, for `.effects`, the filter and sends that `sends`
    /// finds for them (the pool's objects; nil leaves the effects as they are). The properties
    /// are on the source before the effects are looked for, so a failure there (OpenAL out
    /// of filters) leaves the sound heard, dry.
    func write(_ parts: Parts, to source: AudioSource, _ held: borrowing LockHeld,
               sends: (SourceSettings) throws -> SourceSends? = { _ in nil }) throws {
        try source.withCheckedWrites(held) { scope in
            if parts.contains(.gain) { source.commit(.gain, gain, in: scope) }
            if parts.contains(.pitch) { source.commit(.pitch, pitch, in: scope) }
            if parts.contains(.placement) {
                writePlacement(to: source, in: scope)
            } else if parts.contains(.position) {
                switch placement {
                case .world(let point), .listener(let point): source.commit(.position, point, in: scope)
                case .pan: writePlacement(to: source, in: scope)
                }
            }
            if parts.contains(.velocity) { source.commit(.velocity, velocity, in: scope) }
            if parts.contains(.shape) {
                source.commit(.referenceDistance, distance.reference, in: scope)
                source.commit(.maxDistance, distance.maximum, in: scope)
                source.commit(.rolloffFactor, distance.rolloff, in: scope)
                let cone = self.cone ?? VoiceCone(direction: .zero, innerAngle: 360, outerAngle: 360, outerGain: 0)
                source.commit(.direction, cone.direction, in: scope)
                source.commit(.coneInnerAngle, cone.innerAngle, in: scope)
                source.commit(.coneOuterAngle, cone.outerAngle, in: scope)
                source.commit(.coneOuterGain, cone.outerGain, in: scope)
            }
        }
        if parts.contains(.effects), let sends = try sends(self) { try sends.write(to: source) }
    }

    private func writePlacement(to source: AudioSource, in scope: borrowing ALScope) {
        switch placement {
        case .world(let position):
            source.commit(.isRelative, false, in: scope)
            source.commit(.position, position, in: scope)
        case .listener(let offset):
            source.commit(.isRelative, true, in: scope)
            source.commit(.position, offset, in: scope)
        case .pan(let pan, let channels):
            let angle = pan * .pi / 2
            source.commit(.isRelative, true, in: scope)
            if channels == 1 {
                source.commit(.position, SIMD3(sin(angle), 0, -cos(angle)), in: scope)
            } else {
                source.commit(.position, .zero, in: scope)
                if source.context.isExtensionPresent("AL_EXT_STEREO_ANGLES") {
                    let left = min(Float.pi / 2, max(-.pi / 2, .pi / 6 - angle)), right = min(Float.pi / 2, max(-.pi / 2, -.pi / 6 - angle))
                    source.commit(.stereoAngles, SIMD2(left, right), in: scope)
                }
            }
        }
    }
}

/// Where a source's sound is placed.
enum SourcePlacement: Equatable {
    /// Whether it is placed in the listener's space (`AL_SOURCE_RELATIVE`).
    var isRelative: Bool {
        if case .world = self { return false }
        return true
    }

    /// At a place in the world (absolute coordinates).
    case world(SIMD3<Float>)
    /// At an offset from the listener (a voice played relative to it; `.zero`: unpositioned).
    case listener(SIMD3<Float>)
    /// Left-right in front of the listener, -1...1: a mono sound at that angle (constant
    /// power), a stereo sound's two channels turned that way (`AL_EXT_STEREO_ANGLES`; without
    /// it, a stereo sound is not moved).
    case pan(Float, channels: Int)
}
