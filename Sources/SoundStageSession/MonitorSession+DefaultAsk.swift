import CPulse

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// The server's default sink asked now and waited for, by an engine about to open a device in
/// place of a lost one (``SoundServerMonitor/output``).
///
/// On PulseAudio the monitor's own connection is asked: a reply comes after every event the
/// server sent before it, so it is at least as new as the monitor's tables. On PipeWire a
/// connection made for the question is: the monitor's own may name an old default for as long
/// as it is asked (``DefaultCheck``). In 2 of 12 runs of the sink-unloaded test on PipeWire
/// 0.3.65 it named one after the sink it named was gone, although the check had heard the new
/// default 0.2 s after the loss: the engine waited for "the placeholder" the whole 10 s, every
/// retry answered so.
/// What ``MonitorSession/askDefaultSink(timeout:)`` learnt.
enum DefaultSinkAnswer: Equatable {
    /// The server's default sink (nil: it has none).
    case said(String?)
    /// No answer: the monitor is not connected.
    case unconnected
    /// The question was asked and the server did not answer in time: a server busy with
    /// something else (PulseAudio moving every stream off a sink it unloads), or stopped. In
    /// a CI run a move off an unloaded sink took 1.45 s where this was read as the server
    /// gone: its waits doubled (50, 100, 200, 400 ms) for a server that answered soon after.
    case late
    /// The monitor was busy the whole wait (its lock held by a ducking change).
    case busy
}

extension MonitorSession {
    /// The longest wait for a connection made for the question: its connection and its
    /// answer.
    static let freshAskTimeout: Duration = .milliseconds(300)

    /// The server's default sink as it says now (`.said(nil)` when it has none);
    /// `.unconnected` when the monitor is not connected; `.late` when no answer came in time
    /// (`timeout` on the monitor's connection, ``freshAskTimeout`` on a connection of its
    /// own); `.busy` when the monitor
    /// was busy for `timeout` (its ducking starts and stops hold it up to 2 s, waiting on the
    /// server: the engine's service thread asks, and must not wait that long). Not on the loop
    /// thread (it would wait for itself).
    func askDefaultSink(timeout: Duration) -> DefaultSinkAnswer {
        guard libpulse.threaded_mainloop_in_thread(loop.raw) == 0 else { return .unconnected }
        // Held while the answer is awaited: the mainloop is not freed under a question.
        let answer = lifecycle.withLock(waitingAtMost: timeout) { freed -> DefaultSinkAnswer in
            guard !freed else { return .unconnected }
            let answer = LockedBox<String??>(nil)
            libpulse.threaded_mainloop_lock(loop.raw)
            let (context, pipeWire) = state.withLock { s in
                (!s.stopped && s.phase == .up ? s.context : nil, s.server?.contains("PipeWire") == true)
            }
            var fresh: OpaquePointer?
            if let context {
                if pipeWire {
                    fresh = askOnNewConnection(into: answer)
                } else {
                    askOnMonitorConnection(context.raw, into: answer)
                }
            }
            libpulse.threaded_mainloop_unlock(loop.raw)
            guard context != nil else { return .unconnected }
            let deadline = ContinuousClock.now + (pipeWire ? Self.freshAskTimeout : timeout)
            var said: String??
            while ContinuousClock.now < deadline {
                said = answer.withLock { $0 }
                if said != nil { break }
                usleep(500)
            }
            if let fresh {
                libpulse.threaded_mainloop_lock(loop.raw)
                retire(fresh)
                libpulse.threaded_mainloop_unlock(loop.raw)
            }
            return said.map { .said($0) } ?? .late
        }
        return answer ?? .busy
    }

    /// Asks over the monitor's connection. Mainloop lock held.
    private func askOnMonitorConnection(_ context: OpaquePointer, into answer: LockedBox<String??>) {
        // The reply's reference, released by the reply; a connection that fails first
        // cancels the question without calling it, and leaves the box behind.
        let box = Unmanaged.passRetained(answer).toOpaque()
        let asked = libpulse.context_get_server_info(context, { _, info, box in
            guard let box else { return }
            let answer = Unmanaged<LockedBox<String??>>.fromOpaque(box).takeRetainedValue()
            let name = info?.pointee.default_sink_name.map { String(cString: $0) }
            answer.withLock { $0 = .some(name) }
        }, box)
        if let asked { libpulse.operation_unref(asked) } else { Unmanaged<LockedBox<String??>>.fromOpaque(box).release() }
    }

    /// Connects anew and asks once it is ready; the connection, returned, is the caller's to
    /// retire (with the mainloop lock held, so no callback runs after it), and `answer`
    /// outlives it: the callbacks hold it unretained. Mainloop lock held.
    private func askOnNewConnection(into answer: LockedBox<String??>) -> OpaquePointer? {
        let api = libpulse.threaded_mainloop_get_api(loop.raw)
        guard let fresh = libpulse.context_new(api, clientName) else { return nil }
        let box = Unmanaged.passUnretained(answer).toOpaque()
        libpulse.context_set_state_callback(fresh, { fresh, box in
            guard let fresh, let box, libpulse.context_get_state(fresh) == PA_CONTEXT_READY else { return }
            let asked = libpulse.context_get_server_info(fresh, { _, info, box in
                guard let box else { return }
                let name = info?.pointee.default_sink_name.map { String(cString: $0) }
                Unmanaged<LockedBox<String??>>.fromOpaque(box).takeUnretainedValue().withLock { $0 = .some(name) }
            }, box)
            if let asked { libpulse.operation_unref(asked) }
        }, box)
        // A failure leaves the answer unset: the caller waits its timeout and has none.
        _ = libpulse.context_connect(fresh, nil, PA_CONTEXT_NOAUTOSPAWN, nil)
        return fresh
    }
}
