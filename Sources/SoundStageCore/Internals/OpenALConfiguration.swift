import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What SoundStage asks of OpenAL Soft's configuration before OpenAL starts: its streams on the
/// sound server stay on the device they were opened on, and its mixer runs at real-time
/// priority where the system allows it (``text``).
///
/// OpenAL Soft 1.19 opens its PulseAudio streams unmovable (`pulse/allow-moves` is false by
/// default there), so a sink that goes away ends the stream: the device reports the
/// disconnect, and SoundStage's engine reacts as an app does on iOS when the headphones are
/// pulled: `routeChanged(oldDeviceUnavailable)`, the music paused, the effects on on the new
/// default output. From 1.20 `allow-moves` is true by default: the
/// server moves the stream to another sink and nobody is told (measured on 1.23.1: the music
/// went on playing on the other sink at -25 dB, no route change, a recording never lost its
/// device). SoundStage follows the default output itself (the session's monitor), so it asks
/// for 1.19's behaviour on every release: `[pulse] allow-moves = false`, in a memory file
/// named by `ALSOFT_CONF`, the last configuration OpenAL Soft reads.
///
/// A process that sets `ALSOFT_CONF` itself keeps it, and decides. SoundStage's names (this
/// and the log's, ``OpenALLog``) are in the environment only while OpenAL Soft starts, and
/// taken out right after (``startOpenAL(takingBack:)``): a child process never inherits them
/// (it would open whatever it has at those descriptor numbers, the log truncated for writing).
/// (`setenv` and `unsetenv` run as the first OpenAL call is made: a thread reading the
/// environment at that moment is the usual caveat of both.)
enum OpenALConfiguration {
    /// The configuration given. `rt-prio = 1`: OpenAL Soft's mixer thread asks for real-time
    /// priority 1 (`SCHED_RR`) where the system allows it (root, or an `RLIMIT_RTPRIO`
    /// above 0), as 1.23.1 does by default (measured: its mixer at RR 1, 1.19.1's at the
    /// normal priority). In a CI run beside the other live tests (their sound servers at nice
    /// -11, PipeWire's threads at SCHED_FIFO 88), 1.19.1's mixer at the normal priority left
    /// the server's 58 ms unfilled twice (20 and 40 ms of exact zeros). Where it is not
    /// allowed nothing changes.
    static let text = "[general]\nrt-prio = 1\n[pulse]\nallow-moves = false\n"

    /// How the configuration was left, for diagnostics.
    enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// `ALSOFT_CONF` names SoundStage's memory file.
        case applied(path: String)
        /// The process had set `ALSOFT_CONF` itself.
        case keptTheProcesses(path: String)
        /// The memory file could not be made (errno's description).
        case failed(String)

        /// For example `streams kept on their device ([pulse] allow-moves = false, in
        /// ALSOFT_CONF=/proc/self/fd/3); the mixer at real-time priority where the system
        /// allows ([general] rt-prio = 1)`.
        var description: String {
            switch self {
            case .applied(let path):
                return "streams kept on their device ([pulse] allow-moves = false, in ALSOFT_CONF=\(path)); the mixer at real-time priority where the system allows ([general] rt-prio = 1)"
            case .keptTheProcesses(let path): return "as the process's own ALSOFT_CONF=\(path) says"
            case .failed(let reason): return "OpenAL Soft's own defaults (SoundStage's could not be given: \(reason))"
            }
        }
    }

    /// Applies the configuration and starts OpenAL Soft with it: call once, before any other
    /// OpenAL call (OpenAL Soft reads its configuration and opens its log once, as it starts).
    /// The memory file stays open for the life of the process and is closed in its children
    /// (`MFD_CLOEXEC`). A child of an older SoundStage that inherited the names finds
    /// `SOUNDSTAGE_ALSOFT_CONF` equal to `ALSOFT_CONF`, knows the setting for SoundStage's,
    /// and makes a file of its own.
    static func apply() -> Outcome {
        PulseLatency.prepare()
        var set = OpenALLog.forward() ? ["ALSOFT_LOGFILE", OpenALLog.marker] : []
        defer { startOpenAL(takingBack: set) }
        if let own = getenv("ALSOFT_CONF") {
            let path = String(cString: own)
            if getenv(marker).map({ String(cString: $0) }) != path { return .keptTheProcesses(path: path) }
        }
        guard let memfdCreate = MemoryFile.create else { return .failed("this C library has no memfd_create") }
        let fd = memfdCreate("soundstage-alsoft.conf", 1)   // MFD_CLOEXEC
        guard fd >= 0 else { return .failed(errnoDescription(errno)) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let reason = errnoDescription(errno)
            close(fd)
            return .failed(reason)
        }
        let path = "/proc/self/fd/\(fd)"
        setenv("ALSOFT_CONF", path, 1)
        setenv(marker, path, 1)
        set += ["ALSOFT_CONF", marker]
        return .applied(path: path)
    }

    /// Has OpenAL Soft start now: its one-time start-up (configuration read, log opened,
    /// backends probed, as any first call does) runs at its first device open, here a
    /// loopback device opened and closed. Then takes `names`, the variables SoundStage set for
    /// it, back out of the environment.
    private static func startOpenAL(takingBack names: [String]) {
        if let device = alcLoopbackOpenDeviceSOFT(nil) { alcCloseDevice(device) }
        for name in names { unsetenv(name) }
    }

    /// Names the `ALSOFT_CONF` SoundStage set (see ``apply()``).
    static let marker = "SOUNDSTAGE_ALSOFT_CONF"
}

/// glibc's `memfd_create` (2.27 and later), looked up at run time: the Swift module does not
/// declare it.
enum MemoryFile {
    static let create: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32)? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create")
            .map { unsafeBitCast($0, to: (@convention(c) (UnsafePointer<CChar>, UInt32) -> Int32).self) }
}
