import CPulse
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

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
final class MonitorSession: Sendable {
    /// The first wait before reconnecting, and the longest (the wait doubles).
    static let initialRetryDelay: pa_usec_t = 250_000      // 0.25 s
    static let maximumRetryDelay: pa_usec_t = 2_000_000    // 2 s: an engine waiting for the server waits for the monitor

    let loop: PulseHandle
    let clientName: String
    private let handler: @Sendable (SoundServerEvent) -> Void
    let state = LockedBox(MonitorConnection())
    /// Where what the session lowers is recorded (see ``DuckingRecord``); nil: nowhere.
    let record: DuckingRecordFile?
    /// Whether the mainloop was freed (``shutdown()``), held by whoever locks the mainloop from
    /// outside it (the ducking): a second caller (the exit's, beside the session's) waits until
    /// the first has heard the server, so the process does not end before it did, and none
    /// locks a mainloop that is gone.
    let lifecycle = LockedBox(false)
    /// This process's own playback streams, recorded back from the server and scanned for
    /// dropouts (``MonitorSession+OwnStreams``); nil: not listened to. Touched on the loop
    /// thread only, with the mainloop lock held.
    let ownStreams: LockedBox<OwnStreams>?

    private init(loop: PulseHandle, clientName: String, recordFolder: URL?, listensForDropouts: Bool,
                 handler: @escaping @Sendable (SoundServerEvent) -> Void) {
        self.loop = loop
        ownStreams = listensForDropouts ? LockedBox(OwnStreams()) : nil
        record = recordFolder.map(DuckingRecordFile.init(folder:))
        self.clientName = clientName
        self.handler = handler
    }

    /// The userdata pointer given to libpulse (backed by the reference taken in `launch()`).
    var userdata: UnsafeMutableRawPointer {
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
    static func launch(clientName: String, recordFolder: URL?, listensForDropouts: Bool,
                       handler: @escaping @Sendable (SoundServerEvent) -> Void) -> MonitorSession? {
        guard let mainloop = libpulse.threaded_mainloop_new() else { return nil }
        // Before start: libpulse names the thread it starts; named later, it renames the
        // calling thread instead (pa_thread_set_name uses prctl on Linux).
        libpulse.threaded_mainloop_set_name(mainloop, "pulse-monitor")
        guard libpulse.threaded_mainloop_start(mainloop) >= 0 else {
            libpulse.threaded_mainloop_free(mainloop)
            return nil
        }
        let session = MonitorSession(loop: PulseHandle(mainloop), clientName: clientName, recordFolder: recordFolder,
                                     listensForDropouts: listensForDropouts, handler: handler)
        // The reference owned by libpulse; released at the end of shutdown().
        let userdata = Unmanaged.passRetained(session).toOpaque()

        libpulse.threaded_mainloop_lock(mainloop)
        let timer = ss_timer_new_now(mainloop, { _, _, _, userdata in
            MonitorSession.from(userdata)?.retryTimerFired()
        }, userdata)
        session.state.withLock { $0.timer = timer.map(PulseHandle.init) }
        libpulse.threaded_mainloop_unlock(mainloop)
        return session
    }

    // MARK: Stopping

    /// See `SoundServerMonitor.stop()`. Called exactly once per session.
    func stop() {
        state.withLock { $0.stopped = true }
        guard libpulse.threaded_mainloop_in_thread(loop.raw) != 0 else {
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
        lifecycle.withLock { freed in
            libpulse.threaded_mainloop_lock(loop.raw)
            closeConnection()
            libpulse.threaded_mainloop_unlock(loop.raw)
            libpulse.threaded_mainloop_stop(loop.raw)
            libpulse.threaded_mainloop_free(loop.raw)
            freed = true
        }
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
        closeOwnStreams()
        if let context { retire(context.raw) }
        if let timer { ss_timer_free(loop.raw, timer.raw) }
        closeDefaultCheck()
    }

    /// Detaches our callbacks from a context, disconnects it and drops our
    /// reference. Disconnecting cancels its pending operations; libpulse never
    /// calls a cancelled operation's callback. Mainloop lock held.
    func retire(_ context: OpaquePointer) {
        libpulse.context_set_subscribe_callback(context, nil, nil)
        libpulse.context_set_state_callback(context, nil, nil)
        libpulse.context_disconnect(context)
        libpulse.context_unref(context)
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
        closeOwnStreams()
        if let previous { retire(previous.raw) }

        let api = libpulse.threaded_mainloop_get_api(loop.raw)
        guard let context = libpulse.context_new(api, clientName) else {
            // Only fails when out of memory; nothing sensible to retry with.
            state.withLock { $0.phase = .failed }
            emit([.unavailable(reason: "libpulse.context_new() failed")])
            return
        }
        state.withLock { $0.context = PulseHandle(context) }
        libpulse.context_set_state_callback(context, { context, userdata in
            guard let context else { return }
            MonitorSession.from(userdata)?.contextStateChanged(context)
        }, userdata)
        // May report FAILED through the state callback before returning;
        // connectionFailed() ignores the second report.
        if libpulse.context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            connectionFailed(context)
        }
    }

    private func contextStateChanged(_ context: OpaquePointer) {
        switch libpulse.context_get_state(context) {
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
            s.retryDelay = Self.initialRetryDelay
            return true
        }
        guard proceed else { return }
        let userdata = self.userdata
        libpulse.context_set_subscribe_callback(context, { context, type, index, userdata in
            guard let context else { return }
            MonitorSession.from(userdata)?.subscriptionEvent(context, type, index)
        }, userdata)
        unref(libpulse.context_subscribe(context, ss_monitor_subscription_mask(), nil, nil))
        unref(libpulse.context_get_server_info(context, { context, info, userdata in
            MonitorSession.from(userdata)?.serverInfoArrived(context, info)
        }, userdata))
        unref(libpulse.context_get_sink_info_list(context, { context, info, eol, userdata in
            MonitorSession.from(userdata)?.sinkInfoArrived(context, info, eol)
        }, userdata))
        unref(libpulse.context_get_sink_input_info_list(context, { context, info, eol, userdata in
            MonitorSession.from(userdata)?.sinkInputInfoArrived(context, info, eol, completesSync: true)
        }, userdata))
    }

    /// The context failed (before or after becoming ready). Reports the outage
    /// once, forgets the server's objects and arms the retry timer.
    private func connectionFailed(_ context: OpaquePointer) {
        let reason = libpulse.strerror(libpulse.context_errno(context)).map { String(cString: $0) } ?? "error \(libpulse.context_errno(context))"
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
            s.retryDelay = min(s.retryDelay * 2, Self.maximumRetryDelay)
            return (events, delay, s.timer)
        }
        guard let outcome else { return }
        closeOwnStreams()
        // Keep the failed context until the retry replaces it (it may be in the
        // middle of calling us), but stop hearing from it.
        libpulse.context_set_subscribe_callback(context, nil, nil)
        libpulse.context_set_state_callback(context, nil, nil)
        if let timer = outcome.timer {
            libpulse.context_rttime_restart(context, timer.raw, libpulse.rtclock_now() + outcome.delay)
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
                unref(libpulse.context_get_sink_info_by_index(context, index, { context, info, eol, userdata in
                    MonitorSession.from(userdata)?.sinkInfoArrived(context, info, eol)
                }, userdata))
                defaultMayHaveMoved(context)
            }
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if removal {
                emit(state.withLock { $0.removeSinkInput(context, index: index) })
                duckedStreamRemoved(context, index)
                ownStreamRemoved(index)
            } else {
                unref(libpulse.context_get_sink_input_info(context, index, { context, info, eol, userdata in
                    MonitorSession.from(userdata)?.sinkInputInfoArrived(context, info, eol, completesSync: false)
                }, userdata))
                defaultMayHaveMoved(context)
            }
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            unref(libpulse.context_get_server_info(context, { context, info, userdata in
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
        let address = string(libpulse.context_get_server(context)) ?? ""
        emit(state.withLock { s in
            if s.isLive(context) {
                (s.cookie, s.address) = (info.cookie, address)
                s.serverReplies += 1
            }
            return s.updateServer(context, server: server, defaultSink: string(info.default_sink_name))
        })

    }

    private func sinkInfoArrived(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_info>?, _ eol: Int32) {
        guard let context, eol == 0, let info = info?.pointee else { return }
        let sink = SoundServerMonitor.Sink(index: info.index,
                                           name: string(info.name) ?? "",
                                           description: string(info.description) ?? "",
                                           volume: Self.values(of: info.volume).max() ?? 0,
                                           flatVolume: info.flags.rawValue & PA_SINK_FLAT_VOLUME.rawValue != 0)
        emit(state.withLock { $0.upsertSink(context, sink) })
    }

    private func sinkInputInfoArrived(_ context: OpaquePointer?, _ info: UnsafePointer<pa_sink_input_info>?,
                                      _ eol: Int32, completesSync: Bool) {
        guard let context else { return }
        guard eol == 0, let info = info?.pointee else {
            // End of the list (or an error, e.g. the stream already vanished).
            if completesSync {
                emit(state.withLock { $0.finishSync(context) })
                duckingConnected(context)
                // On PipeWire the default is asked again every so often (MonitorSession+DefaultCheck).
                if state.withLock({ $0.server?.contains("PipeWire") ?? false }) {
                    defaultMayHaveMoved(context, after: DefaultCheck.pipeWirePeriod)
                }
            }
            return
        }
        let properties = info.proplist
        let input = SinkInput(
            index: info.index,
            sink: info.sink,
            isPhone: SinkInput.isCall(role: property(properties, ss_prop_media_role())),
            pid: property(properties, ss_prop_application_process_id()).flatMap { Int32($0) },
            application: property(properties, ss_prop_application_name()),
            volume: info.has_volume != 0 ? Self.values(of: info.volume) : [],
            volumeWritable: info.volume_writable != 0,
            restoreID: property(properties, ss_prop_stream_restore_id()),
            nodeLatency: property(properties, "node.latency").flatMap(ServerNodeLatency.init(property:)))
        emit(state.withLock { $0.upsertSinkInput(context, input) })
        duckingSaw(context, input)
        if input.pid == getpid() { listen(to: input, context, rate: info.sample_spec.rate, channels: info.sample_spec.channels) }
    }

    // MARK: Helpers

    /// Hands events to the handler, one by one, unless the session has been
    /// stopped meanwhile (possibly by the handler itself). Never called with
    /// `state` locked.
    func emit(_ events: [SoundServerEvent]) {
        for event in events {
            guard !state.withLock({ $0.stopped }) else { return }
            handler(event)
        }
    }

    /// Drops our reference to an operation; libpulse keeps it alive until done.
    func unref(_ operation: OpaquePointer?) {
        if let operation { libpulse.operation_unref(operation) }
    }

    func string(_ cString: UnsafePointer<CChar>?) -> String? {
        cString.map { String(cString: $0) }
    }

    func property(_ list: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> String? {
        guard let list, let key else { return nil }
        return string(libpulse.proplist_gets(list, key))
    }
}
