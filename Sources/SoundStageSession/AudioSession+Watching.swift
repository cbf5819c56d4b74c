#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

extension AudioSession {
    /// The sources of events the session watches once a real-time engine joins it.
    public struct WatchedEvents: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The sound server (PulseAudio, or PipeWire through its PulseAudio server): other
        /// applications' calls, the default output, outputs coming and going, the server
        /// dying and returning.
        public static let soundServer = WatchedEvents(rawValue: 1 << 0)
        /// Job control: Ctrl-Z (SIGTSTP) pauses the output before the process stops,
        /// SIGCONT restarts it. It installs SIGTSTP and SIGCONT handlers.
        public static let processSuspend = WatchedEvents(rawValue: 1 << 1)
        /// logind's `PrepareForSleep` on the system bus.
        public static let systemSleep = WatchedEvents(rawValue: 1 << 2)
        /// The server's own copy of this process's playback streams, scanned for dropouts
        /// (silence the server played where a stream ran dry), which each engine counts as an
        /// underrun and reports (`EngineEvent.outputDropout`); with
        /// ``soundServer`` only. It records each stream back from the server: 384 kB a second
        /// for 48 kHz stereo, scanned on the monitor's thread.
        public static let outputDropouts = WatchedEvents(rawValue: 1 << 3)
        /// All of them (the default).
        public static let all: WatchedEvents = [.soundServer, .processSuspend, .systemSleep, .outputDropouts]
    }

    /// What the session watches; set it before the first real-time engine is made (watching
    /// starts then, and is not changed afterwards). ``WatchedEvents/all`` by default.
    public var watchedEvents: WatchedEvents {
        get { state.withLockedValue { $0.watched } }
        set { state.withLockedValue { $0.watched = newValue } }
    }

    /// Starts the watchers once, for the first real-time engine that joins. A watcher that
    /// cannot start is reported (``SessionEvent/watcherUnavailable(_:reason:)``); the rest
    /// works without it.
    func startWatching() {
        let watched = state.withLockedValue { s -> WatchedEvents? in
            guard s.watchers == nil else { return nil }
            s.watchers = Watchers()
            return s.watched
        }
        guard let watched else { return }
        var watchers = Watchers()
        if watched.contains(.soundServer) {
            let monitor = SoundServerMonitor(listensForDropouts: watched.contains(.outputDropouts)) { [weak self] event in
                self?.soundServer(event)
            }
            monitor.start()
            watchers.soundServer = monitor
        }
        if watched.contains(.processSuspend) {
            let suspend = SuspendWatcher(
                willSuspend: { [weak self] in self?.begin(.processSuspended) },
                didResume: { [weak self] in self?.end(.processSuspended, shouldResume: true) })
            do {
                try suspend.start()
                watchers.suspend = suspend
            } catch {
                post(.watcherUnavailable("process suspend", reason: "\(error)"))
            }
        }
        if watched.contains(.systemSleep) {
            let sleep = SleepWatcher(
                onEvent: { [weak self] event in
                    guard let self else { return }
                    thread.submit {
                        switch event {
                        case .willSleep: self.begin(.systemSleep)
                        case .didWake: self.end(.systemSleep, shouldResume: true)
                        }
                    }
                },
                onFailure: { [weak self] error in self?.post(.watcherUnavailable("system sleep", reason: "\(error)")) })
            do {
                try sleep.start()
                watchers.sleep = sleep
            } catch {
                post(.watcherUnavailable("system sleep", reason: "\(error)"))
            }
        }
        state.withLockedValue { $0.watchers = watchers }
    }
}

extension AudioSession {
    /// What the sound server monitor saw, on its thread: reported at once, and acted on in
    /// order on the session's thread (an engine's move must not hold up the monitor).
    func soundServer(_ event: SoundServerEvent) {
        switch event {
        case .connected(let server, let defaultSink):
            post(.soundServerConnected(server: server, defaultOutput: defaultSink))
        case .unavailable(let reason):
            post(.soundServerUnavailable(reason: reason))
        case .serverLost:
            post(.mediaServicesWereLost)
            thread.submit { [self] in for member in members { member.sessionServerLost() } }
        case .serverReturned:
            post(.mediaServicesWereReset)
            thread.submit { [self] in for member in members { member.sessionOutputMayBeBack() } }
        case .defaultSinkChanged(let from, let to):
            post(.defaultOutputChanged(from: from, to: to))
            // A default that changed because its sink went away is a lost device, which each
            // engine notices itself (and pauses its music for); only a real switch is followed.
            // On the session's thread: the monitor's thread must not wait for the gateway lock.
            thread.submit { [self] in
                // An engine that lost its device tries the new default now (a restarted server
                // moves its default from its placeholder to the first real sink).
                for member in members { member.sessionOutputMayBeBack() }
                let monitor = state.withLockedValue { $0.watchers?.soundServer }
                if let from, let monitor, !monitor.sinks.contains(where: { $0.name == from }) { return }
                for member in members { member.sessionDefaultOutputChanged() }
            }
        case .sinkAdded(let name, _):
            post(.outputAdded(name))
            thread.submit { [self] in for member in members { member.sessionOutputMayBeBack() } }
        case .sinkRemoved(let name):
            post(.outputRemoved(name))
        case .phoneStreamStarted:
            thread.submit { [self] in
                if state.withLockedValue({ s in s.phoneStreams += 1; return s.phoneStreams == 1 }) { begin(.phoneCall) }
            }
        case .phoneStreamEnded:
            thread.submit { [self] in
                if state.withLockedValue({ s in s.phoneStreams = max(0, s.phoneStreams - 1); return s.phoneStreams == 0 }) {
                    end(.phoneCall, shouldResume: true)
                }
            }
        case .duckingRecordsUntrusted(let reason):
            post(.watcherUnavailable("ducking records", reason: "\(reason): nothing in it is read, written or removed, so volumes a killed process left lowered are not given back"))
        case .outputDropout(_, let seconds):
            thread.submit { [self] in for member in members { member.sessionOutputDropout(seconds: seconds) } }
        }
    }
}

extension AudioSession {
    /// What the sound server monitor says of the server's output now: an engine that lost
    /// its device opens another there only when the server is back with a real default sink
    /// (``SoundServerOutput``).
    package var soundServerOutput: SoundServerOutput {
        let monitor = state.withLockedValue { $0.watchers?.soundServer }
        return monitor?.output ?? .unwatched
    }
}

extension AudioSession {
    /// The latency PipeWire gave this process's newest playback stream, read from the server
    /// by the session's monitor (``ServerNodeLatency``); nil on PulseAudio, before the server
    /// has shown the stream, or while the sound server is not watched.
    package var outputNodeLatency: ServerNodeLatency? {
        let monitor = state.withLockedValue { $0.watchers?.soundServer }
        return monitor?.nodeLatencyOfNewestStream(ofProcess: getpid())
    }
}

/// The watchers a session runs, kept for the life of the session.
struct Watchers: Sendable {
    var soundServer: SoundServerMonitor?
    var suspend: SuspendWatcher?
    var sleep: SleepWatcher?
}
