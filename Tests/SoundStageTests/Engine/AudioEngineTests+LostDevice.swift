import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// A real device loss with no working replacement: OpenAL Soft's wave backend writing to
/// /dev/full loses its device at its first write, and every device opened in its place does
/// the same, until the file it writes becomes writable. `soundstage session` is the game, in
/// a child process, since OpenAL Soft reads its configuration once per process.
@Suite("AudioEngine: a lost device with no replacement (the wave backend on /dev/full)")
struct AudioEngineLostDeviceTests {

    @Test("loss seen within 100 ms, retried with backoff, the player kept playing, sound written once the file can be written",
          .disabled(if: RecordingRig.underSanitizer, "counts retries in 2 s of wall time, slowed by the sanitizer"))
    func waveToDevFull() throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out.wav"), recovered = folder.url.appendingPathComponent("recovered.wav")
        try FileManager.default.createSymbolicLink(atPath: output.path, withDestinationPath: "/dev/full")
        let conf = folder.url.appendingPathComponent("alsoft.conf")
        try "[general]\ndrivers=wave\n[wave]\nfile=\(output.path)\n".write(to: conf, atomically: true, encoding: .utf8)
        // A failed alcOpenDevice is OpenAL's only way to say a device cannot be opened, and it
        // sets an ALC error; the AL trap stays armed.
        let child = try ChildProcess(try #require(ToolRunner.soundstage), ["session", "--tone", "440", "--effect", "--status-every", "0.1"],
                                     environment: ["ALSOFT_CONF": conf.path, "ALSOFT_DRIVERS": "wave", "ALSOFT_TRAP_ALC_ERROR": "0"])
        defer { child.stop() }
        let opened = try #require(child.waitForLine(containing: "engine on"))
        let lost = try #require(child.waitForLine(containing: "routeChanged(oldDeviceUnavailable"), "\(child.lines)")
        let lines = child.lines
        let seen = try #require(DeviceLossRig.milliseconds(lines[lost.index])) - (try #require(DeviceLossRig.milliseconds(lines[opened.index])))
        #expect(seen < 100, "the loss was seen \(seen) ms after the device opened")
        // Each replacement fails at once too; the waits between attempts grow.
        Thread.sleep(forTimeInterval: 2)   // the scenario: 2 s of failing replacements counted
        let moves = child.lines.filter { $0.contains("session: routeChanged(") }.compactMap(DeviceLossRig.milliseconds)
        #expect(moves.count >= 3 && moves.count < 40, "\(moves.count) replacements in about 2 s: \(moves); the session: \(child.ending)")
        let gaps = zip(moves.dropFirst(), moves).map { $0 - $1 }
        #expect((gaps.last ?? 0) > (gaps.first ?? 0), "the waits grow: \(gaps)")
        // The last status line (event lines, such as another suite's sink appearing on the
        // server, may come after it).
        let status = child.lines.last { $0.contains("status:") }
        #expect(status?.contains("status: playing") == true, "\(child.lines.suffix(5))")
        // The output returns: the next replacement writes to a file, and stays.
        try FileManager.default.removeItem(at: output)
        try FileManager.default.createSymbolicLink(atPath: output.path, withDestinationPath: recovered.path)
        let before = child.lines.count
        #expect(child.waitForLine(containing: "routeChanged(", after: before, seconds: 5) != nil, "\(child.lines.suffix(5))")
        Thread.sleep(forTimeInterval: 1.5)   // the scenario: past the 1 s a replacement must play to count as healthy
        let since = child.lines.count
        Thread.sleep(forTimeInterval: 1)     // the scenario: a second in which no loss may come
        #expect(!child.lines[since...].contains { $0.contains("routeChanged(") }, "no loss once the file is writable")
        child.stop()
        let data = try Data(contentsOf: recovered)
        #expect(data.count > 48_000, "\(data.count) bytes written")
        let (left, rate) = try #require(DeviceLossRig.firstChannel(ofLiveWAV: data), "an unreadable WAV header")
        let level = Measure.dB(Array(left.suffix(left.count / 2)))
        let hz = Measure.peakFrequency(Array(left.suffix(left.count / 2)), sampleRate: rate)
        #expect(level > -20 && abs(hz - 440) < 5, "the tone in the written file: \(level) dB at \(hz) Hz")
    }
}
