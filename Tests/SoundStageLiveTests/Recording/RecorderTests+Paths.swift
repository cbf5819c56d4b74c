import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// What a recorder writes to and deletes: a regular file, or a link the caller gave; never a
/// directory's contents, a link planted after the recorder was made, or a FIFO waited on.
@Suite("Recorder paths: only its own regular file written and deleted", .enabled(if: RecordingRig.enabled), .serialized)
struct RecorderPathTests {
    @Test("deleteRecording: a directory named take.wav with a file in it, a FIFO: a fileAccess error, left as they were; a link: the link goes, its target stays; a regular file goes; nothing there is no error")
    func deleteOnlyFiles() throws {
        let folder = try TemporaryFolder()
        let directory = folder.file("take.wav")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try "keep me".write(to: directory.appendingPathComponent("inside.txt"), atomically: true, encoding: .utf8)
        let fifo = folder.file("fifo.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for (url, kind) in [(directory, "a directory"), (fifo, "a FIFO")] {
            let error = expectError(.fileAccess) { try Recorder(url: url).deleteRecording() }
            #expect(error?.reason.contains("the path is \(kind), not a recording: left as it is") == true, "\(String(describing: error))")
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("inside.txt").path), "the directory's file is left")
        #expect(FileManager.default.fileExists(atPath: fifo.path))
        let target = folder.file("target.wav")
        try Data("RIFF".utf8).write(to: target)
        let link = folder.file("link.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try Recorder(url: link).deleteRecording()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "the link is gone")
        #expect(FileManager.default.fileExists(atPath: target.path), "its target stays")
        try Recorder(url: target).deleteRecording()
        #expect(!FileManager.default.fileExists(atPath: target.path))
        try Recorder(url: folder.file("none.wav")).deleteRecording()
    }

    @Test("a link planted at the path after the recorder was made is not followed (its target left whole); a link the caller gave is; a FIFO at the path is an error at once, not a wait")
    func plantedLinkNotFollowed() throws {
        let rig = try RecordingRig()
        defer { rig.stop() }
        let folder = try TemporaryFolder()
        let victim = folder.file("victim.txt")
        try "someone else's".write(to: victim, atomically: true, encoding: .utf8)
        let path = folder.file("take.wav")
        let recorder = try Recorder(url: path, settings: RecorderSettings(deviceName: rig.monitor))
        try FileManager.default.createSymbolicLink(at: path, withDestinationURL: victim)
        let error = expectError(.fileAccess) { try recorder.prepareToRecord() }
        #expect(error?.reason.contains("is a symbolic link that was not there when the recorder was made") == true, "\(String(describing: error))")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "someone else's")

        // The caller's own link (there as the recorder is made) leads to the recording.
        let target = folder.file("target.wav")
        let given = folder.file("given.wav")
        try FileManager.default.createSymbolicLink(at: given, withDestinationURL: target)
        let followed = try Recorder(url: given, settings: RecorderSettings(deviceName: rig.monitor))
        try followed.prepareToRecord()
        followed.stop()
        #expect(((try? Data(contentsOf: target)) ?? Data()).starts(with: Data("RIFF".utf8)), "written through the caller's link")

        let fifo = folder.file("fifo.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let started = ContinuousClock.now
        let fifoError = expectError(.fileAccess) { try Recorder(url: fifo, settings: RecorderSettings(deviceName: rig.monitor)).prepareToRecord() }
        #expect(ContinuousClock.now - started < .seconds(5), "not waited on the FIFO")
        #expect(fifoError != nil)
    }
}
