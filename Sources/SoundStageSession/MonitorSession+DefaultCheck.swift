import CPulse

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// The server's default sink asked again over a short connection of its own, a little after
/// a sink or sink input changed: what the monitor's own connection may never say on PipeWire.
///
/// pipewire-pulse gives each pulse client a PipeWire connection of its own, and reads the
/// default from the "default" metadata as that connection last heard it. On PipeWire 0.3.65
/// with WirePlumber 0.4.13, in about one fresh server in 20 to 30, the metadata's changes
/// reached none of the clients bound to it (pw-metadata -m heard none either), while a client
/// that binds afresh reads the values it holds: after `wpctl set-default` (or `pactl
/// set-default-sink`) the monitor got no SERVER event, and its connection's
/// `get_server_info` named the old default for as long as it was asked (over 80 s, every
/// 10 ms), although `pactl get-default-sink` named the new one within 25 ms. The move still
/// showed on the monitor's connection where streams play: sink and sink-input change events
/// within 20 ms of the switch in each such run (a server with no stream gives none).
///
/// Only on PipeWire (PulseAudio's own connection hears every move), and a check's answer is
/// dropped when the monitor's own connection was answered meanwhile, whose word is the newer:
/// a check begun just before a move may answer after it with the old default (a full tier on
/// PulseAudio lost a tone for 0.35 s after a sink was unloaded, in one of 100 moves, with the
/// checks on PulseAudio too and no such guard).
///
/// One check at a time, 0.2 s after the first change that asked for it (a burst of changes
/// costs one connection); a change during a check asks for one more after it. On PipeWire a
/// check also runs every 2 s with no change at all: in 1 of 110 fresh servers of a loop of
/// switches, none of five switches was followed with the checks on changes alone (what the
/// monitor's connection heard there is not known), which a move noticed within 2.2 s covers.
struct DefaultCheck: Sendable {
    /// How long after a change the default is asked for.
    static let delay: pa_usec_t = 200_000      // 0.2 s
    /// How often it is asked on PipeWire with no change heard.
    static let pipeWirePeriod: pa_usec_t = 2_000_000      // 2 s

    /// The timer of the next check; created at the first change, freed by `shutdown()`.
    var timer: PulseHandle?
    /// When the timer is due (`pa_rtclock_now` microseconds); nil: it does not run.
    var due: pa_usec_t?
    /// The connection of the check under way, if any.
    var context: PulseHandle?
    /// A change came while a check was under way: another follows it.
    var again = false
    /// ``MonitorConnection/serverReplies`` when the check under way began.
    var heardBefore = 0
}

extension MonitorSession {
    /// A sink or sink input changed: the default may have moved without a word to this
    /// connection (``DefaultCheck``). Mainloop lock held.
    func defaultMayHaveMoved(_ context: OpaquePointer, after delay: pa_usec_t = DefaultCheck.delay) {
        let deadline = libpulse.rtclock_now() + delay
        let (arm, timer): (Bool, PulseHandle?) = state.withLock { s in
            // PulseAudio's own connection hears every move: only PipeWire is asked again.
            guard !s.stopped, s.phase == .up, s.server?.contains("PipeWire") == true else { return (false, nil) }
            if s.defaultCheck.context != nil {
                s.defaultCheck.again = true
                return (false, nil)
            }
            // A check due sooner already is kept; a later one is brought forward.
            if let due = s.defaultCheck.due, due <= deadline { return (false, nil) }
            s.defaultCheck.due = deadline
            return (true, s.defaultCheck.timer)
        }
        guard arm else { return }
        let made = timer ?? ss_timer_new_now(loop.raw, { _, _, _, userdata in
            MonitorSession.from(userdata)?.defaultCheckDue()
        }, userdata).map(PulseHandle.init)
        guard let made else {
            state.withLock { $0.defaultCheck.due = nil }
            return
        }
        if timer == nil { state.withLock { $0.defaultCheck.timer = made } }
        libpulse.context_rttime_restart(context, made.raw, deadline)
    }

    /// The check is due: a connection of its own, which asks once and goes.
    private func defaultCheckDue() {
        let proceed = state.withLock { s in
            s.defaultCheck.due = nil
            return !s.stopped && s.phase == .up && s.defaultCheck.context == nil
        }
        guard proceed else { return }
        let api = libpulse.threaded_mainloop_get_api(loop.raw)
        guard let check = libpulse.context_new(api, clientName) else { return }
        state.withLock { s in
            s.defaultCheck.context = PulseHandle(check)
            s.defaultCheck.heardBefore = s.serverReplies
        }
        libpulse.context_set_state_callback(check, { check, userdata in
            guard let check else { return }
            MonitorSession.from(userdata)?.defaultCheckStateChanged(check)
        }, userdata)
        if libpulse.context_connect(check, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            endDefaultCheck(check)
        }
    }

    private func defaultCheckStateChanged(_ check: OpaquePointer) {
        switch libpulse.context_get_state(check) {
        case PA_CONTEXT_READY:
            unref(libpulse.context_get_server_info(check, { check, info, userdata in
                MonitorSession.from(userdata)?.defaultCheckAnswered(check, info)
            }, userdata))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            endDefaultCheck(check)
        default:
            break
        }
    }

    /// What a connection made now says the default is, told as the monitor's own reply would
    /// be (``MonitorConnection/updateServer(_:server:defaultSink:)``: only a change is
    /// reported, only while the monitor's connection is up).
    private func defaultCheckAnswered(_ check: OpaquePointer?, _ info: UnsafePointer<pa_server_info>?) {
        guard let check else { return }
        if let info = info?.pointee {
            let name = string(info.default_sink_name)
            emit(state.withLock { s in
                // The monitor's own connection answered since the check began: its word is the
                // newer (a check begun before a move may answer after it, with the old default).
                guard s.defaultCheck.context?.raw == check, s.serverReplies == s.defaultCheck.heardBefore,
                      let context = s.context else { return [] }
                return s.updateServer(context.raw, server: s.server ?? "unknown", defaultSink: name)
            })
        }
        // Reports TERMINATED, which ends the check (libpulse holds the context meanwhile).
        libpulse.context_disconnect(check)
    }

    /// Drops the check's connection; a change during it asks for another. Mainloop lock held.
    private func endDefaultCheck(_ check: OpaquePointer) {
        let (ours, again): (Bool, Bool) = state.withLock { s in
            guard s.defaultCheck.context?.raw == check else { return (false, false) }
            s.defaultCheck.context = nil
            defer { s.defaultCheck.again = false }
            return (true, s.defaultCheck.again)
        }
        guard ours else { return }
        retire(check)
        let (context, pipeWire) = state.withLock { ($0.context, $0.server?.contains("PipeWire") ?? false) }
        guard let context else { return }
        if again {
            defaultMayHaveMoved(context.raw)
        } else if pipeWire {
            defaultMayHaveMoved(context.raw, after: DefaultCheck.pipeWirePeriod)
        }
    }

    /// Drops a check under way and frees the timer (``closeConnection()``). Mainloop lock held.
    func closeDefaultCheck() {
        let check = state.withLock { s in
            defer { s.defaultCheck = DefaultCheck() }
            return s.defaultCheck
        }
        if let context = check.context { retire(context.raw) }
        if let timer = check.timer { ss_timer_free(loop.raw, timer.raw) }
    }
}
