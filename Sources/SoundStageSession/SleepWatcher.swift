import CSystemd
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// A system sleep transition announced by systemd-logind.
enum SleepEvent: Sendable, Equatable, CustomStringConvertible {
    /// `PrepareForSleep(true)`: the system is about to suspend or hibernate.
    case willSleep
    /// `PrepareForSleep(false)`: the system has resumed.
    case didWake

    /// `"willSleep"` or `"didWake"`.
    var description: String {
        switch self {
        case .willSleep: "willSleep"
        case .didWake: "didWake"
        }
    }
}

/// Why a ``SleepWatcher`` could not start, or stopped working.
enum SleepWatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No usable system bus: connecting to it failed (no socket, refused,
    /// not authorised), or it did not complete the handshake and confirm the
    /// subscription within ``SleepWatcher/startTimeout`` (`errno` is then
    /// `ETIMEDOUT`). `errno` is a positive error number.
    case noSystemBus(errno: Int32)
    /// Connected, but the bus refused the match rule for `PrepareForSleep`.
    case subscriptionFailed(errno: Int32)
    /// A local resource (eventfd, thread) could not be created.
    case systemResource(what: String, errno: Int32)
    /// The bus connection broke after a successful start (passed to the
    /// `onFailure` handler). The watcher delivers no more events; call
    /// ``SleepWatcher/stop()`` and ``SleepWatcher/start()`` to reconnect.
    case connectionLost(errno: Int32)
    /// libsystemd could not be loaded; the reason names the package that provides it.
    case libraryMissing(reason: String)

    /// Human-readable description, including the `strerror` text.
    var description: String {
        switch self {
        case .noSystemBus(let e): "no system bus (\(errnoDescription(e)))"
        case .subscriptionFailed(let e): "cannot subscribe to PrepareForSleep (\(errnoDescription(e)))"
        case .systemResource(let what, let e): "\(what) failed (\(errnoDescription(e)))"
        case .connectionLost(let e): "system bus connection lost (\(errnoDescription(e)))"
        case .libraryMissing(let reason): reason
        }
    }
}

/// Watches systemd-logind's `PrepareForSleep(b)` signal on the D-Bus system
/// bus and reports ``SleepEvent``s.
///
/// Uses sd-bus on a private connection (`sd_bus_open_system`, which honours
/// `DBUS_SYSTEM_BUS_ADDRESS`) driven by a dedicated thread that polls the bus
/// fd and an eventfd (so ``stop()`` returns promptly). Events are delivered on
/// that thread, in order; handlers should return quickly.
///
/// Sender filter: the match requires `sender='org.freedesktop.login1'`.
/// Signals are broadcast and the stock system-bus policy lets any client
/// emit them, so without the filter any local process could fake a
/// suspend and pause everyone's audio. The bus daemon resolves the
/// well-known name to logind's unique name, so real logind signals match.
/// Consequence for tests on a private bus: the emitter must own
/// `org.freedesktop.login1` (check.sh uses the `fake-logind` helper for that,
/// and checks that a `dbus-send` from a non-owner is ignored).
///
/// This class does not take a logind inhibitor lock, so the system does not
/// wait for ``SleepEvent/willSleep`` handlers before suspending.
final class SleepWatcher: Sendable {
    /// Upper bound for ``start()``: connecting, authenticating and having the
    /// bus confirm the match rule must complete within 3 seconds, otherwise
    /// `start()` gives up with ``SleepWatcherError/noSystemBus(errno:)``
    /// (`ETIMEDOUT`).
    static let startTimeout: Duration = .seconds(3)

    private let onEvent: @Sendable (SleepEvent) -> Void
    private let onFailure: (@Sendable (SleepWatcherError) -> Void)?
    private let state = LockedBox<Running?>(nil)

    /// A running watcher: its thread and the eventfd that tells it to quit.
    private struct Running: Sendable {
        let thread: WorkerThread
        let wake: OwnedFD

        /// Wakes the thread with the eventfd and waits for it (or detaches
        /// when called on the thread itself).
        func shutdown() {
            var one: UInt64 = 1
            _ = write(wake.fd, &one, MemoryLayout<UInt64>.size)
            thread.joinOrDetach()
        }
    }

    /// Creates a stopped watcher.
    /// - Parameters:
    ///   - onEvent: called on the watcher's thread for every sleep/wake signal.
    ///   - onFailure: called on the watcher's thread if the bus connection is
    ///     lost after a successful ``start()`` (at most once per start).
    init(onEvent: @escaping @Sendable (SleepEvent) -> Void,
                onFailure: (@Sendable (SleepWatcherError) -> Void)? = nil) {
        self.onEvent = onEvent
        self.onFailure = onFailure
    }

    deinit { stop() }

    /// Whether ``start()`` succeeded and ``stop()`` has not been called since.
    /// (Stays `true` after a ``SleepWatcherError/connectionLost(errno:)``.)
    var isRunning: Bool { state.withLock { $0 != nil } }

    /// Connects to the system bus, subscribes to `PrepareForSleep` and starts
    /// the watcher thread. Does nothing if already running.
    ///
    /// Returns once the bus has confirmed the subscription, so a signal sent
    /// after `start()` returns is seen. Never crashes or hangs: it fails at
    /// once when there is no bus socket, and after at most ``startTimeout``
    /// when the bus does not answer.
    /// - Throws: ``SleepWatcherError/noSystemBus(errno:)`` when there is no
    ///   usable system bus, ``SleepWatcherError/libraryMissing(reason:)`` without
    ///   libsystemd; other ``SleepWatcherError`` cases otherwise.
    func start() throws(SleepWatcherError) {
        if isRunning { return }
        guard ss_systemd() != nil else { throw .libraryMissing(reason: OptionalLibrary.systemd.missing(ss_systemd_error())) }
        let launched = try Self.launch(onEvent: onEvent, onFailure: onFailure)
        // No lock is held while launching; if another start() won the race,
        // keep its watcher and discard ours.
        let surplus = state.withLock { (running: inout Running?) -> Running? in
            if running == nil { running = launched; return nil }
            return launched
        }
        surplus?.shutdown()
    }

    /// Stops the watcher: wakes the thread, waits for it to finish and closes
    /// the connection. No callback runs after `stop()` returns (unless it is
    /// called from inside a callback, in which case the thread finishes on
    /// its own right after that callback). Idempotent; also called on deinit.
    func stop() {
        state.withLock { (r: inout Running?) in r.take() }?.shutdown()
    }

    // MARK: - Implementation

    private static func launch(onEvent: @escaping @Sendable (SleepEvent) -> Void,
                               onFailure: (@Sendable (SleepWatcherError) -> Void)?) throws(SleepWatcherError) -> Running {
        let deadline = monotonicMicroseconds() + UInt64(startTimeout.components.seconds) * 1_000_000
        func makeEventFD() throws(SleepWatcherError) -> OwnedFD {
            let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
            guard fd >= 0 else { throw .systemResource(what: "eventfd", errno: errno) }
            return OwnedFD(fd)
        }
        let wake = try makeEventFD()
        let ready = try makeEventFD()

        // Connects the socket (fails at once if there is none) and queues the
        // authentication and Hello; does not wait for the bus to answer.
        var rawBus: OpaquePointer?
        let r = libsystemd.open_system(&rawBus)
        guard r >= 0, let rawBus else { throw .noSystemBus(errno: -r) }
        let bus = BusHandle(rawBus)
        // Replies (e.g. to AddMatch) that take longer than this fail.
        _ = libsystemd.set_method_call_timeout(rawBus, UInt64(startTimeout.components.seconds) * 1_000_000)

        let worker = SleepWorker(bus: bus, wake: wake, ready: ready, onEvent: onEvent, onFailure: onFailure)
        // Userdata is an *unretained* pointer to `worker`. That is safe
        // because the match slot is floating (owned by the bus) and the bus
        // is freed by `worker.run()` before the worker thread drops its
        // strong reference; on the error paths below, `worker` (a local) is
        // alive until after `bus.close()`.
        let userdata = Unmanaged.passUnretained(worker).toOpaque()
        let m = libsystemd.match_signal_async(
            rawBus, nil,
            "org.freedesktop.login1", "/org/freedesktop/login1",
            "org.freedesktop.login1.Manager", "PrepareForSleep",
            { message, userdata, _ in   // the signal
                guard let message, let userdata else { return 0 }
                let worker = Unmanaged<SleepWorker>.fromOpaque(userdata).takeUnretainedValue()
                var value: Int32 = 0   // sd-bus reads a D-Bus boolean as C int
                guard libsystemd.message_read_basic(message, ss_bus_type_boolean(), &value) > 0 else {
                    return 0   // wrong signature: not a real PrepareForSleep, ignore
                }
                worker.onEvent(value != 0 ? .willSleep : .didWake)
                return 0
            },
            { reply, userdata, _ in     // the bus's answer to AddMatch
                guard let userdata else { return 0 }
                let worker = Unmanaged<SleepWorker>.fromOpaque(userdata).takeUnretainedValue()
                var result: Int32 = 0
                if let reply, libsystemd.message_is_method_error(reply, nil) != 0 {
                    let e = libsystemd.message_get_errno(reply)
                    result = e > 0 ? e : EIO
                }
                worker.reportStartup(result)
                return 0
            },
            userdata)
        guard m >= 0 else {
            bus.close()
            throw .subscriptionFailed(errno: -m)
        }

        let thread: WorkerThread
        do {
            // The closure holds the strong reference to `worker` for the
            // thread's lifetime; the bus is used only by that thread from now on.
            thread = try WorkerThread.spawn { worker.run() }
        } catch {
            bus.close()
            throw .systemResource(what: "pthread_create", errno: error.code)
        }
        let running = Running(thread: thread, wake: wake)

        // Wait (bounded) for the handshake and the AddMatch reply.
        var outcome: Int32? = nil
        while outcome == nil {
            let now = monotonicMicroseconds()
            guard now < deadline else { break }
            var pfd = pollfd(fd: ready.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32((deadline - now + 999) / 1000))   // EINTR: loop
            outcome = worker.startupResult
        }
        switch outcome {
        case 0?:
            return running
        case let e?:
            running.shutdown()
            throw Self.isConnectionError(e) ? .noSystemBus(errno: e) : .subscriptionFailed(errno: e)
        case nil:
            worker.abandonStartup()
            running.shutdown()
            throw .noSystemBus(errno: ETIMEDOUT)
        }
    }

    /// Errors that mean the bus itself is unusable rather than the match.
    private static func isConnectionError(_ e: Int32) -> Bool {
        [ECONNREFUSED, ECONNRESET, ENOTCONN, ENOENT, ETIMEDOUT, EPIPE, EACCES, EPERM, EIO].contains(e)
    }
}

/// Owner of an `sd_bus *`.
///
/// `@unchecked Sendable` because sd-bus objects are not thread-safe, so the
/// compiler cannot prove this. It is safe by construction: `launch()` uses
/// the pointer on the calling thread only until it spawns the worker thread
/// (`pthread_create` is a happens-before edge), and from then on only the
/// worker thread touches it, freeing it before the thread exits. If no thread
/// is spawned, `launch()` frees it itself. Nothing else sees the pointer.
private struct BusHandle: @unchecked Sendable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }

    /// Closes the connection and drops our reference, freeing the floating
    /// match slot with it (so the callbacks can no longer run).
    func close() { _ = libsystemd.close_unref(raw) }
}

/// State used by the watcher thread and the sd-bus callbacks.
private final class SleepWorker: Sendable {
    let bus: BusHandle
    let wake: OwnedFD
    let ready: OwnedFD
    let onEvent: @Sendable (SleepEvent) -> Void
    let onFailure: (@Sendable (SleepWatcherError) -> Void)?

    private enum Phase { case starting, started(Int32), abandoned }
    /// Startup handshake with `launch()`: errors before the subscription is
    /// confirmed go to `launch()` (which throws them), later ones to `onFailure`.
    private let phase = LockedBox(Phase.starting)

    init(bus: BusHandle, wake: OwnedFD, ready: OwnedFD,
         onEvent: @escaping @Sendable (SleepEvent) -> Void,
         onFailure: (@Sendable (SleepWatcherError) -> Void)?) {
        self.bus = bus
        self.wake = wake
        self.ready = ready
        self.onEvent = onEvent
        self.onFailure = onFailure
    }

    /// 0 once subscribed, an errno if startup failed, nil while pending.
    var startupResult: Int32? {
        phase.withLock { if case .started(let r) = $0 { r } else { nil } }
    }

    /// Records the startup outcome (first report wins) and wakes `launch()`.
    /// Returns false if startup was already over.
    @discardableResult
    func reportStartup(_ result: Int32) -> Bool {
        let first = phase.withLock { (p: inout Phase) -> Bool in
            guard case .starting = p else { return false }
            p = .started(result)
            return true
        }
        if first {
            var one: UInt64 = 1
            _ = write(ready.fd, &one, MemoryLayout<UInt64>.size)
        }
        return first
    }

    /// `launch()` timed out: later outcomes are not reported to anyone.
    func abandonStartup() { phase.withLock { $0 = .abandoned } }

    /// A failure: to `launch()` if still starting, else to `onFailure` if
    /// the subscription had succeeded (not after an abandoned/failed start).
    private func fail(_ e: Int32) {
        if reportStartup(e) { return }
        let wasRunning = phase.withLock { if case .started(0) = $0 { true } else { false } }
        if wasRunning && !wakeRequested() { onFailure?(.connectionLost(errno: e)) }
    }

    /// The thread body: dispatch messages, then poll the bus fd and the wake
    /// eventfd, until woken by `stop()` or the connection breaks.
    func run() {
        defer { bus.close() }
        let b = bus.raw
        while true {
            // Drives the handshake and dispatches everything pending (the
            // callbacks run in here).
            var r: Int32
            repeat { r = libsystemd.process(b, nil) } while r > 0
            if r < 0 { fail(-r); return }

            let busFD = libsystemd.get_fd(b)
            let events = libsystemd.get_events(b)
            var deadline: UInt64 = 0
            if busFD < 0 || events < 0 || libsystemd.get_timeout(b, &deadline) < 0 {
                fail(ENOTCONN)
                return
            }
            var fds = [
                pollfd(fd: busFD, events: Int16(truncatingIfNeeded: events), revents: 0),
                pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, Self.pollTimeout(deadline)) < 0 && errno != EINTR {
                fail(errno)
                return
            }
            if fds[1].revents != 0 { return }   // stop() requested
        }
    }

    private func wakeRequested() -> Bool {
        var pfd = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) > 0
    }

    /// Converts sd-bus's absolute CLOCK_MONOTONIC deadline (µs, UINT64_MAX =
    /// none) into a relative poll() timeout in ms, rounding up.
    private static func pollTimeout(_ deadline: UInt64) -> Int32 {
        if deadline == UInt64.max { return -1 }
        let now = monotonicMicroseconds()
        if deadline <= now { return 0 }
        let ms = (deadline - now + 999) / 1000
        return ms > UInt64(Int32.max) ? Int32.max : Int32(ms)
    }
}
