import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// A streamed playlist played for ten minutes on the real sound server, recorded from the
/// sink's monitor with parec: the tone it plays never stops, across every item boundary.
@Suite("Playlist on the real sound server, on a quiet machine", .enabled(if: RecordingRig.timingEnabled, "needs the PulseAudio server scripts/test.sh starts, and a quiet machine (the full tier runs it apart)"))
struct PlaylistServerTests {
    /// How long to play: `SOUNDSTAGE_MUSIC_SECONDS`, 600 by default.
    static let seconds = Double(ProcessInfo.processInfo.environment["SOUNDSTAGE_MUSIC_SECONDS"] ?? "") ?? 600
    /// 300 Hz: a whole number of periods in a second at 44.1 and at 48 kHz, so every item
    /// ends where the next begins, in phase.
    static let frequency = 300.0
    /// A moment's time of day in UTC, as `date -u +%T.%3N` prints it.
    static func clock(_ date: Date) -> String {
        let day = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400)
        return String(format: "%02d:%02d:%06.3f", Int(day / 3_600), Int(day / 60) % 60, day.truncatingRemainder(dividingBy: 60))
    }

    @Test("ten minutes of a streamed playlist (Ogg Vorbis, FLAC, and a WAV at another rate, repeating) has no gap in the recording")
    func tenMinutes() async throws {
        let folder = try TemporaryFolder()
        func tone(_ url: URL, rate: Int, seconds: Int) throws {
            let samples = (0..<(rate * seconds)).flatMap { i -> [Float] in
                let v = Float(0.5 * sin(2 * Double.pi * Self.frequency * Double(i) / Double(rate)))
                return [v, v]
            }
            try RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .stereo), samples: samples).writeWAV(to: url, as: .pcm16)
        }
        let source = folder.file("source.wav"), ogg = folder.file("a.ogg"), flac = folder.file("b.flac"), wav = folder.file("c.wav")
        try tone(source, rate: 44_100, seconds: 7)
        let oggenc = try #require(ToolRunner.which("oggenc")), flacTool = try #require(ToolRunner.which("flac"))
        #expect(try ToolRunner.run(oggenc, ["-Q", "-q", "6", "-o", ogg.path, source.path]).status == 0)
        #expect(try ToolRunner.run(flacTool, ["-s", "-f", "-o", flac.path, source.path]).status == 0)
        try tone(wav, rate: 48_000, seconds: 6)

        let rig = try RecordingRig()
        defer { rig.stop() }
        let raw = folder.file("monitor.raw")
        var events: AsyncStream<EngineEvent>
        let rate: Int
        var itemStarts = 0
        let samples: [Float]
        var recordingBegan = Date()
        do {
            // The full tier runs this beside every other live test: a loaded machine, which is
            // what the safe mode (120 ms asked of the server) is for. This test asked
            // `refresh: 20` before, believing it kept 150 ms ahead; OpenAL Soft 1.19.1 ignores
            // ALC_REFRESH, and the server held 58 ms (`pactl list sink-inputs`: buffer 58.0 ms,
            // sink 4.8 ms), which a mixer thread of no real-time priority, late by that much
            // beside the other tests, left unfilled (2 gaps in a CI run, 0 underruns reported:
            // the engine heard no dropout then).
            let engine = try await ServerListening.engine(on: rig, attributes: ContextAttributes(hrtf: .off, latency: .safe))
            events = engine.events()
            rate = engine.context.frequency
            let playlist = try Playlist(engine: engine, items: [ogg, flac, wav].map { try Sound(engine: engine, streamingContentsOf: $0) })
            playlist.repeatMode = .all
            let log = PlaylistLog()
            playlist.delegate = log
            let recorder = try await ServerListening.record(rig, rate: rate, to: raw, after: 0.5)
            // The recording's first frame, by the wall clock (to the server's buffering, tens
            // of milliseconds): a gap is dated, to be set beside what else ran then.
            recordingBegan = Date(timeIntervalSinceNow: -0.5)
            try playlist.play()
            try await Task.sleep(for: .seconds(Self.seconds))   // the scenario: the playlist played for this long
            playlist.stop()
            try await Task.sleep(for: .milliseconds(500))   // what the server still buffers (OpenAL Soft keeps 150 ms ahead) reaches the recording
            samples = try await ServerListening.stop(recorder, reading: raw)
            itemStarts = log.events.filter { if case .itemStarted = $0 { return true } else { return false } }.count
            engine.shutdown()
        }
        let (underruns, dropouts) = await ServerListening.trouble(events)
        let first = try #require(samples.firstIndex { abs($0) > 0.1 }, "no tone in the recording")
        let last = try #require(samples.lastIndex { abs($0) > 0.1 })
        // A gap: two samples in a row near silence (the tone moves by 0.02 a sample even
        // where it crosses zero), or a 10 ms stretch well below the tone's level.
        var gaps: [Int] = []
        // Each gap's length in milliseconds, and whether it is exact silence (what a server
        // plays where a stream ran dry) or only near it.
        var shapes: [String] = []
        var i = first
        while i < last {
            if abs(samples[i]) < 1e-3 && abs(samples[i + 1]) < 1e-3 {
                gaps.append(i)
                let start = i
                var exact = true
                while i < last && abs(samples[i]) < 1e-3 { exact = exact && samples[i] == 0; i += 1 }
                let at = recordingBegan.addingTimeInterval(Double(start) / Double(rate))
                shapes.append(String(format: "%.1f s (%@ UTC): %.2f ms%@", Double(start - first) / Double(rate), Self.clock(at),
                                     Double(i - start) * 1_000 / Double(rate), exact ? " exact zeros" : ""))
            }
            i += 1
        }
        let window = rate / 100
        var quietest = Double.infinity
        for start in stride(from: first, to: last - window, by: window) {
            var sum = 0.0
            for k in start..<(start + window) { sum += Double(samples[k]) * Double(samples[k]) }
            quietest = min(quietest, 10 * log10(sum / Double(window) * 2 / 0.25))
        }
        let heard = Double(last - first) / Double(rate)
        print("playlist on the server: \(heard) s of tone heard, \(itemStarts) item starts, \(gaps.count) gaps, quietest 10 ms \(quietest) dB from the tone's level, \(underruns.count) underruns, \(dropouts.count) dropouts heard by the engine \(dropouts.prefix(10))")
        // The recording starts 0.5 s after the server is asked (ServerListening.record) and ends
        // 0.5 s after the stop: a second less than the scenario, and a stop mid-way fails it.
        // A 10 ms stretch of the steady tone reads its level to 0.1 dB; 2 ms missing from one
        // reads -0.97 dB: "above -1 dB" finds any dropout of 2 ms or more.
        #expect(heard > Self.seconds - 1, "heard \(heard) s of \(Self.seconds)")
        #expect(gaps.isEmpty, "gaps at \(shapes.prefix(20))")
        #expect(quietest > -1, "a 10 ms stretch \(quietest) dB below the tone")
        #expect(underruns.isEmpty, "\(underruns)")
        // The engine hears what the sink's monitor holds: as many dropouts as gaps.
        #expect(dropouts.count == gaps.count, "\(dropouts.count) dropouts heard, \(gaps.count) gaps recorded: \(dropouts)")
        #expect(itemStarts >= Int(Self.seconds / 20) * 3, "\(itemStarts) item starts in \(Self.seconds) s of 20 s rounds")
    }
}
