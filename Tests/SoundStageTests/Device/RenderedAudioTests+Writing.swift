import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

@Suite("RenderedAudio.writeWAV: whole files, and never a device node or a link replaced")
struct RenderedAudioWritingTests {
    static let audio = RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono, sampleType: .float32),
                                     samples: (0..<480).map { Float($0) / 480 })

    @Test("to a FIFO (as /dev/null is a device): written through it, the FIFO still there (a rename would have replaced /dev/null with a file)")
    func fifoStaysAFifo() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("out.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let received = LockedBytes()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo.path) { received.set(handle.readDataToEndOfFile()) }
        }
        reader.start()
        try Self.audio.writeWAV(to: fifo, as: .pcm16)
        let deadline = ContinuousClock.now + .seconds(5)
        while received.get().isEmpty && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        var info = stat()
        #expect(stat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        #expect(received.get() == Self.audio.wavData(.pcm16))
    }

    @Test("through a symbolic link: its target is written, the link stays a link")
    func linkStaysALink() throws {
        let folder = try TemporaryFolder()
        let target = folder.file("target.wav"), link = folder.file("link.wav")
        try Data("old".utf8).write(to: target)
        #expect(symlink(target.path, link.path) == 0)
        try Self.audio.writeWAV(to: link, as: .pcm16)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Data(contentsOf: target) == Self.audio.wavData(.pcm16))
    }
}

/// Bytes handed from a reader thread to the test.
final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
