import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

@Suite("Recorder and the audio session: categories, interruptions, a lost device and a move to another", .enabled(if: RecordingRig.enabled))
struct RecorderSessionTests {
    @Test("only record and playAndRecord let it record; a category that cannot record is refused while it records")
    func categories() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let session = AudioSession(name: "recorder categories")
        let recorder = try Recorder(url: folder.file("c.wav"), settings: RecorderSettings(deviceName: rig.monitor), session: session)
        expectError(.invalidState, mentioning: ["soloAmbient", "playAndRecord"]) { try recorder.record() }
        try session.setCategory(.record)
        try recorder.record()
        #expect(recorder.isRecording)
        expectError(.invalidState, mentioning: ["recording"]) { try session.setCategory(.playback) }
        #expect(session.category == .record && recorder.isRecording)
        try session.setCategory(.playAndRecord)
        recorder.stop()
        try session.setCategory(.playback)
    }

    @Test("an interruption pauses recording and its end resumes it (nothing of the interrupted span in the file); with .stop it completes the file")
    func interruptions() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tone = folder.file("tone.wav")
        try RecordingRig.tones(tone, [(500, 0.5, 1.6), (1_500, 0.5, 1.6), (1_000, 0.5, 1.6)])
        let session = AudioSession(name: "recorder interruptions")
        try session.setCategory(.playAndRecord)
        let recorder = try Recorder(url: folder.file("i.wav"), settings: RecorderSettings(deviceName: rig.monitor), session: session)
        try recorder.prepareToRecord()
        let start = ContinuousClock.now
        let player = try rig.play(tone)
        func at(_ seconds: Double) { RecordingRig.sleep(until: start + .seconds(seconds)) }
        at(0.6); try recorder.record()
        at(1.2); session.begin(.phoneCall)
        #expect(!recorder.isRecording)
        expectError(.invalidState, mentioning: ["interrupted"]) { try recorder.record() }
        at(3.6); session.end(.phoneCall, shouldResume: true)
        #expect(recorder.isRecording, "resumed with the interruption's end")
        at(4.2); recorder.stop()
        _ = Spawn.wait(player)
        let samples = try SoundFile.decode(contentsOf: recorder.url).floatSamples()
        // Four calls at scheduled times (record, begin, end, stop), each within its thread's
        // scheduling delay and a capture tick; the end's resume also waits for the device's
        // next fragment (50 ms): 0.15 s in all. Of the interrupted 1500 Hz (a 0.5 sine), n frames
        // in 57,600 read 0.5 n / 57,600: -40 dB is under 23 ms, the edges' two capture ticks.
        // The tones either side fill their 0.2 s windows (-6 dB; -10 with 63 % of the window).
        #expect(abs(Double(samples.count) / 48_000 - 1.2) < 0.15, "0.6 s before and 0.6 s after: \(Double(samples.count) / 48_000) s")
        #expect(toneDB(samples, frequency: 1_500, sampleRate: 48_000) < -40, "nothing of the interrupted span")
        #expect(toneDB(Array(samples.prefix(9_600)), frequency: 500, sampleRate: 48_000) > -10)
        #expect(toneDB(Array(samples.suffix(9_600)), frequency: 1_000, sampleRate: 48_000) > -10)

        let stopping = try Recorder(url: folder.file("s.wav"), settings: RecorderSettings(deviceName: rig.monitor), session: session)
        stopping.interruptionPolicy = .stop
        let log = RecorderEventLog(stopping)
        try stopping.record()
        session.begin(.phoneCall)
        #expect(log.waitForFinish(seconds: 3) && log.finishes == [true] && !stopping.isRecording)
        session.end(.phoneCall, shouldResume: true)
        #expect(!stopping.isRecording, "a stopped recorder does not come back")
    }

    @Test("its device goes away mid-recording: deviceLost, paused with the file whole; moved to another device it records on into the same file",
          .disabled(if: RecordingRig.underSanitizer, "counts what real-time capture delivered, slowed by the sanitizer"))
    func lostAndMoved() throws {
        let first = try RecordingRig(), second = try RecordingRig()
        defer { first.stop(); second.stop() }
        let folder = try TemporaryFolder()
        let low = folder.file("low.wav"), high = folder.file("high.wav")
        try RecordingRig.tone(low, frequency: 500, seconds: 6)
        try RecordingRig.tone(high, frequency: 1_000, seconds: 8)
        let players = [try first.play(low), try second.play(high)]
        defer { for p in players { kill(p, SIGTERM); _ = Spawn.wait(p) } }
        let recorder = try Recorder(url: folder.file("moved.wav"), settings: RecorderSettings(deviceName: first.monitor))
        let log = RecorderEventLog(recorder)
        try recorder.prepareToRecord()
        try first.waitUntilPlaying()
        try second.waitUntilPlaying()
        try recorder.record()
        Thread.sleep(forTimeInterval: 0.8)   // recorded from the first device before it goes
        first.stop()   // the sink and its monitor go
        #expect(log.wait(seconds: 5) { if case .deviceLost = $0 { return true } else { return false } }, "\(log.all)")
        #expect(!recorder.isRecording)
        let lostError = log.all.compactMap { if case .deviceLost(let e) = $0 { return e } else { return nil } }.first
        #expect(lostError?.code == .deviceLost && lostError?.description.contains(first.monitor) == true, "\(String(describing: lostError))")
        let before = try SoundFile.decode(contentsOf: recorder.url)
        // 0.8 s recorded before the sink goes (the scenario): over 0.5 s of it is in the file
        // however late the first fragment came (a loaded machine: up to 0.3 s seen).
        #expect(before.frameCount > 24_000, "the file is whole up to the loss: \(before.frameCount) frames")
        expectError(.deviceLost) { try recorder.record() }
        try recorder.switchDevice(named: second.monitor)
        #expect(recorder.deviceName == second.monitor)
        try recorder.record()
        // Until the new device has delivered 0.6 s (its stream starts a while after it
        // opens, longer on a loaded machine), 10 s at most.
        Poll.until(seconds: 10, every: 0.05) { recorder.framesRecorded >= before.frameCount + 28_800 }
        recorder.stop()
        #expect(log.finishes == [true])
        let samples = try SoundFile.decode(contentsOf: recorder.url).floatSamples()
        #expect(samples.count > before.frameCount + 24_000)
        // Each device's tone (0.5 sines, -6 dB) fills its part: -10 dB holds with 63 % of it;
        // the 50 ms before the loss are left out (the last fragment may be cut).
        #expect(toneDB(Array(samples.prefix(before.frameCount - 2_400)), frequency: 500, sampleRate: 48_000) > -10, "the first device's tone")
        #expect(toneDB(Array(samples.suffix(24_000)), frequency: 1_000, sampleRate: 48_000) > -10, "then the second's")
    }
}
