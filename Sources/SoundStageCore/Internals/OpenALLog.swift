import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// OpenAL Soft's log, passed on to standard error but for the lines known to mean nothing is
/// wrong. OpenAL Soft writes its log (its errors, by default) to standard error, or to the file
/// `ALSOFT_LOGFILE` names, which it opens as it starts: SoundStage names the write end of a pipe
/// there, and a thread of its own copies what comes out of it to standard error, line by line,
/// leaving out those lines; what is left in the pipe as the process exits is copied then. A
/// process that names a log file itself keeps it. Neither the pipe nor its name is passed on
/// to child processes: the name is in the environment only while OpenAL Soft starts
/// (``OpenALConfiguration/apply()``).
///
/// The line left out: with a latency mode asked (``PulseLatency``) the sound server asks for a
/// start threshold, which OpenAL Soft 1.19.1 meets but reports as an error each time it makes
/// the stream ("(EE) ALCpulsePlayback_reset: Non-0 prebuf, ...").
package enum OpenALLog {
    static let dropped = ["Non-0 prebuf"]

    /// The pipe's read end (non-blocking) and the line read so far, read by one at a time.
    private static let reader = LockedBox<(fd: Int32, pending: [UInt8])>((-1, []))

    /// Called once, before the first OpenAL call (``OpenALConfiguration/apply()``). Returns
    /// whether it named the pipe in `ALSOFT_LOGFILE` (and ``marker``), to be taken back out
    /// once OpenAL Soft has opened it.
    static func forward() -> Bool {
        // A log file the process named is its own; one an older SoundStage parent named (its
        // pipe, not passed on to this process) is replaced.
        if let own = getenv("ALSOFT_LOGFILE"), own.pointee != 0, getenv(marker).map({ String(cString: $0) }) != String(cString: own) { return false }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        // Neither end goes to a child process; the read end never blocks (the thread waits in poll).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        reader.withLock { $0.fd = ends[0] }
        let readEnd = ends[0]
        let thread = Thread {
            ThreadName.setCurrent("SoundStage log")
            var wait = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            while true {
                guard poll(&wait, 1, -1) >= 0 || errno == EINTR else { return }
                if !copy() { return }
            }
        }
        thread.start()
        // The write end stays open for the process's life: OpenAL Soft opens it by this name.
        let path = "/proc/self/fd/\(ends[1])"
        setenv("ALSOFT_LOGFILE", path, 1)
        setenv(marker, path, 1)
        named.withLock { $0 = path }
        return true
    }

    /// The name OpenAL Soft was given for the pipe while it started (nil: the process's own
    /// log file, or none could be made).
    package static var pipeName: String? { named.withLock { $0 } }
    private static let named = LockedBox<String?>(nil)

    /// Names the `ALSOFT_LOGFILE` SoundStage set, for its child processes to tell it from one
    /// of their own.
    static let marker = "SOUNDSTAGE_ALSOFT_LOGFILE"

    /// Copies what the pipe holds now to standard error, whole lines, but the dropped ones.
    /// False once the pipe is closed.
    @discardableResult
    static func copy() -> Bool {
        reader.withLock { r in
            guard r.fd >= 0 else { return false }
            var block = [UInt8](repeating: 0, count: 4_096)
            while true {
                let n = block.withUnsafeMutableBytes { read(r.fd, $0.baseAddress, $0.count) }
                if n == 0 { return false }
                if n < 0 { return errno == EAGAIN || errno == EINTR }
                r.pending += block[0..<n]
                while let end = r.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(r.pending[...end])
                    r.pending.removeSubrange(...end)
                    let text = String(decoding: line, as: UTF8.self)
                    if dropped.contains(where: { text.contains($0) }) { continue }
                    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                }
            }
        }
    }
}
