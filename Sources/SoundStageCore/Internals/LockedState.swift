/// Mutable state guarded by ``OpenAL/lock``, reachable only inside a closure, like
/// swift-nio's `NIOLockedValueBox`: code outside the closure cannot touch it.
///
/// Every box shares the one gateway lock, so an engine, its players and the OpenAL calls
/// they make never wait on each other in different orders. A box's closure must not open
/// the same box again (it traps if it does, release builds too: the gateway lock is
/// recursive, so the lock alone would let it, and the inner closure would change the state
/// under the outer one, whose pointers into it may then dangle); opening another box, or
/// calling into OpenAL, inside it is fine.
///
/// The state, and the mark that it is open, live in memory of their own rather than in
/// stored properties: Swift checks every `inout` access to a class's stored property at run
/// time (a call into its runtime, about 80 instructions), which the lock makes needless; a
/// play went through three.
package final class LockedState<Value>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    /// Inside `body`: the check that a box is not opened again from within.
    @usableFromInline let isOpen: UnsafeMutablePointer<Bool>

    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        isOpen = .allocate(capacity: 1)
        isOpen.initialize(to: false)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        isOpen.deallocate()
    }

    /// Takes the lock and runs `body` on the state.
    @inlinable @inline(__always)
    package func withLockedValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try OpenAL.lock.withLock { _ in
            open()
            defer { isOpen.pointee = false }
            return try body(&storage.pointee)
        }
    }

    /// Runs `body` on the state when the caller holds the lock already.
    @inlinable @inline(__always)
    package func withLockedValue<R>(_ held: borrowing LockHeld, _ body: (inout Value) throws -> R) rethrows -> R {
        open()
        defer { isOpen.pointee = false }
        return try body(&storage.pointee)
    }

    /// Marks the box open; traps when it was.
    @inlinable @inline(__always)
    func open() {
        precondition(!isOpen.pointee, "LockedState<\(Value.self)> opened again from inside its own closure")
        isOpen.pointee = true
    }
}
