import Foundation

/// The `AsyncStream` subscribers of a player's or an engine's events, kept in its locked
/// state.
struct EventSubscribers<Event: Sendable> {
    private var continuations: [UUID: AsyncStream<Event>.Continuation] = [:]

    /// Every subscriber's continuation.
    var all: [AsyncStream<Event>.Continuation] { Array(continuations.values) }

    /// A new stream of the events `box` keeps subscribers for at `keyPath`, from now on; it
    /// unsubscribes itself when it ends.
    static func subscribe<State>(_ box: LockedState<State>, _ keyPath: WritableKeyPath<State, Self> & Sendable) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        box.withLockedValue { $0[keyPath: keyPath].continuations[id] = continuation }
        continuation.onTermination = { [weak box] _ in
            box?.withLockedValue { _ = $0[keyPath: keyPath].continuations.removeValue(forKey: id) }
        }
        return stream
    }
}
