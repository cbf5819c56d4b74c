import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("DrumDub: the demo rendered offline")
struct DrumDubTests {
    @Test("rendered offline, the kit is heard on the right first, then on the left as the player turns")
    func drumdubTurns() throws {
        let demo = try #require(ToolRunner.product("drumdub"), "drumdub is built beside the tests")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("drumdub-\(getpid()).wav")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try ToolRunner.run(demo, ["--render", out.path, "--seconds", "9", "--assets", Assets.drums.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("rendered 9.50 s"), "\(run.stdout)")

        let scene = try LoopbackRig()
        let wav = try AudioBuffer(context: scene.context, contentsOf: out)
        #expect(wav.channelCount == 2 && wav.sampleRate == 48_000)
        let samples = wav.floatSamples()
        let audio = RenderedAudio(format: RenderFormat(), samples: samples)
        func balance(_ from: Double, _ to: Double) -> Double {
            let slice = Array(audio.samples[(Int(from * 48_000) * 2)..<(Int(to * 48_000) * 2)])
            let part = RenderedAudio(format: RenderFormat(), samples: slice)
            return Measure.dB(part, channel: 1) - Measure.dB(part, channel: 0)
        }
        // Bass (the loudest drum) starts front-right; after a quarter to half a turn left
        // (2.2 to 4.4 s per quarter) the kit has swung to the player's left.
        let start = balance(0, 2), later = balance(4.4, 6.5)
        #expect(start > 3, "right minus left in the first 2 s: \(start) dB")
        #expect(later < -3, "right minus left from 4.4 to 6.5 s: \(later) dB")
    }
}
