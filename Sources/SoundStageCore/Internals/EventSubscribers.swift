import Foundation

/// The `AsyncStream` subscribers of a player's or an engine's events, kept in its locked
/// state.
package struct EventSubscribers<Event: Sendable> {
    private var continuations: [UUID: AsyncStream<Event>.Continuation] = [:]
    /// Whether the events ended for good (an engine shut down): a stream asked for later
    /// ends at once.
    private var ended = false

    /// None yet.
    package init() {}

    /// Every subscriber's continuation.
    package var all: [AsyncStream<Event>.Continuation] { Array(continuations.values) }

    /// Ends the events for good: returns every subscriber's continuation, to be finished
    /// with no lock held, and ends the streams asked for from now on at once.
    package mutating func end() -> [AsyncStream<Event>.Continuation] {
        ended = true
        return all
    }

    /// A new stream of the events `box` keeps subscribers for at `keyPath`, from now on; it
    /// unsubscribes itself when it ends.
    package static func subscribe<State>(_ box: LockedState<State>, _ keyPath: WritableKeyPath<State, Self> & Sendable) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        let ended = box.withLockedValue { state -> Bool in
            if state[keyPath: keyPath].ended { return true }
            state[keyPath: keyPath].continuations[id] = continuation
            return false
        }
        if ended { continuation.finish() }
        continuation.onTermination = { [weak box] _ in
            box?.withLockedValue { _ = $0[keyPath: keyPath].continuations.removeValue(forKey: id) }
        }
        return stream
    }
}
