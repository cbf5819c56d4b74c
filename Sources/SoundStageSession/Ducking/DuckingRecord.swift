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

    static func normalized(_ address: String) -> String {
        var a = Substring(address)
        if a.hasPrefix("{"), let close = a.firstIndex(of: "}") { a = a[a.index(after: close)...] }
        if a.hasPrefix("unix:") { a = a.dropFirst(5) }
        return String(a)
    }

    /// The folder records are kept in: `$XDG_RUNTIME_DIR/soundstage`; without that variable,
    /// `soundstage-<uid>` in the temporary folder, made for this user alone.
    static var defaultFolder: URL? {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return URL(fileURLWithPath: runtime).appendingPathComponent("soundstage")
        }
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundstage-\(getuid())")
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

    /// The records of other writers (other processes, or this process's other monitors) in `folder`.
    static func all(in folder: URL, except own: URL?) -> [OtherDuckingRecord] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasPrefix("ducked-") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            let file = folder.appendingPathComponent(name)
            guard file.path != own?.path else { return nil }
            let fd = open(file.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { return nil }
            let dead = flock(fd, LOCK_EX | LOCK_NB) == 0
            guard let data = try? Data(contentsOf: file), let record = try? JSONDecoder().decode(DuckingRecord.self, from: data) else {
                // A writer killed before its first write ended, or not a record: nothing to give back.
                if dead { unlink(file.path) }
                close(fd)
                return nil
            }
            if !dead { close(fd) }
            return OtherDuckingRecord(record: record, isAlive: !dead, file: file, fd: dead ? fd : -1)
        }
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

    /// Makes the folder for this user alone; false when it is not theirs (another user's, a link).
    private static func makeFolder(_ folder: URL) -> Bool {
        mkdir(folder.path, 0o700)
        var info = stat()
        guard lstat(folder.path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == getuid()
    }

    deinit { if fd >= 0 { close(fd) } }
}
