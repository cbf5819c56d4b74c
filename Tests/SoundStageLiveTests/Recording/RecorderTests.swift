import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("Recorder: recording from a sound server's monitor, to WAV, CAF and Ogg Vorbis", .enabled(if: RecordingRig.enabled))
struct RecorderTests {
    @Test("a 1 kHz tone recorded for 2 s: 1 kHz within 0.5 %, at the level played within 1 dB, 2 s within 20 ms, finished once")
    func toneForDuration() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tone = folder.file("tone.wav")
        try RecordingRig.tone(tone, seconds: 4)
        let recorder = try Recorder(url: folder.file("take.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        let log = RecorderEventLog(recorder)
        try recorder.prepareToRecord()
        let player = try rig.play(tone)
        try rig.waitUntilPlaying()
        try recorder.record(forDuration: 2)
        #expect(recorder.isRecording)
        #expect(log.waitForFinish(seconds: 5))
        // No second finish: one would come on the capture thread's next tick (10 ms); 30 ticks.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(log.finishes == [true], "\(log.all)")
        #expect(!recorder.isRecording && recorder.currentTime == 0)
        _ = Spawn.wait(player)
        let file = try SoundFile.decode(contentsOf: recorder.url)
        #expect(file.sampleRate == 48_000 && file.channels == .mono)
        // The span's ends are placed on the recorder's clock, each to within a capture tick
        // (10 ms): 20 ms.
        #expect(abs(file.duration - 2) <= 0.02, "\(file.duration) s")
        let samples = file.floatSamples()
        let hz = Measure.peakFrequency(Array(samples.prefix(48_000)), sampleRate: 48_000)
        let level = Measure.dB(samples)
        // A 0.5 sine is -9.03 dBFS RMS, and the path is unity gain (paplay into a null sink,
        // its monitor captured at the same rate): whole, the take measures it to 0.1 dB; 1 dB
        // allows a fifth of it missing (a late first read), and no wrong gain (6 dB a step).
        // The frequency: an FFT of 32,768 samples, 1.46 Hz a bin; 5 Hz is three bins.
        #expect(abs(hz - 1_000) <= 5, "\(hz) Hz")
        #expect(abs(level - -9.03) <= 1, "\(level) dB")
        print("recorder: 1 kHz tone recorded at \(hz) Hz, \(level) dB RMS (played -9.03), \(file.duration) s")
    }
}

extension RecorderTests {
    /// PipeWire's own mono downmix sums a stereo source's channels at -3 dB each (a sine in
    /// the left alone reads -3 dB below it, and both channels 3 dB above either); PulseAudio
    /// averages them (-6.02 dB). SoundStage captures stereo and averages on either server.
    @Test("a stereo source recorded in mono is the average of its channels, on any server: a sine in the left alone reads 6.02 dB below it")
    func monoIsTheAverage() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let left = folder.file("left.wav")
        let samples = (0..<(3 * 48_000)).flatMap { i -> [Float] in [0.5 * Float(sin(2 * Double.pi * 1_000 * Double(i) / 48_000)), 0] }
        try RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .stereo), samples: samples).writeWAV(to: left, as: .float32)
        let recorder = try Recorder(url: folder.file("mono.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        let log = RecorderEventLog(recorder)
        try recorder.prepareToRecord()
        let player = try rig.play(left)
        try rig.waitUntilPlaying()
        try recorder.record(forDuration: 1)
        #expect(log.waitForFinish(seconds: 5))
        _ = Spawn.wait(player)
        let file = try SoundFile.decode(contentsOf: recorder.url)
        #expect(file.channels == .mono)
        // The 0.5 sine is -9.03 dBFS RMS; half of it -15.05. The server's sum at -3 dB would
        // read -12.04: 0.5 dB tells them apart with room for a late first read.
        let level = Measure.dB(file.floatSamples())
        #expect(abs(level - -15.05) <= 0.5, "\(level) dB, the left channel's -9.03 averaged with a silent right")
    }

    @Test("pause and resume: the file holds what played before and after, nothing of the paused span")
    func pauseAndResume() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tones = folder.file("abc.wav")
        // 500 Hz, then 1500 Hz (to be paused over), then 1000 Hz: 1.2 s each.
        try RecordingRig.tones(tones, [(500, 0.5, 1.2), (1_500, 0.5, 1.2), (1_000, 0.5, 1.2)])
        let recorder = try Recorder(url: folder.file("paused.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        try recorder.prepareToRecord()
        let start = ContinuousClock.now
        let player = try rig.play(tones)
        func at(_ seconds: Double) { RecordingRig.sleep(until: start + .seconds(seconds)) }
        at(0.5); try recorder.record()
        at(0.9); recorder.pause()
        #expect(!recorder.isRecording)
        at(2.8); try recorder.record()
        at(3.3); recorder.stop()
        _ = Spawn.wait(player)
        let samples = try SoundFile.decode(contentsOf: recorder.url).floatSamples()
        let seconds = Double(samples.count) / 48_000
        // Four calls at scheduled times, each landing within its thread's scheduling delay and
        // a capture tick: 0.1 s is 25 ms for each.
        #expect(abs(seconds - 0.9) < 0.1, "0.4 s before the pause and 0.5 s after: \(seconds) s")
        let before = Array(samples.prefix(9_600)), after = Array(samples.suffix(9_600))
        // The tones are 0.5 sines, -6 dB in amplitude: -10 dB holds with 63 % of each 0.2 s
        // window holding its tone.
        #expect(toneDB(before, frequency: 500, sampleRate: 48_000) > -10 && toneDB(after, frequency: 1_000, sampleRate: 48_000) > -10)
        let paused = toneDB(samples, frequency: 1_500, sampleRate: 48_000)
        // n frames of the 0.5 sine in 43,200 read 0.5 n / 43,200 in amplitude: -40 dB is
        // under 18 ms of it, less than two capture ticks at the pause's edges.
        #expect(paused < -40, "nothing of the paused 1500 Hz: \(paused) dB")
    }

    @Test("WAV 24-bit stereo, CAF float and Ogg Vorbis recordings read back with sox and SoundStage at the right rate, channels and length")
    func containers() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tone = folder.file("tone.wav")
        try RecordingRig.tone(tone, seconds: 3)
        let takes: [(String, RecorderSettings)] = [
            ("take.wav", RecorderSettings(sampleRate: 44_100, channels: 2, bitDepth: 24, deviceName: rig.monitor)),
            ("take.caf", RecorderSettings(sampleRate: 48_000, channels: 1, bitDepth: 32, deviceName: rig.monitor)),
            ("take.ogg", RecorderSettings(sampleRate: 48_000, channels: 2, quality: 0.3, deviceName: rig.monitor)),
        ]
        let recorders = try takes.map { try Recorder(url: folder.file($0.0), settings: $0.1) }
        let logs = recorders.map(RecorderEventLog.init)
        for recorder in recorders { try recorder.prepareToRecord() }
        let player = try rig.play(tone)
        try rig.waitUntilPlaying()
        for recorder in recorders { try recorder.record(forDuration: 1.5) }
        for log in logs { #expect(log.waitForFinish(seconds: 5)) }
        _ = Spawn.wait(player)
        let soxi = try #require(ToolRunner.which("soxi"))
        for (recorder, (_, settings)) in zip(recorders, takes) {
            let info = try ["-r", "-c", "-s"].map { try ToolRunner.run(soxi, [$0, recorder.url.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
            let frames = Int(settings.sampleRate * 3 / 2)
            #expect(info.count == 3 && Int(info[0]) == settings.sampleRate && Int(info[1]) == settings.channels, "\(recorder.url.lastPathComponent): \(info)")
            // As the take's length above: a capture tick at each end, 20 ms.
            #expect(info.count == 3 && abs((Int(info[2]) ?? 0) - frames) <= settings.sampleRate / 50, "\(recorder.url.lastPathComponent): \(info)")
            let file = try SoundFile.decode(contentsOf: recorder.url)
            #expect(file.sampleRate == settings.sampleRate && file.channels.channelCount == settings.channels)
            #expect(abs(file.frameCount - frames) <= settings.sampleRate / 50)
            let level = Measure.dB(file.floatSamples())
            // The 0.5 sine's -9.03 dB through a unity path, as above; Ogg at quality 0.3 keeps a
            // steady sine's level to a tenth of a dB.
            #expect(abs(level - -9.03) < 1, "\(recorder.url.lastPathComponent): \(level) dB")
        }
    }

    @Test("metering a recorded full-scale sine reads -3.01 dB average within 0.2 dB, and its peak near 0 dB")
    func metering() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tone = folder.file("full.wav")
        try RecordingRig.tone(tone, amplitude: 1, seconds: 2.5)
        let recorder = try Recorder(url: folder.file("metered.caf"), settings: RecorderSettings(deviceName: rig.monitor))
        recorder.isMeteringEnabled = true
        #expect(recorder.averagePower(forChannel: 0) == -160)
        try recorder.prepareToRecord()
        let player = try rig.play(tone)
        try rig.waitUntilPlaying()
        try recorder.record()
        Thread.sleep(forTimeInterval: 0.3)   // what the meters read first, left out below
        recorder.updateMeters()
        Thread.sleep(forTimeInterval: 1)     // the window measured: a second of the tone
        recorder.updateMeters()
        let average = recorder.averagePower(forChannel: 0), peak = recorder.peakPower(forChannel: 0)
        recorder.stop()
        _ = Spawn.wait(player)
        // The average is the RMS of the window since the last update: a steady full-scale sine
        // reads -3.01; 0.2 dB is 4.5 % of the second missing. A sampled 1 kHz sine (48 samples
        // a period) peaks within 0.02 dB of full scale; 0.5 dB leaves room for the monitor's
        // float rounding and no more.
        #expect(abs(average - -3.01) <= 0.2, "average \(average) dB")
        #expect(peak > -0.5 && peak <= 0, "peak \(peak) dB")
        #expect(recorder.averagePower(forChannel: 1) == -160, "a mono recording has no channel 1")
    }

    @Test("a folder that cannot be written and a missing device are typed errors naming them, and leave no file")
    func badPlaces() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let notAFolder = folder.file("plain")
        try Data("x".utf8).write(to: notAFolder)
        let inside = notAFolder.appendingPathComponent("take.wav")
        let recorder = try Recorder(url: inside, settings: RecorderSettings(deviceName: rig.monitor))
        expectError(.fileAccess, mentioning: [inside.path]) { try recorder.record() }
        #expect(!recorder.isRecording)
        let nowhere = try Recorder(url: folder.file("none.wav"), settings: RecorderSettings(deviceName: "No Such Microphone"))
        expectError(.deviceNotFound, mentioning: ["No Such Microphone"]) { try nowhere.prepareToRecord() }
        #expect(!FileManager.default.fileExists(atPath: folder.file("none.wav").path))
        expectError(.invalidArgument, mentioning: ["take.mp4"]) { _ = try Recorder(url: folder.file("take.mp4")) }
        expectError(.invalidArgument, mentioning: ["bit depth"]) { _ = try Recorder(url: folder.file("t.wav"), settings: RecorderSettings(bitDepth: 12)) }
        expectError(.invalidArgument, mentioning: ["quality"]) { _ = try Recorder(url: folder.file("t.ogg"), settings: RecorderSettings(quality: 3)) }
        // Deleting while recording is refused; once stopped it goes.
        let take = try Recorder(url: folder.file("take.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        try take.record()
        expectError(.invalidState) { try take.deleteRecording() }
        take.stop()
        try take.deleteRecording()
        #expect(!FileManager.default.fileExists(atPath: take.url.path))
    }
}

extension RecorderTests {
    @Test("record(atTime:forDuration:) leaves out what comes before its time, and stereo meters each channel")
    func atTime() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tones = folder.file("later.wav")
        // 500 Hz for 1.2 s, then 1000 Hz: the recording starts 1.8 s in.
        try RecordingRig.tones(tones, [(500, 0.5, 1.2), (1_000, 0.5, 3)])
        let recorder = try Recorder(url: folder.file("later.wav.caf"), settings: RecorderSettings(container: .caf, channels: 2, deviceName: rig.monitor))
        let log = RecorderEventLog(recorder)
        recorder.isMeteringEnabled = true
        try recorder.prepareToRecord()
        let player = try rig.play(tones)
        try recorder.record(atTime: recorder.deviceCurrentTime + 1.8, forDuration: 1)
        #expect(log.waitForFinish(seconds: 6) && log.finishes == [true])
        _ = Spawn.wait(player)
        let file = try SoundFile.decode(contentsOf: recorder.url)
        // forDuration counts frames: 48,000 exactly; 0.001 s is the float rounding's 48 frames.
        #expect(file.container == .caf && file.channels == .stereo && abs(file.duration - 1) < 0.001)
        let samples = file.floatSamples()
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        // The 1 kHz tone at -6 dB amplitude fills the take (-10: 63 % of it). Of the earlier 500
        // Hz, n frames read 0.5 n / 48,000: under -30 dB is under 63 ms, the start's placement
        // error at most (one 50 ms capture fragment and a 10 ms tick, as stopTail derives).
        #expect(toneDB(left, frequency: 1_000, sampleRate: 48_000) > -10 && toneDB(left, frequency: 500, sampleRate: 48_000) < -30,
                "only what came after the start time")
        recorder.updateMeters()
        let levels = [recorder.averagePower(forChannel: 0), recorder.averagePower(forChannel: 1)]
        // Each channel meters the 0.5 sine's -9.03 dB RMS; 1 dB as for a take's level above.
        #expect(levels.allSatisfy { abs($0 - -9.03) < 1 }, "both channels of a -9 dB tone: \(levels)")
    }
}

extension RecorderTests {
    @Test("events() delivers the finished event to a for-await loop")
    func eventStream() async throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let player = try rig.playTone(in: folder, seconds: 4)
        defer { RecordingRig.stopPlaying(player) }
        let recorder = try Recorder(url: folder.file("stream.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        let events = recorder.events()
        try recorder.record(forDuration: 0.3)
        let first = try await withThrowingTaskGroup(of: RecorderEvent?.self) { group in
            group.addTask { for await event in events { return event }; return nil }
            group.addTask { try await Task.sleep(for: .seconds(8)); return nil }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard case .finished(successfully: true) = try #require(first, "no event in 8 s") else {
            Issue.record("the first event: \(String(describing: first))")
            return
        }
        #expect(recorder.framesRecorded == 14_400)
    }
}
