import Foundation
import SoundStage
import Testing

/// The scene the move tests carry from one device to another: every property of a
/// positioned looping tone, its context and its listener set away from its default.
package enum MovedScene {
    package static let format = RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)

    /// A scene: context and listener settings, a positioned looping 440 Hz sine with tuned
    /// 3D properties. Returns the player.
    package static func scene(_ engine: AudioEngine) throws -> Player {
        try engine.context.set(.distanceModel, to: .linearClamped)
        try engine.context.set(.dopplerFactor, to: 0.5)
        try engine.context.set(.speedOfSound, to: 300)
        let listener = engine.context.listener
        try listener.set(.gain, to: 0.8)
        try listener.setPose(position: [0.5, 0, 0], yaw: 0.3)
        // The listener moves with the source: Doppler is on but shifts nothing, so the
        // resampler steps whole frames and the renders can match sample for sample.
        try listener.set(.velocity, to: [0.5, 0, 0])
        let tone = Tone.samples(frequency: 440, sampleRate: EngineRig.rate, seconds: 1, amplitude: 0.5)
        let sound = Sound(buffer: try AudioBuffer(context: engine.context, samples: tone, sampleRate: EngineRig.rate, label: "sine 440"))
        let player = engine.makePlayer(sound)
        player.numberOfLoops = -1
        player.position = [2, 0, -3]
        player.volume = 0.7
        try player.prepareToPlay()
        let source = try #require(player.audioSource)
        try source.set(.referenceDistance, to: 1.5)
        try source.set(.maxDistance, to: 40)
        try source.set(.rolloffFactor, to: 0.5)
        try source.set(.coneInnerAngle, to: 90)
        try source.set(.coneOuterAngle, to: 200)
        try source.set(.coneOuterGain, to: 0.25)
        try source.set(.direction, to: [-1, 0, 0])
        try source.set(.velocity, to: [0.5, 0, 0])
        try source.set(.minGain, to: 0.05)
        try player.play()
        return player
    }

    /// Every property of the player's source, and of the context and its listener, as text.
    package static func properties(_ engine: AudioEngine, _ player: Player) throws -> [String] {
        let s = try #require(player.audioSource)
        let c = engine.context, l = c.listener
        return [
            "gain \(s.get(.gain))", "minGain \(s.get(.minGain))", "maxGain \(s.get(.maxGain))", "pitch \(s.get(.pitch))",
            "cone \(s.get(.coneInnerAngle)) \(s.get(.coneOuterAngle)) \(s.get(.coneOuterGain))",
            "distances \(s.get(.referenceDistance)) \(s.get(.maxDistance)) \(s.get(.rolloffFactor))",
            "position \(s.get(.position))", "velocity \(s.get(.velocity))", "direction \(s.get(.direction))",
            "relative \(s.get(.isRelative))", "looping \(s.get(.isLooping))", "spatialize \(s.get(.spatialize))",
            "stereoAngles \(s.get(.stereoAngles))", "resampler \(s.get(.resampler))", "state \(s.state)",
            "context \(c.get(.distanceModel)) \(c.get(.dopplerFactor)) \(c.get(.speedOfSound))",
            "listener \(l.get(.gain)) \(l.get(.position)) \(l.get(.velocity)) \(l.get(.orientation))",
        ]
    }
}
