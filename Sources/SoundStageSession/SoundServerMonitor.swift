import CPulse
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

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
/// retries after 0.25 s, doubling the delay up to 2 s, until a connection comes
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
        /// Its volume's loudest channel (`pa_volume_t`).
        var volume: UInt32 = 0
        /// Whether it has PulseAudio's flat volumes (`PA_SINK_FLAT_VOLUME`, `flat-volumes = yes`
        /// in daemon.conf): its streams' volumes are absolute, and a change of the sink's
        /// volume scales each of them by as much.
        var flatVolume = false
    }

    /// Whether it listens to this process's own playback streams for dropouts
    /// (``SoundServerEvent/outputDropout(stream:seconds:)``).
    private let listensForDropouts: Bool

    private let clientName: String
    private let recordFolder: URL?
    private let handler: @Sendable (SoundServerEvent) -> Void
    /// The running session, if any. A session owns one mainloop and lives from
    /// `start()` to `stop()`; a later `start()` creates a fresh one.
    private let current = LockedBox<MonitorSession?>(nil)

    /// Creates a stopped monitor.
    ///
    /// - Parameters:
    ///   - clientName: The client name shown by the server (`pactl list clients`).
    ///   - onEvent: Called on the monitor's mainloop thread for every event, in order.
    ///     Must return quickly and must not block (see the type's documentation).
    ///   - recordFolder: Where what the session lowers of other applications is recorded, and
    ///     where records of killed processes are looked for (``DuckingRecord``); nil: nowhere.
    ///   - listensForDropouts: Whether each of this process's own playback streams is recorded
    ///     back from the server (its monitor stream) and scanned for dropouts.
    init(clientName: String = "SoundStage session monitor", recordFolder: URL? = DuckingRecord.defaultFolder,
         listensForDropouts: Bool = false, onEvent: @escaping @Sendable (SoundServerEvent) -> Void) {
        self.clientName = clientName
        self.recordFolder = recordFolder
        self.listensForDropouts = listensForDropouts
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
    /// the monitor stays stopped. Without libpulse (it is opened here, not linked) the
    /// outcome is ``SoundServerEvent/unavailable(reason:)`` naming the package.
    func start() {
        // Without libpulse there is no server to follow: said once, as the event a server
        // that cannot be reached gives.
        guard ss_pulse() != nil else {
            handler(.unavailable(reason: OptionalLibrary.pulse.missing(ss_pulse_error())))
            return
        }
        current.withLock { session in
            guard session == nil else { return }
            session = MonitorSession.launch(clientName: clientName, recordFolder: recordFolder,
                                            listensForDropouts: listensForDropouts, handler: handler)
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
        // What it lowers of other applications goes back first (not from the loop's thread,
        // which cannot wait for itself: the record is there for the next session then).
        session?.stopDucking(timeout: .seconds(1))
        session?.stop()
    }

    /// Lowers other applications' streams by `depth` dB from now on (see
    /// ``MonitorSession/startDucking(depth:)``); once connected, when not yet. Not on the
    /// monitor's thread.
    func startDucking(depth: Double) -> Bool { session?.startDucking(depth: depth) ?? false }

    /// Gives other applications' streams their volumes back (see
    /// ``MonitorSession/stopDucking(timeout:)``); returns the applications given back theirs.
    @discardableResult
    func stopDucking(timeout: Duration = .seconds(1)) -> [String] { session?.stopDucking(timeout: timeout) ?? [] }

    /// Whether it lowers other applications' streams now.
    var isDucking: Bool { session?.isDucking ?? false }

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

    /// The latency PipeWire gave the newest of process `pid`'s playback streams (its
    /// `node.latency`, ``ServerNodeLatency``); nil on PulseAudio, for a process with no
    /// stream, or when the monitor is not connected.
    func nodeLatencyOfNewestStream(ofProcess pid: Int32) -> ServerNodeLatency? {
        session?.state.withLock { s in
            guard s.phase == .up else { return nil }
            return s.inputs.values.filter { $0.pid == pid }.max { $0.index < $1.index }?.nodeLatency
        } ?? nil
    }

    /// The name servers give the sink they show while they have no other: PulseAudio's
    /// module-always-sink and PipeWire's module-fallback-sink both call it `auto_null`
    /// ("Dummy Output", translated), and both remove it as soon as another sink appears.
    /// A stream opened on it does not last, and one opened as it goes fails (an ALC error
    /// from OpenAL Soft's open or its first reset: README, "a server's placeholder sink").
    static let placeholderSinkName = "auto_null"

    /// Whether a stream opened on the server's default sink now would last
    /// (``SoundServerOutput``): the server's default, asked now (an engine notices its stream
    /// lost as soon as the server removes its sink, before the monitor hears of it: on
    /// PipeWire with OpenAL Soft 1.23.1 an engine moved onto the placeholder the monitor had
    /// not yet seen), must be a sink the monitor knows and not the placeholder. Not on the
    /// monitor's thread. Waits up to 100 ms for the server's answer on PulseAudio (the
    /// monitor's socket: under 1 ms unless it is going), up to 300 ms on PipeWire (a connection
    /// made for it, `MonitorSession+DefaultAsk`): no answer in that time is `.late`, a monitor
    /// not connected `.gone`, a monitor busy that long (a ducking change) `.busy`.
    var output: SoundServerOutput {
        guard let session else { return .unwatched }
        let known = session.state.withLock { s -> SoundServerOutput in
            guard s.phase == .up else { return s.lostConnection ? .gone : .unwatched }
            return .ready
        }
        guard known == .ready else { return known }
        let said: String?
        switch session.askDefaultSink(timeout: .milliseconds(100)) {
        case .said(let name): said = name
        case .unconnected: return .gone
        case .late: return .late
        case .busy: return .busy
        }
        guard let name = said, name != Self.placeholderSinkName else { return .placeholder }
        return session.state.withLock { $0.sinks.values.contains { $0.name == name } } ? .ready : .placeholder
    }

    private var session: MonitorSession? {
        current.withLock { $0 }
    }
}
