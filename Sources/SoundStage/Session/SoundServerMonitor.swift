import CPulse
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches a PulseAudio server over its own libpulse connection and reports
/// what happens to it: connection state, sinks, the default sink and
/// "phone" streams (sink inputs with `media.role == "phone"`).
///
/// ## Threading
/// The monitor runs a private `pa_threaded_mainloop`. Every event is delivered
/// on that loop's thread, one at a time, in the order the monitor observed it.
/// The handler runs while libpulse's mainloop lock is held, so it **must not
/// block**: no waiting on other threads, no synchronous hops to queues or
/// actors that might in turn wait for the monitor. Copy the event somewhere
/// and return. Calling the monitor itself from the handler is fine: the queries
/// (``isConnected``, ``defaultSink``, ``sinks``, ``sinkOfStreams(ofProcess:)``),
/// ``start()`` and ``stop()`` are all safe there (see ``stop()``).
///
/// The handler should not capture the monitor strongly: the monitor owns the
/// handler, so that would keep both alive until ``stop()`` is called.
///
/// ## Reconnection
/// When no server answers, or an established connection fails, the monitor
/// retries after 0.25 s, doubling the delay up to 4 s, until a connection comes
/// up or ``stop()`` is called. It never spawns a server (`PA_CONTEXT_NOAUTOSPAWN`).
/// The server address comes from the usual libpulse sources (`PULSE_SERVER`,
/// `client.conf`, `$XDG_RUNTIME_DIR/pulse/native`).
final class SoundServerMonitor: Sendable {
    /// A sink as the monitor knows it.
    struct Sink: Sendable, Hashable {
        /// The server's index for the sink (valid for this connection only).
        let index: UInt32
        /// The sink's name, e.g. `"alsa_output.pci-0000_00_1f.3.analog-stereo"`.
        let name: String
        /// The sink's human-readable description, e.g. `"Built-in Audio Analog Stereo"`.
        let description: String
    }

    private let clientName: String
    private let handler: @Sendable (SoundServerEvent) -> Void
    /// The running session, if any. A session owns one mainloop and lives from
    /// `start()` to `stop()`; a later `start()` creates a fresh one.
    private let current = Mutex<MonitorSession?>(nil)

    /// Creates a stopped monitor.
    ///
    /// - Parameters:
    ///   - clientName: The client name shown by the server (`pactl list clients`).
    ///   - onEvent: Called on the monitor's mainloop thread for every event, in order.
    ///     Must return quickly and must not block (see the type's documentation).
    init(clientName: String = "SoundStage session monitor",
                onEvent: @escaping @Sendable (SoundServerEvent) -> Void) {
        self.clientName = clientName
        self.handler = onEvent
    }

    deinit {
        stop()
    }

    /// Starts monitoring: creates the mainloop thread and makes the first
    /// connection attempt on it. Does nothing if already started. Never blocks on
    /// the server; the outcome arrives as ``SoundServerEvent/connected(server:defaultSink:)``
    /// or ``SoundServerEvent/unavailable(reason:)``.
    ///
    /// If libpulse cannot create or start its mainloop thread (out of resources),
    /// the monitor stays stopped.
    func start() {
        current.withLock { session in
            guard session == nil else { return }
            session = MonitorSession.launch(clientName: clientName, handler: handler)
        }
    }

    /// Stops monitoring and closes the connection. Idempotent; also called by `deinit`.
    ///
    /// No event is delivered after `stop()` returns. An event that was already
    /// being delivered on the mainloop thread when another thread called `stop()`
    /// finishes first: `stop()` waits for the handler to return.
    ///
    /// - Called from any other thread, `stop()` returns after the connection is
    ///   closed and the mainloop thread has exited.
    /// - Called from inside the event handler (that is, on the mainloop thread, which
    ///   cannot join itself), `stop()` marks the session stopped and returns at once;
    ///   a short-lived detached thread closes the connection and joins the loop thread
    ///   as soon as the handler returns. This cannot deadlock. `start()` may be called
    ///   right after; it creates a new, independent session.
    func stop() {
        let session = current.withLock { $0.take() }
        session?.stop()
    }

    /// `true` while a connection is up and its initial state has been read
    /// (from ``SoundServerEvent/connected(server:defaultSink:)`` until
    /// ``SoundServerEvent/serverLost`` or ``stop()``).
    var isConnected: Bool {
        session?.state.withLock { $0.phase == .up } ?? false
    }

    /// The name of the server's default sink, or `nil` when not connected or
    /// the server has none.
    var defaultSink: String? {
        session?.state.withLock { $0.phase == .up ? $0.defaultSink : nil } ?? nil
    }

    /// The sinks on the server, ordered by index; empty when not connected.
    var sinks: [Sink] {
        session?.state.withLock { s in
            s.phase == .up ? s.sinks.values.sorted { $0.index < $1.index } : []
        } ?? []
    }

    /// The names of the sinks that the sink inputs (playback streams) of process
    /// `pid` are playing to, according to their `application.process.id`
    /// property. Ordered by stream index, without duplicates; empty when the
    /// process has no stream or the monitor is not connected.
    ///
    /// Use `getpid()` to find the sink of this process's own OpenAL stream.
    func sinkOfStreams(ofProcess pid: Int32) -> [String] {
        session?.state.withLock { s in
            guard s.phase == .up else { return [] }
            var names: [String] = []
            for input in s.inputs.values.sorted(by: { $0.index < $1.index }) where input.pid == pid {
                if let name = s.sinks[input.sink]?.name, !names.contains(name) {
                    names.append(name)
                }
            }
            return names
        } ?? []
    }

    private var session: MonitorSession? {
        current.withLock { $0 }
    }
}

// MARK: - Implementation

/// A libpulse object pointer (`pa_threaded_mainloop*`, `pa_context*`,
/// `pa_time_event*`) that can be stored in `Sendable` state.
///
/// `@unchecked Sendable` is safe here because the wrapper only carries the
/// address: the pointee is never touched through it except by code that holds
/// the owning `pa_threaded_mainloop` lock (or runs on that loop's thread, which
/// holds it), which is exactly libpulse's own threading rule. The pointer value
/// itself is immutable.
private struct PulseHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
}

private let initialRetryDelay: pa_usec_t = 250_000      // 0.25 s
private let maximumRetryDelay: pa_usec_t = 4_000_000    // 4 s

/// A sink input as the monitor tracks it.
private struct SinkInput: Sendable {
    let index: UInt32
    let sink: UInt32
    let isPhone: Bool
    let pid: Int32?
    let application: String?
}

/// All mutable state of a session. Always accessed through `MonitorSession.state`.
///
/// Writers: the mainloop thread (libpulse callbacks) and `shutdown()`, both with
/// the mainloop lock held; `stopped` is also set by `stop()` without it.
/// Readers: any thread (queries).
private struct MonitorConnection {
    enum Phase { case idle, connecting, syncing, up, failed }

    /// Set by `stop()`; after that nothing is emitted and no new work is started.
    var stopped = false
    var phase = Phase.idle
    /// The current context, if any; a failed one is kept until the retry replaces it.
    var context: PulseHandle?
    /// The retry timer; created at launch, freed by `shutdown()`.
    var timer: PulseHandle?
    var retryDelay = initialRetryDelay
    /// The current outage has been reported (by `.serverLost` or `.unavailable`).
    var outageReported = false
    /// The current outage began with `.serverLost`: announce `.serverReturned`.
    var lostConnection = false

    var server: String?
    var defaultSink: String?
    var sinks: [UInt32: SoundServerMonitor.Sink] = [:]
    var inputs: [UInt32: SinkInput] = [:]

    /// `true` if `context` is the current, usable (syncing or up) connection.
    func isLive(_ context: OpaquePointer) -> Bool {
        !stopped && self.context?.raw == context && (phase == .syncing || phase == .up)
    }

    var activePhoneStreams: [UInt32] {
        inputs.values.filter(\.isPhone).map(\.index).sorted()
    }

    mutating func forgetServer() {
        server = nil
        defaultSink = nil
        sinks = [:]
        inputs = [:]
    }

    mutating func updateServer(_ context: OpaquePointer, server: String, defaultSink: String?) -> [SoundServerEvent] {
        guard isLive(context) else { return [] }
        self.server = server
        let previous = self.defaultSink
        self.defaultSink = defaultSink
        guard phase == .up, previous != defaultSink else { return [] }
        return [.defaultSinkChanged(from: previous, to: defaultSink)]
    }

    mutating func upsertSink(_ context: OpaquePointer, _ sink: SoundServerMonitor.Sink) -> [SoundServerEvent] {
        guard isLive(context) else { return [] }
        let previous = sinks.updateValue(sink, forKey: sink.index)
        guard phase == .up, previous == nil else { return [] }
        return [.sinkAdded(name: sink.name, description: sink.description)]
    }

    mutating func removeSink(_ context: OpaquePointer, index: UInt32) -> [SoundServerEvent] {
        guard isLive(context), let removed = sinks.removeValue(forKey: index), phase == .up else { return [] }
        return [.sinkRemoved(name: removed.name)]
    }

    mutating func upsertSinkInput(_ context: OpaquePointer, _ input: SinkInput) -> [SoundServerEvent] {
        guard isLive(context) else { return [] }
        let wasPhone = inputs.updateValue(input, forKey: input.index)?.isPhone ?? false
        guard phase == .up, wasPhone != input.isPhone else { return [] }
        return input.isPhone
            ? [.phoneStreamStarted(index: input.index, application: input.application)]
            : [.phoneStreamEnded(index: input.index)]
    }

    mutating func removeSinkInput(_ context: OpaquePointer, index: UInt32) -> [SoundServerEvent] {
        guard isLive(context), let removed = inputs.removeValue(forKey: index),
              phase == .up, removed.isPhone else { return [] }
        return [.phoneStreamEnded(index: index)]
    }

    /// The initial queries are answered: the connection counts as up.
    mutating func finishSync(_ context: OpaquePointer) -> [SoundServerEvent] {
        guard isLive(context), phase == .syncing else { return [] }
        phase = .up
        outageReported = false
        var events: [SoundServerEvent] = []
        if lostConnection {
            lostConnection = false
            events.append(.serverReturned)
        }
        events.append(.connected(server: server ?? "unknown", defaultSink: defaultSink))
        for index in activePhoneStreams {
            events.append(.phoneStreamStarted(index: index, application: inputs[index]?.application))
        }
        return events
    }
}

/// One run of the monitor: a `pa_threaded_mainloop`, the connection(s) made on
/// it, and the tables read from the server.
///
/// Lifetime: `launch()` takes one strong reference on behalf of libpulse
/// (`Unmanaged.passRetained`); its address is the userdata of every libpulse
/// callback and timer registered by the session. `shutdown()` drops it only
/// after the contexts are disconnected (which cancels their pending operations
/// without calling them), the timer is freed and the loop thread has been
/// joined, so no callback can see a dangling pointer.
///
/// Lock order: mainloop lock, then `state`. `state` is never held while
/// calling into libpulse (some libpulse calls invoke callbacks synchronously)
/// or while calling the event handler.
private final class MonitorSession: Sendable {
    private let loop: PulseHandle
    private let clientName: String
    private let handler: @Sendable (SoundServerEvent) -> Void
    let state = Mutex(MonitorConnection())

    private init(loop: PulseHandle, clientName: String, handler: @escaping @Sendable (SoundServerEvent) -> Void) {
        self.loop = loop
        self.clientName = clientName
        self.handler = handler
    }

    /// The userdata pointer given to libpulse (backed by the reference taken in `launch()`).
    private var userdata: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }

    /// Recovers the session from a libpulse userdata pointer.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> MonitorSession? {
        guard let userdata else { return nil }
        return Unmanaged<MonitorSession>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// Creates the mainloop, starts its thread and schedules the first connection
    /// attempt on it (so that every event, even an immediate failure, is delivered
    /// on the loop thread).
    static func launch(clientName: String, handler: @escaping @Sendable (SoundServerEvent) -> Void) -> MonitorSession? {
        guard let mainloop = pa_threaded_mainloop_new() else { return nil }
        // Before start: libpulse names the thread it starts; named later, it renames the
        // calling thread instead (pa_thread_set_name uses prctl on Linux).
        pa_threaded_mainloop_set_name(mainloop, "pulse-monitor")
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            pa_threaded_mainloop_free(mainloop)
            return nil
        }
        let session = MonitorSession(loop: PulseHandle(mainloop), clientName: clientName, handler: handler)
        // The reference owned by libpulse; released at the end of shutdown().
        let userdata = Unmanaged.passRetained(session).toOpaque()

        pa_threaded_mainloop_lock(mainloop)
        let timer = ss_timer_new_now(mainloop, { _, _, _, userdata in
            MonitorSession.from(userdata)?.retryTimerFired()
        }, userdata)
        session.state.withLock { $0.timer = timer.map(PulseHandle.init) }
        pa_threaded_mainloop_unlock(mainloop)
        return session
    }

    // MARK: Stopping

    /// See `SoundServerMonitor.stop()`. Called exactly once per session.
    func stop() {
        state.withLock { $0.stopped = true }
        guard pa_threaded_mainloop_in_thread(loop.raw) != 0 else {
            shutdown()
            return
        }
        // We are on the loop thread (inside a callback, so the mainloop lock is
        // held). That thread cannot stop and join itself: hand the teardown to a
        // detached thread. It blocks on the mainloop lock until the current
        // callback has returned. The thread owns one extra reference to self.
        let argument = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<MonitorSession>.fromOpaque(argument).takeRetainedValue().shutdown()
            return nil
        }, argument)
        if result == 0 {
            pthread_detach(thread)
        } else {
            // No thread available: at least drop the server connection now (we
            // hold the lock). The idle loop thread and its reference are leaked.
            Unmanaged<MonitorSession>.fromOpaque(argument).release()
            closeConnection()
        }
    }

    /// Closes the connection, stops and frees the mainloop and releases the
    /// reference taken in `launch()`. Must not run on the loop thread. The
    /// caller holds its own reference, so `self` outlives this call.
    private func shutdown() {
        pa_threaded_mainloop_lock(loop.raw)
        closeConnection()
        pa_threaded_mainloop_unlock(loop.raw)
        pa_threaded_mainloop_stop(loop.raw)
        pa_threaded_mainloop_free(loop.raw)
        Unmanaged.passUnretained(self).release()
    }

    /// Disconnects the context and frees the retry timer. Mainloop lock held.
    private func closeConnection() {
        let (context, timer) = state.withLock { s in
            defer {
                s.context = nil
                s.timer = nil
                s.phase = .idle
                s.forgetServer()
            }
            return (s.context, s.timer)
        }
        if let context { retire(context.raw) }
        if let timer { ss_timer_free(loop.raw, timer.raw) }
    }

    /// Detaches our callbacks from a context, disconnects it and drops our
    /// reference. Disconnecting cancels its pending operations; libpulse never
    /// calls a cancelled operation's callback. Mainloop lock held.
    private func retire(_ context: OpaquePointer) {
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
    }

    // MARK: Connecting (mainloop thread)

    /// The retry timer fired (or the first attempt is due): replace the old
    /// context, if any, with a new one and connect it.
    private func retryTimerFired() {
        let (proceed, previous): (Bool, PulseHandle?) = state.withLock { s in
            guard !s.stopped else { return (false, nil) }
            defer {
                s.context = nil
                s.phase = .connecting
            }
            return (true, s.context)
        }
        guard proceed else { return }
        if let previous { retire(previous.raw) }

        let api = pa_threaded_mainloop_get_api(loop.raw)
        guard let context = pa_context_new(api, clientName) else {
            // Only fails when out of memory; nothing sensible to retry with.
            state.withLock { $0.phase = .failed }
            emit([.unavailable(reason: "pa_context_new() failed")])
            return
        }
        state.withLock { $0.context = PulseHandle(context) }
        pa_context_set_state_callback(context, { context, userdata in
            guard let context else { return }
            MonitorSession.from(userdata)?.contextStateChanged(context)
        }, userdata)
        // May report FAILED through the state callback before returning;
        // connectionFailed() ignores the second report.
        if pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            connectionFailed(context)
        }
    }

    private func contextStateChanged(_ context: OpaquePointer) {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            contextReady(context)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            connectionFailed(context)
        default:
            break
        }
    }

    /// Subscribes and asks for the initial state. The replies come back in the
    /// order asked; the end of the sink-input list completes the sync.
    private func contextReady(_ context: OpaquePointer) {
        let proceed = state.withLock { s in
            guard !s.stopped, s.context?.raw == context, s.phase == .connecting else { return false }
            s.phase = .syncing
            s.retryDelay = initialRetryDelay
            return true
        }
        guard proceed else { return }
        let userdata = self.userdata
        pa_context_set_subscribe_callback(context, { context, type, index, userdata in
            guard let context else { return }
            MonitorSession.from(userdata)?.subscriptionEvent(context, type, index)
        }, userdata)
        unref(pa_context_subscribe(context, ss_monitor_subscription_mask(), nil, nil))
        unref(pa_context_get_server_info(context, { context, info, userdata in
            MonitorSession.from(userdata)?.serverInfoArrived(context, info)
        }, userdata))
        unref(pa_context_get_sink_info_list(context, { context, info, eol, userdata in
            MonitorSession.from(userdata)?.sinkInfoArrived(context, info, eol)
        }, userdata))
        unref(pa_context_get_sink_input_info_list(context, { context, info, eol, userdata in
            MonitorSession.from(userdata)?.sinkInputInfoArrived(context, info, eol, completesSync: true)
        }, userdata))
    }

    /// The context failed (before or after becoming ready). Reports the outage
    /// once, forgets the server's objects and arms the retry timer.
    private func connectionFailed(_ context: OpaquePointer) {
        let reason = String(cString: pa_strerror(pa_context_errno(context)))
        let outcome: (events: [SoundServerEvent], delay: pa_usec_t, timer: PulseHandle?)? = state.withLock { s in
            guard !s.stopped, s.context?.raw == context, s.phase != .failed else { return nil }
            var events: [SoundServerEvent] = []
            if s.phase == .up {
                events.append(.serverLost)
                events += s.activePhoneStreams.map { .phoneStreamEnded(index: $0) }
                s.lostConnection = true
                s.outageReported = true
            } else if !s.outageReported {
                events.append(.unavailable(reason: reason))
                s.outageReported = true
            }
            s.phase = .failed
            s.forgetServer()
            let delay = s.retryDelay
            s.retryDelay = min(s.retryDelay * 2, maximumRetryDelay)
            return (events, delay, s.timer)
        }
        guard let outcome else { return }
        // Keep the failed context until the retry replaces it (it may be in the
        // middle of calling us), but stop hearing from it.
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_set_state_callback(context, nil, nil)
        if let timer = outcome.timer {
            pa_context_rttime_restart(context, timer.raw, pa_rtclock_now() + outcome.delay)
        }
        emit(outcome.events)
    }

    // MARK: Server notifications and replies (mainloop thread)

    private func subscriptionEvent(_ context: OpaquePointer, _ type: pa_subscription_event_type_t, _ index: UInt32) {
        guard state.withLock({ $0.isLive(context) }) else { return }
        let removal = ss_event_is_removal(type) != 0
        let userdata = self.userdata
        switch ss_event_facility(type) {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
            if removal {
                emit(state.withLock { $0.removeSink(context, index: index) })
            } else {
                unref(pa_context_get_sink_info_by_index(context, index, { context, info, eol, userdata in
                    MonitorSession.from(userdata)?.sinkInfoArrived(context, info, eol)
                }, userdata))
            }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if removal {
                emit(state.withLock { $0.removeSinkInput(context, index: index) })
            } else {
                unref(pa_context_get_sink_input_info(context, index, { context, info, eol, userdata in
                    MonitorSession.from(userdata)?.sinkInputInfoArrived(context, info, eol, completesSync: false)
                }, userdata))
            }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            unref(pa_context_get_server_info(context, { context, info, userdata in
                MonitorSession.from(userdata)?.serverInfoArrived(context, info)
            }, userdata))
        default:
            break
        }
    }

    private func serverInfoArrived(_ context: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?) {
        guard let context, let info = info?.pointee else { return }
        let name = string(info.server_name) ?? "unknown"
        let server = string(info.server_version).map { "\(name) \($0)" } ?? name
        emit(state.withLock { $0.updateServer(context, server: server, defaultSink: string(info.default_sink_name)) })
    }

    private func sinkInfoArrived(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, _ eol: Int32) {
        guard let context, eol == 0, let info = info?.pointee else { return }
        let sink = SoundServerMonitor.Sink(index: info.index,
                                           name: string(info.name) ?? "",
                                           description: string(info.description) ?? "")
        emit(state.withLock { $0.upsertSink(context, sink) })
    }

    private func sinkInputInfoArrived(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?,
                                      _ eol: Int32, completesSync: Bool) {
        guard let context else { return }
        guard eol == 0, let info = info?.pointee else {
            // End of the list (or an error, e.g. the stream already vanished).
            if completesSync {
                emit(state.withLock { $0.finishSync(context) })
            }
            return
        }
        let properties = info.proplist
        let input = SinkInput(
            index: info.index,
            sink: info.sink,
            isPhone: property(properties, ss_prop_media_role()) == "phone",
            pid: property(properties, ss_prop_application_process_id()).flatMap { Int32($0) },
            application: property(properties, ss_prop_application_name()))
        emit(state.withLock { $0.upsertSinkInput(context, input) })
    }

    // MARK: Helpers

    /// Hands events to the handler, one by one, unless the session has been
    /// stopped meanwhile (possibly by the handler itself). Never called with
    /// `state` locked.
    private func emit(_ events: [SoundServerEvent]) {
        for event in events {
            guard !state.withLock({ $0.stopped }) else { return }
            handler(event)
        }
    }

    /// Drops our reference to an operation; libpulse keeps it alive until done.
    private func unref(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }

    private func string(_ cString: UnsafePointer<CChar>?) -> String? {
        cString.map { String(cString: $0) }
    }

    private func property(_ list: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> String? {
        guard let list, let key else { return nil }
        return string(pa_proplist_gets(list, key))
    }
}
