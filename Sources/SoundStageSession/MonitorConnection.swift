import CPulse
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// A libpulse object pointer (`pa_threaded_mainloop*`, `pa_context*`,
/// `pa_time_event*`) that can be stored in `Sendable` state.
///
/// `@unchecked Sendable` is safe here because the wrapper only carries the
/// address: the pointee is never touched through it except by code that holds
/// the owning `pa_threaded_mainloop` lock (or runs on that loop's thread, which
/// holds it), which is exactly libpulse's own threading rule. The pointer value
/// itself is immutable.
struct PulseHandle: @unchecked Sendable, Equatable {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
}


/// A sink input as the monitor tracks it.
struct SinkInput: Sendable {
    let index: UInt32
    let sink: UInt32
    let isPhone: Bool
    let pid: Int32?
    let application: String?
    /// Its volume per channel (`pa_volume_t`); empty when it has none.
    var volume: [UInt32] = []
    /// Whether clients may set its volume.
    var volumeWritable = false
    /// Its `module-stream-restore.id` (see ``DuckedStream/restoreID``).
    var restoreID: String?
    /// The latency PipeWire gave it (its `node.latency`); nil on PulseAudio.
    var nodeLatency: ServerNodeLatency?

    /// Whether a stream's `media.role` is a call's: `phone` as PulseAudio clients give it
    /// (`paplay --property=media.role=phone`), `Phone` as PipeWire's own clients do
    /// (`pw-cat --media-role Phone`, seen through pipewire-pulse as it was set), and
    /// `Communication`, the role WirePlumber's policy gives calls.
    static func isCall(role: String?) -> Bool {
        guard let role = role?.lowercased() else { return false }
        return role == "phone" || role == "communication"
    }
}

/// All mutable state of a session. Always accessed through `MonitorSession.state`.
///
/// Writers: the mainloop thread (libpulse callbacks) and `shutdown()`, both with
/// the mainloop lock held; `stopped` is also set by `stop()` without it.
/// Readers: any thread (queries).
struct MonitorConnection {
    enum Phase { case idle, connecting, syncing, up, failed }

    /// Set by `stop()`; after that nothing is emitted and no new work is started.
    var stopped = false
    var phase = Phase.idle
    /// The current context, if any; a failed one is kept until the retry replaces it.
    var context: PulseHandle?
    /// The retry timer; created at launch, freed by `shutdown()`.
    var timer: PulseHandle?
    /// The default sink asked again over a connection of its own (``DefaultCheck``).
    var defaultCheck = DefaultCheck()
    /// Why the ducking records' folder is not trusted, as last reported (once a reason).
    var untrustedRecords: String?
    var retryDelay = MonitorSession.initialRetryDelay
    /// The current outage has been reported (by `.serverLost` or `.unavailable`).
    var outageReported = false
    /// The current outage began with `.serverLost`: announce `.serverReturned`.
    var lostConnection = false

    var server: String?
    /// The server's address and cookie (which tell one server from another at the same address).
    var address: String?
    var cookie: UInt32?
    /// Other applications' streams lowered for the session (nil: it does not duck).
    var ducking: StreamDucking?
    /// The give-back of what processes that died left lowered, started when the monitor
    /// connected before the session ducked: ducking waits for it, or the give-back would land
    /// after the lowering and undo it.
    var deadGiveBack: Countdown?
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
        address = nil
        cookie = nil
        defaultSink = nil
        sinks = [:]
        inputs = [:]
    }

    /// How many server infos the monitor's own connection has had answered.
    var serverReplies = 0

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
