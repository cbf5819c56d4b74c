import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A C pointer (an `ALCdevice*`) kept only as an identity. It is dereferenced by OpenAL
/// alone, and only under ``OpenAL/lock``.
struct CHandle: @unchecked Sendable, Hashable {
    let raw: OpaquePointer
}

/// An OpenAL context as the gateway keeps it: its C pointer, and the property writes made
/// into it since its error state was last checked (``UncheckedWrites``).
final class ContextHandle: @unchecked Sendable {
    let raw: OpaquePointer
    /// Only with the lock held: see ``pending(_:)``.
    private var unchecked = UncheckedWrites()

    init(_ raw: OpaquePointer) { self.raw = raw }

    /// The unchecked writes, under the lock.
    @inline(__always)
    func pending(_ held: borrowing LockHeld) -> UncheckedWrites { unchecked }

    @inline(__always)
    func note(_ held: borrowing LockHeld, _ write: UncheckedWrite) { unchecked.note(write) }

    func clearPending(_ held: borrowing LockHeld) { unchecked = UncheckedWrites() }
}

/// The single gateway to OpenAL, and the lock every call into it runs under.
///
/// OpenAL keeps one error state per context and, for `alcMakeContextCurrent`, one current
/// context per process. SoundStage makes a context current per thread instead
/// (`alcSetThreadContext`, `ALC_EXT_thread_local_context`): besides keeping threads out of
/// each other's way, OpenAL Soft then skips its global list lock on every AL call, which
/// pays for SoundStage's own lock (measured: a raw `alSource3f` costs 55 ns with a global
/// context and 41 ns with a thread context). Without the extension the global context is
/// used, as before.
///
/// Every call runs inside ``withContext(_:_:)``, which hands its body an ``ALScope``: checked
/// calls (``ALScope/call(_:on:_:)``) read `alGetError` right after the call; property writes
/// (``ALScope/write(_:_:)``) are validated in Swift beforehand and noted instead, and checked
/// together later (see ``UncheckedWrites``). No error OpenAL reports is ever ignored.
enum OpenAL {
    /// Held around every OpenAL call and its error check, and guarding every
    /// ``LockedState`` of the engine and its players.
    static let lock = RecursiveLock()

    /// Whether contexts are made current per thread (`ALC_EXT_thread_local_context`).
    static let usesThreadContexts: Bool = alcIsExtensionPresent(nil, "ALC_EXT_thread_local_context") != ALC_FALSE

    /// What the gateway keeps under its lock.
    struct State {
        /// The context of the innermost ``withContext(_:_:)`` running, nil outside any.
        var active: OpaquePointer?
    }

    static let state = LockedState(State())

    /// Runs `body` under the lock with `context` current on this thread.
    ///
    /// Calls nest (a `deinit` run inside `body` deletes its own names in its own context); a
    /// nested call for another context makes the enclosing call's context current again when
    /// it returns. Only a context an enclosing call made current is ever restored: a thread's
    /// earlier context may have been destroyed since by another thread. The outermost call
    /// leaves its context current, so the next call for it costs nothing to switch.
    @inline(__always)
    static func withContext<R>(_ context: ContextHandle, _ body: (borrowing ALScope) throws -> R) throws -> R {
        try lock.withLock { held in
            let outer = state.withLockedValue(held) { state in
                let outer = state.active
                state.active = context.raw
                return outer
            }
            defer {
                state.withLockedValue(held) { $0.active = outer }
                if let outer, outer != context.raw { _ = setCurrent(outer) }
            }
            // Inside a call for the same context, it is current already.
            if outer != context.raw, currentContext() != context.raw { try makeCurrent(context.raw) }
            return try body(ALScope(context: context, held))
        }
    }

    /// Runs ALC-only work (device queries, rendering) under the lock.
    @inline(__always)
    static func withDevice<R>(_ body: (borrowing LockHeld) throws -> R) rethrows -> R {
        try lock.withLock { held in try body(held) }
    }

    /// The context current for the calling thread's AL calls.
    @inline(__always)
    static func currentContext() -> OpaquePointer? {
        usesThreadContexts ? alcGetThreadContext() : alcGetCurrentContext()
    }

    @inline(__always)
    private static func setCurrent(_ context: OpaquePointer?) -> Bool {
        (usesThreadContexts ? alcSetThreadContext(context) : alcMakeContextCurrent(context)) != ALC_FALSE
    }

    /// Makes `context` current for the calling thread. Under the lock.
    static func makeCurrent(_ context: OpaquePointer) throws {
        if !setCurrent(context) {
            throw SoundStageError(
                .alcInvalidContext, operation: "OpenAL.makeCurrent", object: "context \(context)",
                reason: "OpenAL refused to make the context current")
        }
    }

    /// Lets go of the calling thread's current context, if it is `context` (a context about
    /// to be destroyed) or whatever it is (`nil`; a thread about to end, which would
    /// otherwise keep its context referenced, and OpenAL Soft would report a leak). Under the
    /// lock.
    static func releaseCurrent(_ held: borrowing LockHeld, ifItIs context: OpaquePointer? = nil) {
        guard let current = currentContext(), context == nil || current == context else { return }
        _ = setCurrent(nil)
    }

    /// Lets go of the calling thread's current context: call before a thread of SoundStage's
    /// own ends.
    static func releaseThreadContext() {
        lock.withLock { held in releaseCurrent(held) }
    }

    /// Calls an ALC function on `device` and checks `alcGetError(device)` right after it.
    /// Under the lock.
    @inline(__always)
    static func callALC<R>(
        _ device: OpaquePointer?,
        _ operation: @autoclosure () -> String,
        on object: @autoclosure () -> String,
        _ body: () -> R
    ) throws -> R {
        let result = body()
        let error = alcGetError(device)
        if error != ALC_NO_ERROR {
            throw SoundStageError(
                .alc(error), operation: operation(), object: object(),
                reason: "OpenAL reported \(SoundStageError.Code.alc(error))")
        }
        return result
    }

    /// Reads a C string OpenAL owns. Under the lock.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// Splits an ALC list (strings separated by NUL, ended by two NULs).
    static func stringList(_ pointer: UnsafePointer<CChar>?) -> [String] {
        guard var p = pointer else { return [] }
        var result: [String] = []
        while p.pointee != 0 {
            let s = String(cString: p)
            result.append(s)
            p += strlen(p) + 1
        }
        return result
    }
}

/// What the body of ``OpenAL/withContext(_:_:)`` works with: the lock held, and its context
/// current. It cannot be copied or stored, so it proves both for as long as it is in hand.
struct ALScope: ~Copyable {
    let context: ContextHandle
    /// The lock, held.
    let held: LockHeld

    fileprivate init(context: ContextHandle, _ held: borrowing LockHeld) {
        self.context = context
        self.held = LockHeld(held)
    }

    /// Another scope for the same lock and context, for an object that works inside one
    /// (an update batch).
    init(_ scope: borrowing ALScope) {
        self.context = scope.context
        self.held = LockHeld(scope.held)
    }

    /// Calls an AL function and checks `alGetError` right after it. Writes left unchecked in
    /// this context are checked first, so an error is pinned on the call that caused it.
    @inline(__always)
    func call<R>(
        _ operation: @autoclosure () -> String,
        on object: @autoclosure () -> String,
        _ body: () -> R
    ) throws -> R {
        if !context.pending(held).isEmpty { try checkPending() }
        let result = body()
        let error = alGetError()
        if error != AL_NO_ERROR {
            throw SoundStageError(
                .al(error), operation: operation(), object: object(),
                reason: "OpenAL reported \(SoundStageError.Code.al(error)) for \(operation()); SoundStage should have caught this first, please report it")
        }
        return result
    }

    /// Hands OpenAL a property write that was validated in Swift, without an error check
    /// after it: the write is noted, and checked with the others later.
    @inline(__always)
    func write(_ note: UncheckedWrite, _ body: () -> Void) {
        body()
        context.note(held, note)
    }

    /// Checks the error state for the writes left unchecked in this context, and forgets them.
    ///
    /// - Throws: the error OpenAL reported, naming how many writes it could come from and the
    ///   first and last of them.
    func checkPending() throws {
        let pending = context.pending(held)
        guard !pending.isEmpty else { return }
        context.clearPending(held)
        let error = alGetError()
        if error != AL_NO_ERROR {
            throw SoundStageError(
                .al(error), operation: "OpenAL.checkPending", object: "context \(context.raw)",
                reason: "OpenAL reported \(SoundStageError.Code.al(error)) for \(pending.summary); SoundStage should have caught this first, please report it")
        }
    }
}
