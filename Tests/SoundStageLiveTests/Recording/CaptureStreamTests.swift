import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("CaptureStream: every frame in order, overruns counted and reported", .enabled(if: RecordingRig.enabled))
struct CaptureStreamTests {
    @Test("60 s of capture: every block follows the last with no gap, and the tone captured has no discontinuity", .disabled(if: RecordingRig.underSanitizer, "real-time capture, slowed by the sanitizer"))
    func sixtySeconds() async throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tone = folder.file("long.wav")
        try RecordingRig.tone(tone, frequency: 440, seconds: 64)
        // Room for every block: this test is about the capture, not about a consumer falling
        // behind (the next test is).
        let stream = try CaptureStream(deviceNamed: rig.monitor, format: RenderFormat(sampleRate: 48_000, channels: .mono), blockFrames: 480,
                                       bufferBlocks: 7_000)
        let player = try rig.play(tone)
        try stream.start()
        // Consumed on a thread of its own: the test runner's synchronous tests may hold every
        // thread of the shared pool for longer than any buffer lasts.
        let (samples, gaps) = try await withTaskExecutorPreference(DedicatedExecutor.shared) {
            var samples: [Float] = []
            samples.reserveCapacity(61 * 48_000)
            var expected = 0
            var gaps = 0
            for try await block in stream.blocks {
                if block.firstFrame != expected || block.droppedBefore != 0 { gaps += 1 }
                expected = block.firstFrame + block.frameCount
                samples += block.samples
                if samples.count >= 61 * 48_000 { stream.stop() }
            }
            return (samples, gaps)
        }
        kill(player, SIGTERM)
        _ = Spawn.wait(player)
        #expect(gaps == 0 && stream.overruns == 0 && stream.droppedFrames == 0, "\(gaps) gaps, \(stream.overruns) overruns")
        #expect(samples.count >= 61 * 48_000)
        // Where the tone plays steadily, a sine follows x[n] = 2 cos(w) x[n-1] - x[n-2]: a
        // missing or repeated stretch would break the rule by about the tone's amplitude.
        let loud = samples.indices.filter { abs(samples[$0]) > 0.2 }
        let first = try #require(loud.first) + 4_800, last = try #require(loud.last) - 4_800
        // 61 s captured, the tone playing for 60 of them; 55 leaves 5 s for the player's
        // start on a loaded machine and the 0.1 s trimmed at each end.
        #expect(Double(last - first) / 48_000 > 55, "the tone was captured for \(Double(last - first) / 48_000) s")
        let c = Float(2 * cos(2 * Double.pi * 440 / 48_000))
        var worst: Float = 0
        for n in (first + 2)..<last { worst = max(worst, abs(samples[n] - c * samples[n - 1] + samples[n - 2])) }
        // On a whole sine the rule holds to float rounding (about 1e-6). A lost or repeated
        // block (480 frames) jumps the phase and breaks it by up to twice the amplitude (0.5);
        // even one frame lost breaks it by up to A w = 0.029 at 440 Hz. 0.02 is far above the
        // rounding and under both.
        #expect(worst < 0.02, "largest break in the sine: \(worst)")
        print("capture stream: \(samples.count) frames in \(samples.count / 480) blocks, no gap; largest sine residual \(worst)")
    }

    @Test("a consumer that stalls: blocks are dropped, counted, and the next block says how many frames it follows")
    func overrun() async throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let stream = try CaptureStream(deviceNamed: rig.monitor, blockFrames: 480, bufferBlocks: 5)
        try stream.start()
        try await Task.sleep(for: .seconds(2.5))   // the device starts, then 5 blocks fill the buffer and the rest are dropped
        #expect(stream.overruns > 0 && stream.droppedFrames == stream.overruns * 480, "\(stream.overruns) overruns, \(stream.droppedFrames) frames")
        var previous: CaptureBlock?
        var reported: CaptureBlock?
        for try await block in stream.blocks {
            if block.droppedBefore > 0 {
                reported = block
                #expect(block.firstFrame == (previous?.firstFrame ?? 0) + 480 + block.droppedBefore)
                stream.stop()
            }
            previous = block
        }
        let gap = try #require(reported, "a block after the overrun reports it")
        #expect(gap.droppedBefore == stream.droppedFrames || gap.droppedBefore <= stream.droppedFrames)
    }

    @Test("a missing device and bad sizes are typed errors")
    func badStreams() {
        expectError(.deviceNotFound, mentioning: ["No Such Mic"]) { _ = try CaptureStream(deviceNamed: "No Such Mic") }
        expectError(.invalidArgument) { _ = try CaptureStream(blockFrames: 0) }
        expectError(.unsupportedFormat) { _ = try CaptureStream(format: RenderFormat(channels: .quad)) }
    }
}
