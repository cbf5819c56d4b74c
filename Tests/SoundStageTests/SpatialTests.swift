import Foundation
import Testing
import SoundStage

@Suite("Spatial rendering")
struct SpatialTests {
    @Test("a mono source at +x is at least 20 dB louder on the right")
    func sourceOnTheRight() throws {
        let scene = try LoopbackRig()
        #expect(scene.context.hrtfStatus == .disabled)
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.play()
        let audio = try scene.render(frames: 48_000)
        let (left, right) = (Measure.dB(audio, channel: 0), Measure.dB(audio, channel: 1))
        #expect(right - left >= 20, "left \(left) dB, right \(right) dB")
        #expect(right > -20, "the source must be audible: right \(right) dB")
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

    @Test("a listener-relative source ignores listener movement and turning")
    func relativeSource() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [1, 0, 0])
        try source.set(.isRelative, to: true)
        try source.play()
        let before = try scene.render(frames: 24_000)
        try scene.context.listener.set(.position, to: [30, 4, -12])
        try scene.context.listener.set(.orientation, to: Orientation(forward: [0, 0, 1], up: [0, 1, 0]))
        let after = try scene.render(frames: 24_000)
        for channel in 0..<2 {
            #expect(abs(Measure.dB(before, channel: channel) - Measure.dB(after, channel: channel)) < 0.1)
        }
        #expect(Measure.dB(after, channel: 1) - Measure.dB(after, channel: 0) >= 20)
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

    @Test("HRTF on: a source at +x arrives earlier and louder at the right ear", .timeLimit(.minutes(1)))
    func hrtfInterauralDelay() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(hrtf: .on))
        #expect(scene.context.hrtfStatus.isActive)
        #expect(scene.context.hrtfName != nil)
        let source = try AudioSource(context: scene.context)
        var click = [Float](repeating: 0, count: 4800)
        click[0] = 1
        try source.setBuffer(try AudioBuffer(context: scene.context, samples: click, sampleRate: 48_000, label: "click"))
        try source.set(.position, to: [1, 0, 0])
        try source.play()
        let audio = try scene.device.render(frames: 4800)
        let left = Measure.onset(audio.channel(0), threshold: 1e-3)
        let right = Measure.onset(audio.channel(1), threshold: 1e-3)
        let l = try #require(left), r = try #require(right)
        // The head delays the far ear by about 0.6 ms (roughly 30 samples at 48 kHz).
        #expect(l - r >= 10, "left onset \(l), right onset \(r)")
        #expect(Measure.dB(audio, channel: 1) > Measure.dB(audio, channel: 0) + 3)
    }
}
