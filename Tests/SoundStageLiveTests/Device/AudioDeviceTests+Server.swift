import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The default output device, opened on the PulseAudio server scripts/test.sh starts.
@Suite("AudioDevice on the sound server: the default output heard where the source is")
struct AudioDeviceServerTests {
    @Test("a tone at +x played on the default output device comes out of PulseAudio on the right",
          .enabled(if: PulseServer.expected || PulseServer.answers, "needs a PulseAudio server; scripts/test.sh starts one"))
    func pulseAudio() throws {
        try #require(PulseServer.answers, "scripts/test.sh started PulseAudio, but it does not answer")
        let parec = try #require(ToolRunner.which("parec"), "parec (pulseaudio-utils) is needed")
        let name = try #require(AudioDevice.defaultOutputDevice)
        #expect(AudioDevice.outputDevices.contains(name))

        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-e2e-\(getpid()).raw")
        defer { try? FileManager.default.removeItem(at: recording) }
        // parec records the sink's monitor; `head -c` ends the recording after 4.5 s of audio
        // (48 kHz, 2 channels, 4 bytes), so parec stops on its own (a broken pipe).
        // Small fragments: by default parec delivers 2 s of audio at a time.
        let bytes = 48_000 * 2 * 4 * 9 / 2
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/bin/sh")
        recorder.arguments = ["-c", "'\(parec.path)' --latency-msec=50 --raw --format=float32le --channels=2 --rate=48000 -d @DEFAULT_MONITOR@ 2>/dev/null | head -c \(bytes) > '\(recording.path)'"]
        try recorder.run()
        // Recording before the sound starts: the first bytes are in the file.
        Poll.until(seconds: 10) { ServerListening.fileSize(recording) > 0 }

        do {
            let device = try AudioDevice.openOutput(named: name)
            #expect(device.kind == .output)
            let context = try AudioContext(device: device, attributes: ContextAttributes(hrtf: .off))
            #expect(context.frequency > 0)
            let source = try AudioSource(context: context)
            try source.setBuffer(try Tone.buffer(context, frequency: 1000, sampleRate: 48_000))
            try source.set(.isLooping, to: true)
            try source.set(.position, to: [1, 0, 0])
            try source.play()
            // OpenAL Soft's PulseAudio stream takes a moment to start, and closing the device
            // drops what is still buffered: play long enough for a clear recording.
            Thread.sleep(forTimeInterval: 3)   // the scenario: 3 s of sound
            #expect(device.isConnected)
            #expect(source.isPlaying)
            try source.stop()
        }
        Poll.until(seconds: 20, every: 0.1) { !recorder.isRunning }
        if recorder.isRunning { kill(recorder.processIdentifier, SIGKILL) }
        recorder.waitUntilExit()

        let data = try Data(contentsOf: recording)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let audio = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo), samples: samples)
        let right = audio.channel(1)
        let active = right.indices.filter { abs(right[$0]) > 0.01 }
        let first = try #require(active.first, "the recording of \(audio.frameCount) frames is silent")
        let last = active.last!
        // How much of the 3 s arrives depends on the stream start-up under load (1.35 s to 2.75 s seen).
        #expect(Double(last - first) / 48_000 > 0.5, "a sustained tone was recorded, not a glitch")
        let left = Array(audio.channel(0)[first...last])
        let loud = Array(right[first...last])
        let (l, r) = (Measure.dB(left), Measure.dB(loud))
        // At +x with HRTF off OpenAL Soft pans the source wholly right: the left gets nothing
        // (under -100 dB). 20 dB is the difference a listener hears as one side.
        #expect(r - l >= 20, "recorded left \(l) dB, right \(r) dB")
        let f = Measure.peakFrequency(loud, sampleRate: 48_000)
        // An FFT of at least 16,384 samples (0.5 s of tone): 2.9 Hz a bin, interpolated; 5 Hz
        // (0.5 %) is under two bins, and a wrong rate (919 or 1,088 Hz, 44.1 against 48 kHz) fails it.
        #expect(abs(f - 1000) / 1000 < 0.005, "recorded tone at \(f) Hz")
    }
}
