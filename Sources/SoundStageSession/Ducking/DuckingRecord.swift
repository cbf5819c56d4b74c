import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one session's monitor lowered on one sound server, kept in a file while it lasts
/// (`$XDG_RUNTIME_DIR/soundstage/ducked-<id>.json`, see ``DuckingRecordFile``), so that when
/// the process is killed before it could give the volumes back, the next SoundStage session on
/// that server does.
struct DuckingRecord: Codable, Sendable, Equatable {
    /// The process that lowered them (for a person reading the file: whether it still runs is
    /// told by the file's lock, which holds across sandboxes' process numbers).
    var pid: Int32
    /// The server's address (`pa_context_get_server`).
    var server: String
    /// The server's cookie: a server started again at the same address is another one, and
    /// its streams are new.
    var cookie: UInt32
    /// The streams lowered, and those that went while lowered.
    var streams: [DuckedStream]

    /// How a record's server stands to the one a monitor reached.
    enum Server: Equatable {
        /// The same server, still running: the record's streams are its streams.
        case same
        /// A server at the same address started again since: the streams are gone, what it
        /// remembers for their applications may not be.
        case restarted
        /// Another server.
        case other
    }

    /// How the record's server stands to the one at `address` with `cookie`. The cookie tells
    /// a server's run (random at each start); the address is compared without what depends on
    /// how the client named the server (`unix:`, a `{machine id}` before it).
    func server(address: String, cookie: UInt32) -> Server {
        if self.cookie == cookie { return .same }
        return Self.normalized(server) == Self.normalized(address) ? .restarted : .other
    }

    /// The record with only what a ducking could have written: streams whose volumes have 1
    /// to 32 channels (`PA_CHANNELS_MAX`), lowered no higher than they were, their volumes
    /// before no higher than 100 % (`PA_VOLUME_NORM`: a volume the user had set above it comes
    /// back at 100 %, a forged one does not raise a stream), a sink volume they were taken at
    /// over 0 and at most `PA_VOLUME_MAX` (or none), and a name the server remembers a playback
    /// stream's volume under (`sink-input-by-...`), or none.
    var checked: DuckingRecord {
        var record = self
        record.streams = streams.compactMap { stream in
            guard (1...32).contains(stream.original.count), stream.lowered.count == stream.original.count,
                  zip(stream.lowered, stream.original).allSatisfy({ $0 <= $1 }),
                  stream.restoreID.map({ $0.hasPrefix("sink-input-by-") && $0.utf8.count <= 1_024 }) ?? true else { return nil }
            var kept = stream
            kept.original = stream.original.map { min($0, Self.volumeNorm) }
            kept.sinkVolume = stream.sinkVolume.flatMap { $0 > 0 ? min($0, Self.volumeMax) : nil }
            return kept
        }
        return record
    }

    /// `PA_VOLUME_NORM`: 100 %.
    static let volumeNorm: UInt32 = 0x10000
    /// `PA_VOLUME_MAX`: the most a volume can be.
    static let volumeMax = UInt32.max / 2

    static func normalized(_ address: String) -> String {
        var a = Substring(address)
        if a.hasPrefix("{"), let close = a.firstIndex(of: "}") { a = a[a.index(after: close)...] }
        if a.hasPrefix("unix:") { a = a.dropFirst(5) }
        return String(a)
    }

    /// The largest record file read: 64 KB (a record of a thousand streams is about 200 KB of
    /// JSON less; more than a desktop has). A larger file is not read.
    static let largestFile = 65_536

    /// The folder records are kept in: `$XDG_RUNTIME_DIR/soundstage`; without that variable,
    /// `soundstage-<uid>` in the temporary folder, made for this user alone.
    static var defaultFolder: URL? {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime).appendingPathComponent("soundstage")
        }
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundstage-\(getuid())")
    }
}

/// Whether a folder of ducking records can be trusted: records are read from, and written to,
/// only a real directory (not a link) owned by this user that no one else may write in. In the
/// temporary folder (no `XDG_RUNTIME_DIR`) another user may have made `soundstage-<uid>` first,
/// and planted records in it.
enum DuckingRecordFolder: Equatable {
    /// It is this user's alone.
    case trusted
    /// There is none (nothing to read).
    case absent
    /// It is not to be trusted, for this reason: nothing in it is read, written or removed.
    case untrusted(String)

    /// How `folder` stands (`lstat`: a link is not followed).
    static func check(_ folder: URL) -> DuckingRecordFolder {
        var info = stat()
        guard lstat(folder.path, &info) == 0 else {
            return errno == ENOENT ? .absent : .untrusted("\(folder.path) cannot be looked at (\(String(cString: strerror(errno))))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFDIR else {
            return .untrusted("\(folder.path) is \(kind == S_IFLNK ? "a symbolic link" : "not a directory"), not a folder of this user's")
        }
        guard info.st_uid == getuid() else {
            return .untrusted("\(folder.path) belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
        }
        guard info.st_mode & 0o022 == 0 else {
            return .untrusted("\(folder.path) may be written by its group or others (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
        return .trusted
    }
}

/// A record another process left, read with its file: `isAlive` when its writer still holds
/// the file's lock. A dead writer's file is held (locked) by the reader until ``discard()``
/// or ``release()``.
final class OtherDuckingRecord {
    let record: DuckingRecord
    let isAlive: Bool
    private let file: URL
    private var fd: Int32

    private init(record: DuckingRecord, isAlive: Bool, file: URL, fd: Int32) {
        self.record = record
        self.isAlive = isAlive
        self.file = file
        self.fd = fd
    }

    /// The records of other writers (other processes, or this process's other monitors) in
    /// `folder`, when it is this user's alone (``DuckingRecordFolder``). A file is read only when
    /// it is a regular file of this user's, not a link, at most ``DuckingRecord/largestFile``
    /// bytes; what it says is checked (``DuckingRecord/checked``).
    static func all(in folder: URL, except own: URL?) -> [OtherDuckingRecord] {
        guard DuckingRecordFolder.check(folder) == .trusted,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasPrefix("ducked-") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            let file = folder.appendingPathComponent(name)
            guard file.path != own?.path else { return nil }
            // Not blocking on a FIFO, not following a link; the checks are on what was opened.
            let fd = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(),
                  info.st_size <= DuckingRecord.largestFile else {
                close(fd)
                return nil
            }
            let dead = flock(fd, LOCK_EX | LOCK_NB) == 0
            guard let data = read(fd), let record = try? JSONDecoder().decode(DuckingRecord.self, from: data) else {
                // A writer killed before its first write ended, or not a record: nothing to give back.
                if dead { unlink(file.path) }
                close(fd)
                return nil
            }
            if !dead { close(fd) }
            return OtherDuckingRecord(record: record.checked, isAlive: !dead, file: file, fd: dead ? fd : -1)
        }
    }

    /// The file's bytes, at most ``DuckingRecord/largestFile`` (nil when it holds more, or a
    /// read fails).
    private static func read(_ fd: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: DuckingRecord.largestFile + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + count, $0.count - count, off_t(count)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            count += got
        }
        return count <= DuckingRecord.largestFile ? Data(bytes[..<count]) : nil
    }

    /// Removes the file of a dead writer's record (its volumes given back or taken on).
    func discard() {
        guard fd >= 0 else { return }
        unlink(file.path)
        release()
    }

    /// Lets the file go, as it is.
    func release() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    deinit { release() }
}

/// This monitor's own record file, locked for as long as it exists: a reader that can take the
/// lock knows the writer is gone (killed), whatever process numbers sandboxes give.
/// Used with the monitor's mainloop lock held (which orders the writers).
final class DuckingRecordFile: @unchecked Sendable {
    let folder: URL
    let file: URL
    private var fd: Int32 = -1

    init(folder: URL) {
        self.folder = folder
        file = folder.appendingPathComponent("ducked-\(UUID().uuidString.lowercased()).json")
    }

    /// Writes `record` (the file made and locked first), or removes the file when nil or
    /// nothing is lowered. Failures are ignored: the record only helps after a kill.
    func save(_ record: DuckingRecord?) {
        guard let record, !record.streams.isEmpty else {
            if fd >= 0 {
                unlink(file.path)
                close(fd)
                fd = -1
            }
            return
        }
        guard let data = try? JSONEncoder().encode(record) else { return }
        if fd < 0 {
            // Made, locked and written under another name, then named: a reader never finds
            // it unlocked (taking its writer for dead) or empty.
            guard Self.makeFolder(folder) else { return }
            let made = folder.appendingPathComponent(".\(file.lastPathComponent).new")
            let opened = open(made.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard opened >= 0 else { return }
            guard flock(opened, LOCK_EX | LOCK_NB) == 0, Self.write(data, to: opened), rename(made.path, file.path) == 0 else {
                unlink(made.path)
                close(opened)
                return
            }
            fd = opened
            return
        }
        _ = Self.write(data, to: fd)
    }

    private static func write(_ data: Data, to fd: Int32) -> Bool {
        guard ftruncate(fd, 0) == 0 else { return false }
        return data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == data.count
    }

    /// Makes the folder for this user alone; false when it is not theirs alone (another user's,
    /// a link, one others may write in: ``DuckingRecordFolder``).
    private static func makeFolder(_ folder: URL) -> Bool {
        mkdir(folder.path, 0o700)
        return DuckingRecordFolder.check(folder) == .trusted
    }

    deinit { if fd >= 0 { close(fd) } }
}
