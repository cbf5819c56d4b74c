import SoundStageCore

/// Something that happened on the PulseAudio server, as reported by
/// ``SoundServerMonitor``.
///
/// Order guarantees (per monitor, per `start()`):
/// - Every successful connection produces exactly one ``connected(server:defaultSink:)``.
///   If the connection follows a ``serverLost``, it is immediately preceded by
///   ``serverReturned``. Phone streams that already exist at that moment follow
///   it as ``phoneStreamStarted(index:application:)`` events (ascending index).
/// - Sinks that exist at connect time are *not* announced with ``sinkAdded(name:description:)``;
///   read ``SoundServerMonitor/sinks`` for the initial set.
/// - ``serverLost`` is followed by ``phoneStreamEnded(index:)`` for every phone
///   stream that was active, so "started"/"ended" always pair up.
/// - ``unavailable(reason:)`` is reported once per outage in which no server answered
///   (not on every retry) and never right after ``serverLost`` (that already
///   announced the outage).
enum SoundServerEvent: Sendable, Equatable, CustomStringConvertible {
    /// A connection to the server is up and the monitor's tables are filled.
    /// `server` is the server's name and version as it reports them
    /// (e.g. `"pulseaudio 16.1"`); `defaultSink` is the default sink's name, if any.
    case connected(server: String, defaultSink: String?)

    /// No server answered a connection attempt; `reason` is libpulse's error text
    /// (e.g. `"Connection refused"`). The monitor keeps retrying with backoff.
    case unavailable(reason: String)

    /// An established connection failed: the server went away. The monitor
    /// keeps retrying with backoff.
    case serverLost

    /// A server answered again after ``serverLost``. Always immediately followed
    /// by ``connected(server:defaultSink:)``.
    case serverReturned

    /// The server's default sink changed (names; `nil` when there was / is none).
    case defaultSinkChanged(from: String?, to: String?)

    /// A sink appeared while connected.
    case sinkAdded(name: String, description: String)

    /// A sink disappeared while connected.
    case sinkRemoved(name: String)

    /// A sink input with `media.role == "phone"` appeared (or an existing one
    /// got that role). `application` is its `application.name` property.
    case phoneStreamStarted(index: UInt32, application: String?)

    /// A phone sink input went away (or lost the role, or the server was lost).
    case phoneStreamEnded(index: UInt32)

    /// The server played `seconds` of silence inside sound in one of this process's own
    /// playback streams (sink input `stream`): it ran dry there, as its own monitor stream
    /// heard it (see ``DropoutDetector``).
    case outputDropout(stream: UInt32, seconds: Double)

    /// The folder of ducking records (``DuckingRecord``) is not this user's alone (another
    /// user's, a link, open to others' writes): nothing in it is read, written or removed.
    /// Once a reason.
    case duckingRecordsUntrusted(reason: String)

    /// A one-line, human-readable form of the event, used by `pulse-watch`.
    var description: String {
        switch self {
        case let .connected(server, defaultSink):
            return "connected(server: \(Self.quote(server)), defaultSink: \(Self.quote(defaultSink)))"
        case let .unavailable(reason):
            return "unavailable(reason: \(Self.quote(reason)))"
        case .serverLost:
            return "serverLost"
        case .serverReturned:
            return "serverReturned"
        case let .defaultSinkChanged(from, to):
            return "defaultSinkChanged(from: \(Self.quote(from)), to: \(Self.quote(to)))"
        case let .sinkAdded(name, description):
            return "sinkAdded(name: \(Self.quote(name)), description: \(Self.quote(description)))"
        case let .sinkRemoved(name):
            return "sinkRemoved(name: \(Self.quote(name)))"
        case let .phoneStreamStarted(index, application):
            return "phoneStreamStarted(index: \(index), application: \(Self.quote(application)))"
        case let .phoneStreamEnded(index):
            return "phoneStreamEnded(index: \(index))"
        case let .outputDropout(stream, seconds):
            return "outputDropout(stream: \(stream), seconds: \(seconds))"
        case let .duckingRecordsUntrusted(reason):
            return "duckingRecordsUntrusted(\(reason))"
        }
    }

    private static func quote(_ s: String?) -> String {
        guard let s else { return "nil" }
        return "\"" + s + "\""
    }
}
