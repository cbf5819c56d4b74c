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
        // The sink's own monitor, recorded beside (parec): a silence the server played into the
        // sink (the player's stream run dry on a loaded machine) is in both; what the capture
        // lost is in the capture only.
        let sink = try ChildProcess(try #require(ToolRunner.which("parec")),
                                    ["-d", "\(rig.sinkName).monitor", "--rate=48000", "--channels=1", "--format=float32le", "--raw", "--latency-msec=20"],
                                    binaryOutput: true)
        defer { sink.stop() }
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
        // On a whole sine the rule holds to float rounding (about 1e-6). A lost or repeated
        // block (480 frames) jumps the phase and breaks it by up to twice the amplitude (0.5);
        // even one frame lost breaks it by up to A w = 0.029 at 440 Hz. 0.02 is far above the
        // rounding and under both.
        let breaks = Self.breaks(samples, from: first, to: last, c: c)
        let played = sink.samples
        let sinkSilences = Self.breaks(played, from: 2, to: played.count, c: c).map(\.silence).filter { $0 >= 2 }
        // Each break is a run of exact silence the sink's monitor holds too, to 2 frames.
        let lost = breaks.filter { b in b.silence < 2 || !sinkSilences.contains { abs($0 - b.silence) <= 2 } }
        #expect(lost.isEmpty, "breaks in the sine the sink did not hold (at frame, frames of exact silence there): \(lost); all: \(breaks); the sink's silences: \(sinkSilences)")
        print("capture stream: \(samples.count) frames in \(samples.count / 480) blocks, no gap; \(breaks.count) breaks in the sine "
              + "(\(breaks.map { "\($0.silence) frames of silence at \($0.at)" })), each held at the sink too: \(lost.isEmpty)")
    }

    /// The breaks in a sine of recurrence factor `c` between frames `first` and `last`: where
    /// x[n] - c x[n-1] + x[n-2] exceeds 0.02, one per 480 frames, each with the length of the
    /// run of exact zeros within 2 frames of it (0: none, frames lost or repeated).
    static func breaks(_ x: [Float], from first: Int, to last: Int, c: Float) -> [(at: Int, silence: Int)] {
        var found: [(at: Int, silence: Int)] = []
        var n = max(first, 2)
        while n < min(last, x.count) {
            guard abs(x[n] - c * x[n - 1] + x[n - 2]) > 0.02 else { n += 1; continue }
            var silence = 0, end = n
            if let zero = (max(0, n - 2)...min(x.count - 1, n + 2)).first(where: { x[$0] == 0 }) {
                var a = zero, b = zero
                while a > 0, x[a - 1] == 0 { a -= 1 }
                while b + 1 < x.count, x[b + 1] == 0 { b += 1 }
                (silence, end) = (b - a + 1, b)
            }
            found.append((n, silence))
            n = end + 480
        }
        return found
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
