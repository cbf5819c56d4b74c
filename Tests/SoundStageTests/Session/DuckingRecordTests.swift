import Foundation
import Testing
@testable import SoundStageSession

#if canImport(Glibc)
import Glibc
#endif

/// The ducking records' trust boundary: records are read only from a folder of this user's
/// alone, only from regular files of theirs of at most 64 KB, and what they say is held to what
/// a ducking could have written.
@Suite("Ducking records: read only from this user's own folder and files, their volumes held to 100 %")
struct DuckingRecordTests {
    /// A fresh folder of this user's, mode 0700, with a subfolder `name` made as `mode`.
    static func folder(_ name: String = "records", mode: mode_t = 0o700) throws -> (root: URL, records: URL) {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("ducking-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let records = root.appendingPathComponent(name)
        #expect(mkdir(records.path, 0o700) == 0)
        #expect(chmod(records.path, mode) == 0)
        return (root, records)
    }

    /// A record of one stream at 70 % lowered to 35 %, as JSON.
    static func record(original: UInt32 = 45_875, lowered: UInt32 = 22_937, restoreID: String? = "sink-input-by-application-name:music",
                       channels: Int = 2) -> Data {
        let stream = DuckedStream(index: 7, application: "music", restoreID: restoreID,
                                  original: Array(repeating: original, count: channels), lowered: Array(repeating: lowered, count: channels))
        return try! JSONEncoder().encode(DuckingRecord(pid: 1, server: "/run/pulse/native", cookie: 42, streams: [stream]))
    }

    @Test("a record in a folder of this user's, 0700, from a writer that is gone: read, dead")
    func ownFolderRead() throws {
        let (root, records) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try Self.record().write(to: records.appendingPathComponent("ducked-a.json"))
        let read = OtherDuckingRecord.all(in: records, except: nil)
        #expect(read.count == 1 && read.first?.isAlive == false)
        #expect(read.first?.record.streams.first?.original == [45_875, 45_875])
        #expect(DuckingRecordFolder.check(records) == .trusted)
    }

    @Test("a folder others may write in, a link to a good folder, a file: not trusted, nothing in it read or removed")
    func untrustedFolders() throws {
        let (root, good) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let open = root.appendingPathComponent("open")
        #expect(mkdir(open.path, 0o700) == 0 && chmod(open.path, 0o777) == 0)
        let group = root.appendingPathComponent("group")
        #expect(mkdir(group.path, 0o700) == 0 && chmod(group.path, 0o770) == 0)
        let link = root.appendingPathComponent("link")
        #expect(symlink(good.path, link.path) == 0)
        let file = root.appendingPathComponent("file")
        try Data().write(to: file)
        for folder in [open, group, good] { try Self.record().write(to: folder.appendingPathComponent("ducked-a.json")) }
        for (folder, reason) in [(open, "mode 777"), (group, "mode 770"), (link, "a symbolic link"), (file, "not a directory")] {
            guard case .untrusted(let why) = DuckingRecordFolder.check(folder) else {
                Issue.record("\(folder.lastPathComponent) is trusted")
                continue
            }
            #expect(why.contains(reason), "\(why)")
            #expect(OtherDuckingRecord.all(in: folder, except: nil).isEmpty, "\(folder.lastPathComponent)")
        }
        #expect(FileManager.default.fileExists(atPath: open.appendingPathComponent("ducked-a.json").path), "left as it was")
        #expect(DuckingRecordFolder.check(root.appendingPathComponent("none")) == .absent)
    }

    @Test("a folder another user made first (uid 65534, as root can make it): not trusted, its record not read nor removed",
          .enabled(if: getuid() == 0, "needs root to give a folder to another user"))
    func anotherUsersFolder() throws {
        let (root, records) = try Self.folder(mode: 0o755)
        defer { try? FileManager.default.removeItem(at: root) }
        let planted = records.appendingPathComponent("ducked-forged.json")
        try Self.record(original: 0x7FFF_FFFF).write(to: planted)
        #expect(chown(planted.path, 65_534, 65_534) == 0 && chown(records.path, 65_534, 65_534) == 0)
        guard case .untrusted(let why) = DuckingRecordFolder.check(records) else {
            Issue.record("another user's folder is trusted")
            return
        }
        #expect(why.contains("belongs to uid 65534"), "\(why)")
        #expect(OtherDuckingRecord.all(in: records, except: nil).isEmpty)
        #expect(FileManager.default.fileExists(atPath: planted.path))
    }

    @Test("in a trusted folder: a FIFO (not waited on), a link, a file over 64 KB, another user's file are not read nor removed")
    func untrustedFiles() throws {
        let (root, records) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = records.appendingPathComponent("ducked-fifo.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let target = root.appendingPathComponent("elsewhere.json")
        try Self.record().write(to: target)
        let link = records.appendingPathComponent("ducked-link.json")
        #expect(symlink(target.path, link.path) == 0)
        let large = records.appendingPathComponent("ducked-large.json")
        var big = Self.record()
        big.append(Data(repeating: 0x20, count: DuckingRecord.largestFile))   // JSON with trailing spaces: valid, too large
        try big.write(to: large)
        var names = ["ducked-fifo.json", "ducked-link.json", "ducked-large.json"]
        if getuid() == 0 {
            let others = records.appendingPathComponent("ducked-others.json")
            try Self.record().write(to: others)
            #expect(chown(others.path, 65_534, 65_534) == 0)
            names.append("ducked-others.json")
        }
        let started = ContinuousClock.now
        #expect(OtherDuckingRecord.all(in: records, except: nil).isEmpty)
        #expect(ContinuousClock.now - started < .seconds(2), "not waited on the FIFO")
        for name in names { #expect(FileManager.default.fileExists(atPath: records.appendingPathComponent(name).path), "\(name) left") }
    }

    @Test("what a record says is held to what a ducking writes: volumes from before at most 100 %, never lowered above them, 1-32 channels, playback streams' names only")
    func checkedVolumes() throws {
        let (root, records) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cases: [(name: String, data: Data, original: [UInt32]?)] = [
            ("ducked-1.json", Self.record(original: 0x7FFF_FFFF, lowered: 45_875), [0x10000, 0x10000]),
            ("ducked-2.json", Self.record(original: 20_000, lowered: 45_875), nil),
            ("ducked-3.json", Self.record(restoreID: "source-output-by-application-name:recorder"), nil),
            ("ducked-4.json", Self.record(channels: 33), nil),
            ("ducked-5.json", Self.record(channels: 0), nil),
            ("ducked-6.json", Self.record(restoreID: nil), [45_875, 45_875]),
        ]
        for entry in cases { try entry.data.write(to: records.appendingPathComponent(entry.name)) }
        let read = OtherDuckingRecord.all(in: records, except: nil)
        #expect(read.count == cases.count)
        for (record, entry) in zip(read, cases) {
            #expect(record.record.streams.first?.original == entry.original, "\(entry.name): \(record.record.streams)")
        }
    }
}
