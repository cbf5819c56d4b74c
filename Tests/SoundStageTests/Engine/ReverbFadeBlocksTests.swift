import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Offline renders in blocks OpenAL Soft 1.19.1's reverb cannot cross-fade in: a reverb's
/// settings changed, then a render of a frame count under 128 and not a multiple of 4 (the
/// API fuzzer's find: a render of 51 frames after a reverb on the UI bus, then one of 2,400,
/// died by SIGSEGV in alcRenderSamplesSOFT).
@Suite("Reverb fades in odd render blocks: no hang, no crash, the tail heard")
struct ReverbFadeBlocksTests {
    @Test("a reverb set, then renders of 51 frames and of 2,400: both return, and the reverb's tail follows the tone", arguments: [51, 1, 2, 3, 126, 127])
    func oddBlocks(frames: Int) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        var reverb = Reverb()
        reverb.decayTime = 3
        try engine.effectsBus.setEffect(.reverb(reverb), level: 1)
        let tone = try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 0.05)
        _ = try engine.play(tone, bus: engine.effectsBus)
        let first = try engine.render(frames: frames)
        let rest = try engine.render(frames: 2_400)
        #expect(first.frameCount == frames && rest.frameCount == 2_400)
        let tail = try engine.render(frames: 4_800)
        print("reverb fade in blocks of \(frames): the tail after the tone \(Measure.dB(tail.samples)) dB")
        #expect(Measure.dB(tail.samples) > -60, "the reverb's tail after the tone: \(Measure.dB(tail.samples)) dB")
        // Changed again, a voice started, and rendered in blocks of 3 while it fades.
        reverb.decayTime = 1
        try engine.effectsBus.setEffect(.reverb(reverb), level: 1)
        _ = try engine.play(tone, bus: engine.effectsBus)
        for _ in 0..<100 { _ = try engine.render(frames: 3) }
        #expect(try engine.render(frames: 2_400).frameCount == 2_400)
    }

    @Test("while the fade may run, 3-frame renders hand out the same frames as one render: none lost, none twice")
    func framesKept() throws {
        func rendered(blocks: Int?) throws -> [Float] {
            let engine = try EngineRig.offline()
            defer { engine.shutdown() }
            try engine.effectsBus.setEffect(.reverb(Reverb(preset: .stoneroom)), level: 1)
            let player = engine.makePlayer(try Sound(engine: engine, waveform: .sine, frequency: 441, duration: 1))
            try player.play()
            guard let blocks else { return try engine.render(frames: 600).samples }
            var samples: [Float] = []
            while samples.count < 1_200 { samples += try engine.render(frames: blocks).samples }
            return samples
        }
        let whole = try rendered(blocks: nil), inThrees = try rendered(blocks: 3)
        #expect(inThrees.count == 1_200 && whole == inThrees, "the first frame that differs: \(whole.indices.first { $0 < inThrees.count && whole[$0] != inThrees[$0] } ?? -1)")
    }
}
