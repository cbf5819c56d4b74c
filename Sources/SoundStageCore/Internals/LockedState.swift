/// Mutable state guarded by ``OpenAL/lock``, reachable only inside a closure, like
/// swift-nio's `NIOLockedValueBox`: code outside the closure cannot touch it.
///
/// Every box shares the one gateway lock, so an engine, its players and the OpenAL calls
/// they make never wait on each other in different orders. A box's closure must not open
/// the same box again (Swift's exclusivity check traps if it does); opening another box, or
/// calling into OpenAL, inside it is fine.
package final class LockedState<Value>: @unchecked Sendable {
    @usableFromInline var value: Value

    package init(_ value: Value) { self.value = value }

    /// Takes the lock and runs `body` on the state.
    @inlinable @inline(__always)
    package func withLockedValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try OpenAL.lock.withLock { _ in try body(&value) }
    }

    /// Runs `body` on the state when the caller holds the lock already.
    @inlinable @inline(__always)
    package func withLockedValue<R>(_ held: borrowing LockHeld, _ body: (inout Value) throws -> R) rethrows -> R {
        try body(&value)
    }
}
