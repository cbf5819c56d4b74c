import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one process lowered on one sound server, kept in a file while it lasts
/// (`$XDG_RUNTIME_DIR/soundstage/ducked-<pid>.json`), so that when the process is killed
/// before it could give the volumes back, the next SoundStage session on that server does.
struct DuckingRecord: Codable, Sendable, Equatable {
    /// The process that lowered them.
    var pid: Int32
    /// When that process started (`/proc/<pid>/stat`, clock ticks since boot): a process that
    /// took its number later is another one.
    var started: UInt64
    /// The server's address (`pa_context_get_server`).
    var server: String
    /// The server's cookie: a server started again at the same address is another one, and
    /// its streams are new.
    var cookie: UInt32
    /// The streams lowered, and those that went while lowered.
    var streams: [DuckedStream]

    /// The folder records are kept in: `$XDG_RUNTIME_DIR/soundstage`, nil without it.
    static var defaultFolder: URL? {
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        return URL(fileURLWithPath: runtime).appendingPathComponent("soundstage")
    }

    /// The record of this process's monitor number `serial` in `folder`.
    static func file(in folder: URL, pid: Int32 = getpid(), serial: Int) -> URL {
        folder.appendingPathComponent("ducked-\(pid)-\(serial).json")
    }

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

    /// When process `pid` started, nil when there is no such process.
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command (in parentheses, which may hold spaces): state is field 3, start time field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Whether the process that wrote it still runs.
    var writerIsAlive: Bool { Self.startTime(of: pid) == started }

    /// Writes it (a new file, renamed over the old: a reader never sees half of one), or
    /// removes the file when nothing is lowered. Failures are ignored: the record only helps
    /// after a kill.
    func save(in folder: URL, serial: Int) {
        let file = Self.file(in: folder, pid: pid, serial: serial)
        guard !streams.isEmpty else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard let data = try? JSONEncoder().encode(self) else { return }
        let temporary = folder.appendingPathComponent(".ducked-\(pid)-\(serial).json.new")
        guard (try? data.write(to: temporary)) != nil else { return }
        rename(temporary.path, file.path)
    }

    /// The records of other processes in `folder`, with their files.
    static func others(in folder: URL) -> [(record: DuckingRecord, file: URL)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasPrefix("ducked-") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            let file = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file), let record = try? JSONDecoder().decode(DuckingRecord.self, from: data),
                  record.pid != getpid() else { return nil }
            return (record, file)
        }
    }
}
