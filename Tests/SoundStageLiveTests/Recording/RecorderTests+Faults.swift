import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("Recorder faults: a full disk, a killed process; the file stays whole", .enabled(if: RecordingRig.enabled), .serialized)
struct RecorderFaultTests {
    /// A 192 kB tmpfs at a fresh folder, unmounted by the returned closure.
    static func tinyDisk() throws -> (URL, () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-full-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mount = try #require(ToolRunner.which("mount")), umount = try #require(ToolRunner.which("umount"))
        let status = try ToolRunner.runDiscardingOutput(mount, ["-t", "tmpfs", "-o", "size=192k", "tmpfs", folder.path])
        try #require(status == 0, "cannot mount a small tmpfs (the tests run as root on CI)")
        return (folder, {
            _ = try? ToolRunner.runDiscardingOutput(umount, [folder.path])
            try? FileManager.default.removeItem(at: folder)
        })
    }

    @Test("a full disk: an encode error, finished unsuccessfully, and a file that reads back whole, in every container; the next recording elsewhere works")
    func fullDisk() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let (disk, unmount) = try Self.tinyDisk()
        defer { unmount() }
        let folder = try TemporaryFolder()
        let tone = folder.file("tone.wav")
        try RecordingRig.noise(tone, seconds: 40)
        let player = try rig.play(tone)
        defer { RecordingRig.stopPlaying(player) }
        for (name, settings) in [("full.wav", RecorderSettings(deviceName: rig.monitor)),
                                 ("full.caf", RecorderSettings(sampleRate: 48_000, channels: 2, bitDepth: 24, deviceName: rig.monitor)),
                                 ("full.ogg", RecorderSettings(sampleRate: 48_000, channels: 2, quality: 1, deviceName: rig.monitor))] {
            let url = disk.appendingPathComponent(name)
            let recorder = try Recorder(url: url, settings: settings)
            let log = RecorderEventLog(recorder)
            try recorder.record()
            #expect(log.waitForFinish(seconds: 20), "\(name): the disk never filled")
            let errors = log.all.compactMap { if case .encodeError(let e) = $0 { return e } else { return nil } }
            #expect(log.finishes == [false] && errors.count == 1 && errors[0].code == .fileAccess && errors[0].description.contains(url.path),
                    "\(name): \(log.all)")
            let file = try SoundFile.decode(contentsOf: url)
            // WAV and CAF keep every frame written; Ogg every page written (what the encoder
            // still held when the disk filled is lost).
            // The disk holds over 10,000 frames before it fills (its size is set so). An Ogg
            // encoder holds up to a page and its look-ahead unwritten: 24,000 frames (0.5 s)
            // bounds libvorbis's pages at this rate and quality.
            #expect(file.frameCount > 10_000 && abs(file.frameCount - recorder.framesRecorded) <= (name.hasSuffix(".ogg") ? 24_000 : 0),
                    "\(name): \(file.frameCount) frames read back, \(recorder.framesRecorded) written")
            let soxi = try ToolRunner.run(try #require(ToolRunner.which("soxi")), ["-s", url.path])
            #expect(soxi.status == 0 && (Int(soxi.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 10_000, "\(name): soxi \(soxi)")
            try FileManager.default.removeItem(at: url)
        }
        let after = try Recorder(url: folder.file("after.wav"), settings: RecorderSettings(deviceName: rig.monitor))
        let log = RecorderEventLog(after)
        try after.record(forDuration: 0.5)
        #expect(log.waitForFinish(seconds: 5) && log.finishes == [true])
    }

    @Test("soundstage record killed with SIGKILL mid-recording leaves a file that reads back up to its last block, in every container")
    func killed() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tool = try #require(ToolRunner.soundstage)
        let player = try rig.playTone(in: folder, seconds: 20)
        defer { RecordingRig.stopPlaying(player) }
        let children = try ["killed.wav", "killed.caf", "killed.ogg"].map { name in
            (folder.file(name), try ChildProcess(tool, ["record", folder.file(name).path, "--device", rig.monitor]))
        }
        // Until every file holds about a second (an Ogg file grows by whole pages).
        Poll.until(seconds: 15, every: 0.05) {
            !children.contains { ServerListening.fileSize($0.0) < ($0.0.pathExtension == "ogg" ? 4_000 : 96_000) }
        }
        for (_, child) in children { child.signal(SIGKILL) }
        for (url, child) in children {
            child.stop()
            let file = try SoundFile.decode(contentsOf: url)
            // Killed once each file held about a second (waited for above): over 20,000 frames
            // survive, the blocks on disk when the process died.
            #expect(file.frameCount > 20_000, "\(url.lastPathComponent): \(file.frameCount) frames")
            // The header counts every whole block on disk (a block being written when the
            // process died may follow, uncounted).
            if url.pathExtension == "wav" { #expect(file.frameCount * 2 + 44 <= ServerListening.fileSize(url) && file.frameCount * 2 + 44 > ServerListening.fileSize(url) - 9_600) }
            let soxi = try ToolRunner.run(try #require(ToolRunner.which("soxi")), ["-s", url.path])
            #expect(soxi.status == 0, "\(url.lastPathComponent): \(soxi.stderr)")
        }
    }

    @Test("soundstage record: --duration stops by itself with a summary; SIGINT stops, completes the file and sums up; a live meter on a terminal")
    func tool() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let tool = try #require(ToolRunner.soundstage)
        // A monitor delivers nothing while its sink plays nothing: a tone plays throughout.
        let player = try rig.playTone(in: folder, seconds: 20)
        defer { RecordingRig.stopPlaying(player) }
        let timed = try ToolRunner.run(tool, ["record", folder.file("timed.caf").path, "--duration", "1", "--device", rig.monitor])
        #expect(timed.status == 0 && timed.stdout.contains("timed.caf: 1.00 s, 48000 Hz mono"), "\(timed)")
        let open = try ChildProcess(tool, ["record", folder.file("open.wav").path, "--device", rig.monitor])
        Poll.until(seconds: 10, every: 0.05) { ServerListening.fileSize(folder.file("open.wav")) >= 96_044 }
        open.stop()   // SIGINT
        #expect(open.lines.contains { $0.contains("open.wav:") && $0.contains("48000 Hz mono") }, "\(open.lines)")
        // Stopped once the file held a second (96,044 bytes): the header rewritten at SIGINT
        // counts what is there, at least a tenth of it.
        #expect(try SoundFile.decode(contentsOf: folder.file("open.wav")).frameCount > 4_800, "\(open.lines)")
        let bad = try ToolRunner.run(tool, ["record", folder.file("x.wav").path, "--device", "No Such Mic"])
        #expect(bad.status != 0 && bad.stderr.contains("No Such Mic") && bad.stderr.contains("device not found"), "\(bad.stderr)")

        let terminal = try Terminal()
        defer { terminal.close() }
        try terminal.run("\(tool.path) record \(folder.file("live.wav").path) --device '\(rig.monitor)' --duration 4")
        let metered = Poll.until(seconds: 10, every: 0.1) { terminal.screen.contains("● REC") && terminal.screen.contains("[####") }
        #expect(metered, "a live meter line: \(terminal.screen)")
        #expect(terminal.waitFor("live.wav: 4.00 s"), "the summary: \(terminal.screen)")
    }
}
