import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("Listener: gain, orientation, pose, transform, movement, Doppler")
struct ListenerTests {
    @Test("listener gain scales the whole mix")
    func listenerGain() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [0, 0, -1])
        try source.play()
        let full = Measure.totalDB(try scene.render(frames: 24_000))
        try scene.context.listener.set(.gain, to: 0.1)
        #expect(scene.context.listener.get(.gain) == 0.1)
        let quiet = Measure.totalDB(try scene.render(frames: 24_000))
        #expect(abs(quiet - full + 20) < 0.5)
    }

    @Test("turning the listener 180 degrees swaps the channels")
    func listenerTurnSwapsChannels() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.play()
        let before = try scene.render(frames: 24_000)
        try scene.context.listener.set(.orientation, to: Orientation(forward: [0, 0, 1], up: [0, 1, 0]))
        let after = try scene.render(frames: 24_000)
        let (l0, r0) = (Measure.dB(before, channel: 0), Measure.dB(before, channel: 1))
        let (l1, r1) = (Measure.dB(after, channel: 0), Measure.dB(after, channel: 1))
        #expect(r0 - l0 >= 20)
        #expect(l1 - r1 >= 20, "after turning: left \(l1) dB, right \(r1) dB")
        #expect(abs(l1 - r0) < 0.5 && abs(r1 - l0) < 1.0, "the swap keeps the levels")
    }

    @Test("yaw helper: turning left by 90 degrees puts a source ahead at -x")
    func yawHelper() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [-2, 0, 0])
        try source.play()
        let side = try scene.render(frames: 24_000)
        #expect(Measure.dB(side, channel: 0) - Measure.dB(side, channel: 1) >= 20)
        try scene.context.listener.setPose(position: .zero, yaw: .pi / 2)
        let ahead = try scene.render(frames: 24_000)
        #expect(abs(Measure.dB(ahead, channel: 0) - Measure.dB(ahead, channel: 1)) < 0.5, "a source straight ahead is centred")
        let o = scene.context.listener.get(.orientation)
        #expect(abs(o.forward.x + 1) < 1e-5 && abs(o.up.y - 1) < 1e-5)
    }

    @Test("a transform with a 180-degree turn about Y swaps the channels")
    func transformHelper() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [5, 0, 0])
        try source.play()
        // Rotation of pi about Y: x -> -x, z -> -z; translated to (5, 0, 1).
        let turned = Transform(columns: ([-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, -1, 0], [5, 0, 1, 1]))
        try scene.context.listener.setTransform(turned)
        #expect(scene.context.listener.get(.position) == [5, 0, 1])
        // The source is now 1 m straight behind the listener: centred.
        let behind = try scene.render(frames: 24_000)
        #expect(abs(Measure.dB(behind, channel: 0) - Measure.dB(behind, channel: 1)) < 0.5)
        try scene.context.listener.setTransform(Transform(columns: ([-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, -1, 0], [0, 0, 0, 1])))
        let swapped = try scene.render(frames: 24_000)
        #expect(Measure.dB(swapped, channel: 0) - Measure.dB(swapped, channel: 1) >= 20)
    }

    @Test("a non-relative source follows the listener: moving past it swaps the sides")
    func movingListener() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.play()
        try scene.context.listener.set(.position, to: [2, 0, 0])
        let audio = try scene.render(frames: 24_000)
        #expect(Measure.dB(audio, channel: 0) - Measure.dB(audio, channel: 1) >= 20)
    }

    @Test("a moving listener shifts the pitch too")
    func listenerDoppler() throws {
        let scene = try LoopbackRig()
        try scene.context.set(.speedOfSound, to: 340)
        let source = try scene.toneSource(frequency: 1000, at: [0, 0, -50])
        try scene.context.listener.set(.velocity, to: [0, 0, -34])
        try source.play()
        let measured = Measure.peakFrequency(try scene.render(frames: 65_536).channel(0), sampleRate: 48_000)
        let predicted = 1000 * (340.0 + 34) / 340
        #expect(abs(measured - predicted) / predicted < 0.005, "measured \(measured) Hz, predicted \(predicted) Hz")
    }
}
