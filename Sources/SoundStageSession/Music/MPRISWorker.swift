import CSystemd
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// The thread that talks MPRIS for a ``SystemMusicPlayer``: it owns the sd-bus connection to
/// the session bus, finds the players (`ListNames`, then `GetAll` on each), follows them
/// (`NameOwnerChanged`, `PropertiesChanged`, `Seeked`) and sends the commands the game asks
/// for. Every call to a player is asynchronous and bounded by the player's answer timeout,
/// so a player that hangs delays nothing but its own answer.
///
/// `@unchecked Sendable`: sd-bus objects are not thread-safe. After ``start(_:)`` spawns the
/// thread only that thread touches the bus and the mutable fields here (`pending`, the
/// discovery counters); other threads hand it work through `jobs`, under its lock, and wake
/// it with the eventfd.
final class MPRISWorker: @unchecked Sendable {
    /// Work for the bus thread; called with nil when the thread stopped before it ran.
    typealias Job = @Sendable (MPRISWorker?) -> Void

    let bus: OpaquePointer
    /// A second connection for the game's commands to the players, and their answers only:
    /// no signal is routed to it, so an answer never waits behind a backlog of them (a peer
    /// flooding the bus, or a bus thread slowed on a loaded machine, as a pause answered 0.88 s
    /// late beside a flood of 67,600 signals a second and another test).
    let commands: OpaquePointer
    private let wake: OwnedFD
    private let timeout: UInt64
    private(set) weak var owner: SystemMusicPlayer?
    private let jobs = LockedBox<(queue: [Job], stopping: Bool)>(([], false))
    /// Calls awaiting their answer, kept alive until it comes (sd-bus holds them unretained).
    private var pending: [ObjectIdentifier: PendingCall] = [:]
    /// Players asked for their properties during the first look, not yet answered.
    var discovering = 0
    var listed = false
    /// When the playing players' positions are read next (monotonic microseconds).
    private var nextPositionRead: UInt64 = 0
    /// How often they are read: 0.5 s.
    static let positionReadInterval: UInt64 = 500_000
    /// What is being asked of each player now (``Asking``): a peer's announcements while one
    /// question is unanswered ask it nothing more, however many it sends.
    var asking = Set<Asking>()
    /// How many messages one turn of the bus thread takes before it looks at the game's
    /// commands again: a peer that floods the bus (measured: PropertiesChanged as fast as one
    /// core sends them) never leaves the incoming queue empty, and a turn that emptied it first
    /// answered no command.
    static let messagesPerTurn = 64

    /// A question a player is being asked.
    struct Asking: Hashable {
        /// The player's bus name.
        var name: String
        /// Everything about it (``discover(_:first:)``), or its position (``refreshPosition(_:)``).
        var everything: Bool
    }

    private init(bus: OpaquePointer, commands: OpaquePointer, wake: OwnedFD, timeout: UInt64, owner: SystemMusicPlayer) {
        self.bus = bus
        self.commands = commands
        self.wake = wake
        self.timeout = timeout
        self.owner = owner
    }

    /// Connects (to `address`, or the user's session bus) and starts the thread; the players
    /// are found on it. Throws the reason there is no bus.
    static func start(address: String?, timeout: Duration, owner: SystemMusicPlayer) throws(SoundStageError) -> (MPRISWorker, WorkerThread) {
        func failure(_ reason: String) -> SoundStageError {
            SoundStageError(.musicPlayerUnavailable, operation: "SystemMusicPlayer", object: address ?? "the session bus", reason: reason)
        }
        guard ss_systemd() != nil else { throw failure(OptionalLibrary.systemd.missing(ss_systemd_error())) }
        let bus = try connect(address, failure)
        let commands: OpaquePointer
        do {
            commands = try connect(address, failure)
        } catch {
            _ = libsystemd.close_unref(bus)
            throw error
        }
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard fd >= 0 else {
            _ = libsystemd.close_unref(bus)
            _ = libsystemd.close_unref(commands)
            throw failure("eventfd failed (\(errnoDescription(errno)))")
        }
        // Within 1 ms...1 h whatever was asked (a negative or huge duration must not trap here).
        let bounded = max(.milliseconds(1), min(timeout, .seconds(3_600)))
        let micros = UInt64(bounded.components.seconds) * 1_000_000 + UInt64(bounded.components.attoseconds / 1_000_000_000_000)
        let worker = MPRISWorker(bus: bus, commands: commands, wake: OwnedFD(fd), timeout: micros, owner: owner)
        do {
            let thread = try WorkerThread.spawn { worker.run() }
            return (worker, thread)
        } catch {
            _ = libsystemd.close_unref(bus)
            _ = libsystemd.close_unref(commands)
            throw failure("pthread_create failed (\(errnoDescription(error.code)))")
        }
    }

    /// A connection to the bus at `address` (the user's session bus when nil).
    private static func connect(_ address: String?, _ failure: (String) -> SoundStageError) throws(SoundStageError) -> OpaquePointer {
        var raw: OpaquePointer?
        if let address {
            guard libsystemd.new_bus(&raw) >= 0, let made = raw else { throw failure("sd_bus_new failed") }
            let r1 = libsystemd.set_address(made, address), r2 = libsystemd.set_bus_client(made, 1)
            let r3 = r1 >= 0 && r2 >= 0 ? libsystemd.start(made) : min(r1, r2)
            guard r3 >= 0 else {
                _ = libsystemd.close_unref(made)
                throw failure("cannot connect (\(errnoDescription(-r3)))")
            }
        } else {
            let r = libsystemd.open_user(&raw)
            guard r >= 0, raw != nil else { throw failure("no session bus (\(errnoDescription(-r)))") }
        }
        guard let bus = raw else { throw failure("no session bus") }
        return bus
    }

    /// Runs `job` on the bus thread (or with nil at once when the thread has stopped).
    func submit(_ job: @escaping Job) {
        let stopped = jobs.withLock { j -> Bool in
            if j.stopping { return true }
            j.queue.append(job)
            return false
        }
        if stopped { job(nil); return }
        var one: UInt64 = 1
        _ = write(wake.fd, &one, MemoryLayout<UInt64>.size)
    }

    /// Asks the thread to stop; it closes the bus and the jobs left get nil.
    func requestStop() {
        jobs.withLock { $0.stopping = true }
        var one: UInt64 = 1
        _ = write(wake.fd, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: - The thread

    private func run() {
        defer { shutDown() }
        guard subscribe() else { return }
        // The bus daemon itself answers this (and GetNameOwner): sd-bus's own timeout, not a
        // player's, so that a daemon slow to start on a loaded machine is waited for.
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames",
             timeout: 0) { [self] reply in
            switch reply {
            case .answered(let reader, _):
                let names = (reader.strings() ?? []).filter { $0.hasPrefix(MusicPlayerInfo.prefix) }
                // Counted before any is asked: a call that fails at once must not end the look.
                discovering += names.count
                for name in names { discover(name, first: true) }
                listed = true
                finishDiscoveryIfDone()
            case .failed(let reason, _):
                listed = true
                owner?.connectionEnded("the session bus did not list its names (\(reason))")
            }
        }
        while true {
            // The commands' answers first, all of them (nothing else comes on that connection).
            var r: Int32, taken = 0
            repeat { r = libsystemd.process(commands, nil) } while r > 0
            if r >= 0 {
                repeat {
                    r = libsystemd.process(bus, nil)
                    taken += 1
                } while r > 0 && taken < Self.messagesPerTurn
            }
            let more = r > 0
            if r < 0 {
                owner?.connectionEnded("the session bus connection was lost (\(errnoDescription(-r)))")
                return
            }
            let (work, stopping) = jobs.withLock { j -> ([Job], Bool) in
                defer { j.queue.removeAll() }
                return (j.queue, j.stopping)
            }
            if stopping {
                for job in work { job(nil) }
                return
            }
            for job in work { job(self) }
            // The jobs may have queued messages, and more may be waiting: processed first.
            if !work.isEmpty || more { continue }

            // Players do not announce their position as it moves: it is read again now and
            // then while they play, so that a player late to start (or slowed) is followed.
            let now = monotonicMicroseconds()
            if now >= nextPositionRead {
                for name in owner?.playingPlayers() ?? [] { refreshPosition(name) }
                nextPositionRead = now + Self.positionReadInterval
                continue
            }
            let fd = libsystemd.get_fd(bus), events = libsystemd.get_events(bus)
            let commandsFD = libsystemd.get_fd(commands), commandsEvents = libsystemd.get_events(commands)
            var deadline: UInt64 = 0, commandsDeadline: UInt64 = 0
            guard fd >= 0, events >= 0, libsystemd.get_timeout(bus, &deadline) >= 0,
                  commandsFD >= 0, commandsEvents >= 0, libsystemd.get_timeout(commands, &commandsDeadline) >= 0 else {
                owner?.connectionEnded("the session bus connection was lost")
                return
            }
            deadline = min(deadline, commandsDeadline, nextPositionRead)
            var fds = [pollfd(fd: fd, events: Int16(truncatingIfNeeded: events), revents: 0),
                       pollfd(fd: commandsFD, events: Int16(truncatingIfNeeded: commandsEvents), revents: 0),
                       pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 3, Self.pollTimeout(deadline))
            if fds[2].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake.fd, &count, MemoryLayout<UInt64>.size)
            }
        }
    }

    private func shutDown() {
        let left = jobs.withLock { j -> [Job] in
            j.stopping = true
            defer { j.queue.removeAll() }
            return j.queue
        }
        for job in left { job(nil) }
        // Not flushed: the commands are sent as they are made, and a flush can wait for a
        // socket nobody reads (a deinit joins this thread).
        _ = libsystemd.close_unref(bus)
        _ = libsystemd.close_unref(commands)
        // The bus (and the slots of the calls still out) is gone: nothing calls back now; the
        // calls still waiting are told.
        let waiting = pending.values
        pending.removeAll()
        for call in waiting { call.then(.failed(reason: "the music player was shut down", timedOut: false)) }
    }

    private static func pollTimeout(_ deadline: UInt64) -> Int32 {
        if deadline == UInt64.max { return -1 }
        let now = monotonicMicroseconds()
        if deadline <= now { return 0 }
        return Int32(min((deadline - now + 999) / 1000, UInt64(Int32.max)))
    }

    /// A reply: its arguments to read and who sent it, or why there is none.
    enum Reply {
        case answered(BusReader, sender: String?)
        case failed(reason: String, timedOut: Bool)
    }

    /// A method call whose answer `then` gets on this thread, within the timeout.
    /// `timeout` in microseconds: nil for a player's (``SystemMusicPlayer/answerTimeout``), 0
    /// for sd-bus's own (25 s), for what the bus daemon answers.
    func call(destination: String, path: String, interface: String, member: String,
                      append: (OpaquePointer) -> Int32 = { _ in 0 }, timeout: UInt64? = nil, onCommands: Bool = false,
                      then: @escaping (Reply) -> Void) {
        let connection = onCommands ? commands : bus
        var raw: OpaquePointer?
        var r = libsystemd.message_new_method_call(connection, &raw, destination, path, interface, member)
        guard r >= 0, let message = raw else {
            then(.failed(reason: "cannot make the call \(member) (\(errnoDescription(-r)))", timedOut: false))
            return
        }
        defer { _ = libsystemd.message_unref(message) }
        r = append(message)
        guard r >= 0 else {
            then(.failed(reason: "cannot write the arguments of \(member) (\(errnoDescription(-r)))", timedOut: false))
            return
        }
        let call = PendingCall(then)
        pending[ObjectIdentifier(call)] = call
        r = libsystemd.call_async(connection, nil, message, { reply, ud, _ in
            guard let ud else { return 0 }
            // Kept alive through the call: completing it drops the worker's reference.
            let call = Unmanaged<PendingCall>.fromOpaque(ud).takeUnretainedValue()
            withExtendedLifetime(call) { call.complete(reply) }
            return 0
        }, Unmanaged.passUnretained(call).toOpaque(), timeout ?? self.timeout)
        guard r >= 0 else {
            pending[ObjectIdentifier(call)] = nil
            then(.failed(reason: "cannot send \(member) (\(errnoDescription(-r)))", timedOut: false))
            return
        }
        call.finished = { [unowned self, unowned call] in pending[ObjectIdentifier(call)] = nil }
    }

    /// One call out: what to do with its answer.
    private final class PendingCall {
        let then: (Reply) -> Void
        var finished: (() -> Void)?
        init(_ then: @escaping (Reply) -> Void) { self.then = then }

        func complete(_ reply: OpaquePointer?) {
            defer { finished?() }
            guard let reply else { return then(.failed(reason: "no reply", timedOut: false)) }
            if libsystemd.message_is_method_error(reply, nil) != 0 {
                let errno = libsystemd.message_get_errno(reply)
                let name = ss_bus_error_name(reply).map { String(cString: $0) } ?? "error"
                let text = ss_bus_error_message(reply).map { String(cString: $0) }
                // sd-bus's own timeout is a NoReply "Method call timed out"; the daemon's NoReply
                // for a peer that left without answering is a failure, not a hang.
                let timedOut = name == "org.freedesktop.DBus.Error.Timeout"
                    || (name == "org.freedesktop.DBus.Error.NoReply" && errno == ETIMEDOUT && (text ?? "").contains("timed out"))
                let reason = timedOut ? "no answer in time" : "\(name)" + (text.map { ": \($0)" } ?? "")
                return then(.failed(reason: reason, timedOut: timedOut))
            }
            then(.answered(BusReader(message: reply), sender: libsystemd.message_get_sender(reply).map { String(cString: $0) }))
        }
    }
}
