import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("UpdateBatch: batched property updates")
struct UpdateBatchTests {
    @Test("a batch moves sources and turns the listener together, as the render shows")
    func batch() throws {
        let scene = try LoopbackRig()
        let left = try scene.toneSource(frequency: 500, at: [-1, 0, 0])
        let right = try scene.toneSource(frequency: 500, at: [1, 0, 0])
        try AudioSource.play([left, right])
        try left.set(.gain, to: 0.2)   // the left source is 14 dB quieter
        let before = try scene.render(frames: 24_000)
        #expect(Measure.dB(before, channel: 1) - Measure.dB(before, channel: 0) > 10)
        // Swap the sources' places in one batch: now the quiet one is on the right.
        try scene.context.update { batch in
            try batch.set(.position, of: left, to: [1, 0, 0])
            try batch.set(.position, of: right, to: [-1, 0, 0])
            try batch.set(.gain, to: 0.5)
        }
        #expect(left.get(.position) == [1, 0, 0] && scene.context.listener.get(.gain) == 0.5)
        let after = try scene.render(frames: 24_000)
        #expect(Measure.dB(after, channel: 0) - Measure.dB(after, channel: 1) > 10)
        #expect(abs(Measure.dB(after, channel: 0) - (Measure.dB(before, channel: 1) - 6.02)) < 0.2, "listener gain 0.5 is -6 dB")
    }

    @Test("a bad value in a batch throws a typed error; the changes before it still apply")
    func errors() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        expectError(.invalidArgument, mentioning: ["gain", "UpdateBatch"]) {
            try scene.context.update { batch in
                try batch.set(.pitch, of: source, to: 2)
                try batch.set(.gain, of: source, to: -1)
            }
        }
        #expect(source.get(.pitch) == 2 && source.get(.gain) == 1)
        let other = try LoopbackRig()
        let foreign = try AudioSource(context: other.context)
        expectError(.wrongContext) { try scene.context.update { try $0.set(.gain, of: foreign, to: 0.5) } }
        expectError(.readOnly) { try scene.context.update { try $0.set(.state, of: source, to: .playing) } }
        // The context still works normally afterwards.
        try source.set(.gain, to: 0.5)
        #expect(source.get(.gain) == 0.5)
    }

    @Test("set(_:of:to:) moves many sources at once, and a bad value among them changes none")
    func bulk() throws {
        let scene = try LoopbackRig()
        let quiet = try scene.toneSource(frequency: 500, at: [-1, 0, 0], gain: 0.2)
        let loud = try scene.toneSource(frequency: 500, at: [1, 0, 0])
        try AudioSource.play([quiet, loud])
        try scene.context.update { try $0.set(.position, of: [quiet, loud], to: [[1, 0, 0], [-1, 0, 0]]) }
        let after = try scene.render(frames: 24_000)
        #expect(Measure.dB(after, channel: 0) - Measure.dB(after, channel: 1) > 10, "the loud one is now on the left")
        expectError(.invalidArgument, mentioning: ["position", "finite"]) {
            try scene.context.update { try $0.set(.position, of: [quiet, loud], to: [[5, 0, 0], [.nan, 0, 0]]) }
        }
        expectError(.invalidArgument, mentioning: ["2 sources but 1 values"]) {
            try scene.context.update { try $0.set(.position, of: [quiet, loud], to: [[5, 0, 0]]) }
        }
        #expect(quiet.get(.position) == [1, 0, 0] && loud.get(.position) == [-1, 0, 0], "nothing moved")
        let foreign = try AudioSource(context: try LoopbackRig().context)
        expectError(.wrongContext) { try scene.context.update { try $0.set(.velocity, of: [quiet, foreign], to: [.zero, .zero]) } }
    }
}

extension UpdateBatchTests {
    @Test("a context made inside a batch: the batch's own writes still reach its context, and are applied")
    func contextMadeInsideBatch() throws {
        let rig = try LoopbackRig()
        let source = try rig.toneSource(at: [0, 0, -1])
        try source.play()
        _ = try rig.device.render(frames: 4_800)
        var other: AudioContext?
        try rig.context.update { batch in
            other = try AudioContext(device: rig.device, attributes: ContextAttributes(hrtf: .off))
            try source.set(.gain, to: 0.25)
            try batch.set(.position, of: source, to: [0, 0, -2])
        }
        #expect(source.get(.gain) == 0.25)
        #expect(source.get(.position) == [0, 0, -2])
        // The batch's context is not left deferred: a later change reaches the mixer.
        try source.set(.gain, to: 0)
        _ = try rig.device.render(frames: 9_600)
        let peak = try rig.device.render(frames: 4_800).samples.map(abs).max() ?? 1
        #expect(peak < 0.001, "peak \(peak) after gain 0")
        _ = other
    }
}
