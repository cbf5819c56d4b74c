import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program running beside the test, its output read as it comes: lines (with when each
/// arrived) or raw bytes.
package final class ChildProcess: Sendable {
    package let pid: pid_t
    private let output = Output()
    private let exited = Exited()

    private final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (lines: [(String, ContinuousClock.Instant)], partial: String, bytes: Data,
                            arrivals: [(end: Int, at: ContinuousClock.Instant)]) = ([], "", Data(), [])
        package func withLock<R>(_ body: (inout (lines: [(String, ContinuousClock.Instant)], partial: String, bytes: Data,
                                         arrivals: [(end: Int, at: ContinuousClock.Instant)])) -> R) -> R {
            lock.withLock { body(&value) }
        }
    }

    private final class Exited: @unchecked Sendable {
        private let lock = NSLock()
        private var status: Int32?
        package func check(_ pid: pid_t) -> Bool {
            lock.withLock {
                if status != nil { return true }
                var s: Int32 = 0
                if waitpid(pid, &s, WNOHANG) == pid { status = s; return true }
                return false
            }
        }
        package var value: Int32? { lock.withLock { status } }
    }

    package init(_ tool: URL, _ arguments: [String], environment: [String: String] = [:], binaryOutput: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw PulseError("pipe failed") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        do {
            pid = try Spawn.start(tool, arguments, environment: environment, stdout: writeEnd, closing: readEnd)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        let output = self.output
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                let data = Data(buffer[0..<n]), now = ContinuousClock.now
                output.withLock { o in
                    if binaryOutput {
                        o.bytes.append(data)
                        o.arrivals.append((o.bytes.count, now))
                        return
                    }
                    o.partial += String(decoding: data, as: UTF8.self)
                    while let newline = o.partial.firstIndex(of: "\n") {
                        o.lines.append((String(o.partial[..<newline]), now))
                        o.partial = String(o.partial[o.partial.index(after: newline)...])
                    }
                }
            }
            close(readEnd)
        }.start()
    }

    package var lines: [String] { output.withLock { $0.lines.map(\.0) } }
    /// For binary output: how many bytes had come by each read, and when that read returned.
    package var arrivals: [(end: Int, at: ContinuousClock.Instant)] { output.withLock { $0.arrivals } }
    package var bytes: Data { output.withLock { $0.bytes } }
    /// The recorded samples, for a float32 recording.
    package var samples: [Float] {
        let data = bytes
        return data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Float.self).prefix(data.count / 4)) }
    }

    /// The first line containing `text` after the first `skipping` lines, if one has come:
    /// its index and when it arrived.
    package func line(containing text: String, after skipping: Int = 0) -> (index: Int, at: ContinuousClock.Instant)? {
        output.withLock { o -> (Int, ContinuousClock.Instant)? in
            for (i, line) in o.lines.enumerated() where i >= skipping && line.0.contains(text) { return (i, line.1) }
            return nil
        }
    }

    /// Waits up to `seconds` for a line containing `text` after the first `skipping` lines;
    /// returns its index and when it arrived.
    package func waitForLine(containing text: String, after skipping: Int = 0, seconds: Double = 10) -> (index: Int, at: ContinuousClock.Instant)? {
        Poll.value(seconds: seconds, every: 0.005) { line(containing: text, after: skipping) }
    }

    /// ``waitForLine(containing:after:seconds:)`` for a long async test: it suspends rather
    /// than blocks, since a blocked thread is one of the test runner's few (one per core) and
    /// the suites beside it would wait for it.
    package func nextLine(containing text: String, after skipping: Int = 0, seconds: Double = 10) async throws -> (index: Int, at: ContinuousClock.Instant)? {
        var found: (index: Int, at: ContinuousClock.Instant)?
        _ = try await Poll.suspending(seconds: seconds, every: 0.005) { found = line(containing: text, after: skipping); return found != nil }
        return found
    }

    /// Waits up to `timeout` seconds until a float32 mono 48 kHz recording holds `seconds`
    /// of samples (a monitor recording starts late, later still on a busy machine).
    package func waitForSamples(seconds: Double, timeout: Double = 15) {
        Poll.until(seconds: timeout, every: 0.05) { bytes.count >= Int(seconds * 48_000) * 4 }
    }

    /// Frames of a float32 recording of `channels` so far.
    package func frames(channels: Int = 1) -> Int { output.withLock { $0.bytes.count } / (4 * channels) }

    /// Waits up to `timeout` seconds until a float32 recording of `channels` holds `count`
    /// frames; returns whether it did. A test waits for the frames it will measure, however
    /// late a loaded machine delivers them.
    @discardableResult
    package func waitForFrames(_ count: Int, channels: Int = 1, timeout: Double = 15) -> Bool {
        Poll.until(seconds: timeout) { frames(channels: channels) >= count }
    }

    /// ``waitForSamples(seconds:timeout:)``, suspending rather than blocking.
    package func samples(seconds: Double, timeout: Double = 15) async throws {
        _ = try await Poll.suspending(seconds: timeout) { bytes.count >= Int(seconds * 48_000) * 4 }
    }

    package func signal(_ signal: Int32) { _ = kill(pid, signal) }

    package var isRunning: Bool { !exited.check(pid) }

    /// How the program ended, for a message: "running", "exit N" or "signal N".
    package var ending: String {
        guard !isRunning, let status = exited.value else { return "running" }
        return status & 0x7f == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
    }

    /// Stops the program (SIGINT, then SIGKILL after 3 s) and waits for it.
    package func stop() {
        guard isRunning else { return }
        signal(SIGINT)
        if !Poll.until(seconds: 3, every: 0.01, { !isRunning }) { signal(SIGKILL) }
        while isRunning { Thread.sleep(forTimeInterval: 0.01) }   // SIGKILL cannot be refused: no deadline
    }
}
