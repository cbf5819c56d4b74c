import Foundation
import Synchronization

/// The `AsyncStream` subscribers of a player's or an engine's events, kept in its locked
/// state. Each stream holds at most ``bufferLimit`` events its reader has not taken: past
/// that the oldest is dropped, and counted (``dropped``), so a reader that stops reading
/// costs a bounded amount of memory however many events come.
package struct EventSubscribers<Event: Sendable> {
    /// The most events a stream holds for its reader.
    package static var bufferLimit: Int { 1_024 }

    private var continuations: [UUID: AsyncStream<Event>.Continuation] = [:]
    /// Whether the events ended for good (an engine shut down): a stream asked for later
    /// ends at once.
    private var ended = false
    private let droppedCount = DroppedEvents()

    /// None yet.
    package init() {}

    /// Every subscriber, to deliver to with no lock held.
    package var all: EventDelivery<Event> { EventDelivery(continuations: Array(continuations.values), dropped: droppedCount) }

    /// How many events the streams dropped, oldest first, because their readers were
    /// ``bufferLimit`` behind.
    package var dropped: Int { droppedCount.count.load(ordering: .relaxed) }

    /// Ends the events for good: returns every subscriber's continuation, to be finished
    /// with no lock held, and ends the streams asked for from now on at once.
    package mutating func end() -> [AsyncStream<Event>.Continuation] {
        ended = true
        return Array(continuations.values)
    }

    /// A new stream of the events `box` keeps subscribers for at `keyPath`, from now on; it
    /// unsubscribes itself when it ends.
    package static func subscribe<State>(_ box: LockedState<State>, _ keyPath: WritableKeyPath<State, Self> & Sendable) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(bufferLimit))
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

/// The streams an event goes to, taken under the lock and used with none held.
package struct EventDelivery<Event: Sendable>: Sendable {
    let continuations: [AsyncStream<Event>.Continuation]
    let dropped: DroppedEvents

    /// Hands `event` to every stream; a stream whose reader is ``EventSubscribers/bufferLimit``
    /// behind drops its oldest, which is counted.
    package func yield(_ event: Event) {
        for continuation in continuations {
            if case .dropped = continuation.yield(event) { dropped.count.add(1, ordering: .relaxed) }
        }
    }

    /// Ends every stream.
    package func finish() {
        for continuation in continuations { continuation.finish() }
    }
}

/// How many events a source's streams dropped.
package final class DroppedEvents: Sendable {
    let count = Atomic<Int>(0)
}
