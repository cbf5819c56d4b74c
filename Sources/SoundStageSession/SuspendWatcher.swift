import CSignalRelay
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// Why a ``SuspendWatcher`` could not start.
enum SuspendWatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Signal dispositions are process-wide: only one `SuspendWatcher` can be
    /// started at a time.
    case anotherWatcherActive
    /// A local resource (pipe, thread, sigaction) could not be set up.
    case systemResource(what: String, errno: Int32)

    /// Human-readable description.
    var description: String {
        switch self {
        case .anotherWatcherActive: "another SuspendWatcher is already active in this process"
        case .systemResource(let what, let e): "\(what) failed (\(errnoDescription(e)))"
        }
    }
}

/// Lets the library pause its audio device before the process is stopped by
/// job control (Ctrl-Z, `kill -TSTP`) and resume it after `SIGCONT`
/// (`fg`, `bg`, `kill -CONT`), while keeping job control behaving exactly as
/// without it: the process really stops, the shell sees it stopped, `fg`
/// continues it.
///
/// Sequence for one `SIGTSTP`: `willSuspend()` runs (synchronously, on the
/// watcher's thread) -> `SIGTSTP` is set back to `SIG_DFL` and re-raised,
/// which stops the whole process -> on `SIGCONT` the process continues, the
/// relay handler is re-armed, and `didResume()` runs. Every `willSuspend` is
/// followed by exactly one `didResume`.
///
/// Mechanism (and why): a minimal async-signal-safe handler written in C
/// (target `CSignalRelay`) writes one byte to a non-blocking self-pipe;
/// a dedicated thread blocks on the pipe and runs the Swift handlers there.
/// - No Swift code runs in signal context, and the handler cannot deadlock:
///   it takes no locks and never blocks (a full pipe just coalesces signals).
///   A `SIGTSTP` arriving while `willSuspend` runs is coalesced into the
///   same stop, as the kernel would do.
/// - `sigwait`/`signalfd` would need `SIGTSTP` blocked in *every* thread,
///   which a library cannot guarantee for threads that already exist (audio,
///   Dispatch, the app's own); a thread with it unblocked would get the
///   default action and stop with the device still running.
/// - `DispatchSource.makeSignalSource` needs `SIGTSTP` set to `SIG_IGN`
///   first, and the kernel drops ignored signals unless they are blocked;
///   whether the source still sees them then rests on libdispatch's Linux
///   event backend and on other threads' signal masks, which we do not
///   control. It also adds a Dispatch dependency. The pipe is simple and
///   fully under our control.
/// - A `SIGCONT` handler (counter only, chaining to any previous handler)
///   notices a `SIGCONT` that arrives while `willSuspend` is still running;
///   the stop is then cancelled, as the kernel discards a pending stop
///   signal on `SIGCONT`. `didResume` still follows.
///
/// Notes:
/// - Only `SIGTSTP` is handled. `SIGSTOP` cannot be caught; `SIGTTIN` and
///   `SIGTTOU` (background job touching the terminal) also stop the process
///   without notice. After those, no `willSuspend`/`didResume` is reported.
/// - If `SIGTSTP` was ignored (`SIG_IGN`) when ``start()`` runs, the watcher
///   leaves it ignored and stays passive (``isArmed`` is `false`).
/// - Installing handlers means that a thread blocked in a non-restartable
///   call (`poll`, `nanosleep`, ...) can see `EINTR` on Ctrl-Z / `fg`.
/// - A stop requested while `willSuspend` runs happens after it returns, so
///   keep `willSuspend` short.
/// - A `fork()`ed child that does not `exec` inherits the handler but not
///   the thread; there the relay falls back to the default action (the
///   child stops as usual, without callbacks). `exec` resets the handlers.
final class SuspendWatcher: Sendable {
    private let willSuspend: @Sendable () -> Void
    private let didResume: @Sendable () -> Void
    private let state = LockedBox<Running?>(nil)

    private struct Running: Sendable {
        let worker: SuspendWorker
        let thread: WorkerThread?   // nil when SIGTSTP is ignored (passive)
    }

    /// Creates a stopped watcher.
    /// - Parameters:
    ///   - willSuspend: called before the process stops; the process stops
    ///     when it returns. Runs on the watcher's thread.
    ///   - didResume: called after the process has been continued (or the
    ///     stop was cancelled). Runs on the watcher's thread.
    init(willSuspend: @escaping @Sendable () -> Void,
                didResume: @escaping @Sendable () -> Void) {
        self.willSuspend = willSuspend
        self.didResume = didResume
    }

    deinit { stop() }

    /// `true` while started with the `SIGTSTP` relay installed; `false` when
    /// stopped or when `SIGTSTP` was ignored at ``start()``.
    var isArmed: Bool { state.withLock { $0?.thread != nil } }

    /// Installs the `SIGTSTP`/`SIGCONT` handlers and starts the watcher
    /// thread. Does nothing if already started.
    /// - Throws: ``SuspendWatcherError``.
    func start() throws(SuspendWatcherError) {
        try state.withLock { (running: inout Running?) throws(SuspendWatcherError) in
            guard running == nil else { return }
            running = try Self.launch(willSuspend: willSuspend, didResume: didResume)
        }
    }

    /// Restores the original `SIGTSTP` and `SIGCONT` dispositions and stops
    /// the thread, waiting for a running handler (and a stop/continue cycle
    /// in progress) to finish. Idempotent; also called on deinit.
    func stop() {
        guard let running = state.withLock({ (r: inout Running?) in r.take() }) else { return }
        running.worker.deactivate()
        guard let thread = running.thread else { return }
        var quit = UInt8(ascii: "Q")
        _ = write(running.worker.pipeWrite.fd, &quit, 1)
        thread.joinOrDetach()
    }

    private static func launch(willSuspend: @escaping @Sendable () -> Void,
                               didResume: @escaping @Sendable () -> Void) throws(SuspendWatcherError) -> Running {
        var fds: [Int32] = [-1, -1]
        guard ss_relay_make_pipe(&fds) == 0 else {
            throw .systemResource(what: "pipe2", errno: errno)
        }
        let worker = SuspendWorker(pipeRead: OwnedFD(fds[0]), pipeWrite: OwnedFD(fds[1]),
                                   willSuspend: willSuspend, didResume: didResume)
        switch worker.activate() {
        case 0:
            break
        case 1:
            return Running(worker: worker, thread: nil)   // SIGTSTP ignored: stay passive
        case -EBUSY:
            throw .anotherWatcherActive
        case let r:
            throw .systemResource(what: "sigaction", errno: -r)
        }
        do {
            let thread = try WorkerThread.spawn { worker.run() }
            return Running(worker: worker, thread: thread)
        } catch {
            worker.deactivate()
            throw .systemResource(what: "pthread_create", errno: error.code)
        }
    }
}

/// The watcher thread's state. `active` guards every change of the signal
/// dispositions, so `stop()` and a stop/continue cycle never interleave.
private final class SuspendWorker: Sendable {
    let pipeRead: OwnedFD
    let pipeWrite: OwnedFD
    let willSuspend: @Sendable () -> Void
    let didResume: @Sendable () -> Void
    /// Whether our relay owns the dispositions (true between activate/deactivate).
    private let active = LockedBox(false)

    init(pipeRead: OwnedFD, pipeWrite: OwnedFD,
         willSuspend: @escaping @Sendable () -> Void,
         didResume: @escaping @Sendable () -> Void) {
        self.pipeRead = pipeRead
        self.pipeWrite = pipeWrite
        self.willSuspend = willSuspend
        self.didResume = didResume
    }

    /// Installs the relay. Returns `ss_relay_start`'s result.
    func activate() -> Int32 {
        active.withLock { active in
            let r = ss_relay_start(pipeWrite.fd)
            active = (r == 0)
            return r
        }
    }

    /// Restores the original dispositions; afterwards no handler writes to the pipe.
    func deactivate() {
        active.withLock { active in
            if active { ss_relay_stop() }
            active = false
        }
    }

    private var isActive: Bool { active.withLock { $0 } }

    func run() {
        // raise() below must stop us, so SIGTSTP must not be blocked here
        // (the mask is inherited from whichever thread called start()).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)

        while isActive {
            var pfd = pollfd(fd: pipeRead.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, -1) < 0 { continue }   // EINTR
            if drainPipe().contains(UInt8(ascii: "Z")) && isActive {
                suspendCycle()
            }
        }
    }

    /// Reads everything currently in the pipe and returns it.
    private func drainPipe() -> [UInt8] {
        var all: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(pipeRead.fd, &buf, buf.count)
            if n > 0 { all += buf[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            return all   // 0 never happens (we hold the write end); EAGAIN = empty
        }
    }

    /// One SIGTSTP: notify, stop the process for real, notify again.
    private func suspendCycle() {
        willSuspend()
        active.withLock { active in
            if active { ss_relay_set_tstp_default() }
            // else: stop() already restored the original disposition; the
            // raise below then delivers to it, honouring the user's request.
        }
        // SIGTSTPs that arrived while willSuspend ran are part of this stop.
        _ = drainPipe()
        if ss_relay_continued_since_tstp() == 0 {
            // raise() targets this thread, where SIGTSTP is unblocked, so the
            // default action (stop the whole process) happens before it returns;
            // it returns once the process is continued by SIGCONT. (If the
            // process group is orphaned the kernel discards it and we return
            // at once, exactly as without this watcher.)
            raise(SIGTSTP)
        }
        active.withLock { active in
            if active { ss_relay_rearm_tstp() }
        }
        didResume()
    }
}
