import COpenAL
import CProcessExit
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An `alSourcefv`-shaped C function: how a vector property is written straight through.
typealias ALVectorWriter = @convention(c) (ALuint, ALenum, UnsafePointer<ALfloat>?) -> Void

/// A C pointer (an `ALCdevice*`) kept only as an identity. It is dereferenced by OpenAL
/// alone, and only under ``OpenAL/lock``.
package struct CHandle: @unchecked Sendable, Hashable {
    let raw: OpaquePointer
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
package enum OpenAL {
    /// The gateway's lock and state, in one global (one lazy-initialisation check a call).
    @usableFromInline struct Gateway: Sendable {
        /// Held around every OpenAL call and its error check, and guarding every
        /// ``LockedState`` of the engine and its players.
        @usableFromInline package let lock = RecursiveLock()
        let state = State()
        /// Whether contexts are made current per thread (`ALC_EXT_thread_local_context`).
        let usesThreadContexts: Bool
        /// What became of the configuration SoundStage gives OpenAL Soft (``OpenALConfiguration``).
        let configuration: OpenALConfiguration.Outcome
        /// Whether the calling thread is the main one, whose direct writes skip the lock.
        let mainThread = MainThreadCheck()

        init() {
            // First, before any OpenAL call: as the process exits, the devices left open are
            // closed and OpenAL is called no more (``DeviceLife/closeAllAtExit()``), by the
            // exit handler target CProcessExit registered as the library loaded. A handler
            // registered here would not run when the process is exiting already (another
            // thread inside exit() as this one first touches OpenAL), and this thread's first
            // call would then land after OpenAL Soft's own clean-up: an abort as the process
            // exits. A thread that comes too late makes no OpenAL call: it waits for the
            // process to end, as one waiting for the lock the exit handler keeps does.
            guard ss_exit_set_hook({ DeviceLife.closeAllAtExit() }) != 0 else {
                while true { pause() }
            }
            configuration = OpenALConfiguration.apply()
            usesThreadContexts = alcIsExtensionPresent(nil, "ALC_EXT_thread_local_context") != ALC_FALSE
        }
    }

    @usableFromInline static let gateway = Gateway()

    /// The gateway's lock.
    @inlinable package static var lock: RecursiveLock { gateway.lock }

    /// Whether contexts are made current per thread (`ALC_EXT_thread_local_context`).
    static var usesThreadContexts: Bool { gateway.usesThreadContexts }

    /// What became of the configuration SoundStage gives OpenAL Soft: streams kept on their
    /// device (``OpenALConfiguration``).
    static var configuration: OpenALConfiguration.Outcome { gateway.configuration }

    /// What the gateway keeps under its lock: the context of the innermost
    /// ``withContext(_:_:)`` running, nil outside any. Like the lock, storage that lives as
    /// long as the process, reached without reference counting.
    struct State: @unchecked Sendable {
        private let active = UnsafeMutablePointer<ContextHandle?>.allocate(capacity: 1)

        init() { active.initialize(to: nil) }

        @inline(__always)
        func active(_ held: borrowing LockHeld) -> ContextHandle? { active.pointee }

        @inline(__always)
        func setActive(_ held: borrowing LockHeld, _ context: ContextHandle?) { active.pointee = context }
    }

    /// Runs `body` under the lock with `context` current on this thread.
    ///
    /// Calls nest (a `deinit` run inside `body` deletes its own names in its own context); a
    /// nested call for another context makes the enclosing call's context current again when
    /// it returns. Only a context an enclosing call made current is ever restored: a thread's
    /// earlier context may have been destroyed since by another thread. A context the body
    /// destroyed (an engine shut down inside ``AudioContext/update(_:)``) is not made current
    /// again, as an enclosing one nor after the body.
    ///
    /// With per-thread contexts, a thread lets go of its context as it lets go of the lock
    /// (``RecursiveLock``): OpenAL Soft keeps a thread's context referenced until that thread
    /// changes it, so a thread that kept one would keep a context destroyed by another thread,
    /// and its device, alive: a worker would leak them (with an error message) when it ends,
    /// and the main thread, idle after it set up an engine, kept the engine's first device
    /// open, its stream corked on the sound server, through every move to another device. Only
    /// a direct write (a position set every frame, ``withThreadContext(_:_:)``) leaves its
    /// context current, until the thread's next gateway call or write for another context.
    @inline(__always)
    package static func withContext<R>(_ context: ContextHandle, _ body: (borrowing ALScope) throws -> R) throws -> R {
        try gateway.lock.withLock { held in try withContext(held, context, body) }
    }

    /// ``withContext(_:_:)`` for a caller that holds the lock already (`held`): the lock is
    /// not taken again.
    @inline(__always)
    package static func withContext<R>(_ held: borrowing LockHeld, _ context: ContextHandle, _ body: (borrowing ALScope) throws -> R) throws -> R {
        let gateway = self.gateway
        // A destroyed context is never made current again (OpenAL would refuse it).
        if context.isClosed { throw context.closedError }
        let outer = gateway.state.active(held)
        gateway.state.setActive(held, context)
        defer {
            gateway.state.setActive(held, outer)
            if let outer, outer.raw != context.raw, !outer.isClosed, !setCurrent(outer.raw) {
                Log.report(SoundStageError(.alcInvalidContext, operation: "OpenAL.withContext", object: "context \(outer.raw)",
                                           reason: "OpenAL refused to make the enclosing call's context current again"))
            }
        }
        // Inside a call for the same context, it is current already.
        if outer?.raw != context.raw, currentContext(gateway) != context.raw { try makeCurrent(held, context.raw) }
        assert(currentContext(gateway) == context.raw, "SoundStage: a context was made current outside the gateway")
        return try body(ALScope(context: context, held))
    }

    /// Runs `body` with `context` current for the calling thread, without the lock: only for
    /// a direct property write (``ContextHandle/writeDirect(_:_:_:to:target:)``) on a thread
    /// that is inside no other gateway call, with per-thread contexts. OpenAL Soft serializes
    /// its own state in each call; the lock is for what SoundStage keeps (nesting, the
    /// current context of the global-context fallback) and for checked calls, and the write
    /// notes itself in the context's journal with atomic stores. Measured: skipping the lock
    /// took a per-call position set from 1.26x to 1.16x a raw `alSource3f` (BENCHMARKS.md).
    @inline(__always)
    static func withThreadContext<R>(_ context: ContextHandle, _ body: () throws -> R) throws -> R {
        if context.isClosed { throw context.closedError }
        if alcGetThreadContext() != context.raw, alcSetThreadContext(context.raw) == ALC_FALSE {
            // Closed by another thread between the check and the call.
            if context.isClosed { throw context.closedError }
            throw SoundStageError(.alcInvalidContext, operation: "OpenAL.withThreadContext", object: "context \(context.raw)",
                                  reason: "OpenAL refused to make the context current")
        }
        return try body()
    }

    /// Whether a direct property write may skip the lock (see ``withThreadContext(_:_:)``):
    /// on the main thread (the game's, whose context stays current from one write to the
    /// next), outside any gateway call.
    @inline(__always)
    static var directWritesSkipLock: Bool {
        let gateway = self.gateway
        return gateway.usesThreadContexts && !gateway.lock.isHeldByCurrentThread && gateway.mainThread.isCurrent
    }

    /// Makes one OpenAL object (`alGenEffects`, `alGenFilters`, ...) in `context` and sets it
    /// up with `configure`, checked after each; if setting up fails, the name is deleted again
    /// and the error thrown. The other half of ``deleteName(_:in:_:object:_:)``.
    static func makeName(in context: ContextHandle, _ operation: String, object: String,
                         _ generate: (ALsizei, UnsafeMutablePointer<ALuint>?) -> Void,
                         delete: (ALsizei, UnsafePointer<ALuint>?) -> Void,
                         configure: (ALuint) -> Void = { _ in }) throws -> ALuint {
        try withContext(context) { scope in
            var name: ALuint = 0
            try scope.call(operation, on: object) { generate(1, &name) }
            do {
                try scope.call(operation, on: object) { configure(name) }
            } catch {
                delete(1, &name)
                throw error
            }
            return name
        }
    }

    /// Deletes the OpenAL name of an object whose Swift life ends (`alDeleteSources`,
    /// `alDeleteBuffers`). A deinit cannot throw, so an error is logged, never dropped. In a
    /// closed context there is nothing to delete: the name went with the device.
    /// The texts are built only for an error: every source, buffer and filter that goes
    /// passes here (after an engine's shutdown, each of them found its context closed and built
    /// an error to drop, some 18,000 instructions).
    static func deleteName(_ name: ALuint, in context: ContextHandle, _ operation: @autoclosure () -> String,
                           object: @autoclosure () -> String, _ delete: (ALsizei, UnsafePointer<ALuint>?) -> Void) {
        guard !context.isClosed else { return }
        var name = name
        do {
            try withContext(context) { scope in try scope.call(operation(), on: object()) { delete(1, &name) } }
        } catch let error as SoundStageError where error.code == .deviceClosed {
            return
        } catch {
            Log.report(error)
        }
    }

    /// Runs ALC-only work (device queries, rendering) under the lock.
    @inline(__always)
    static func withDevice<R>(_ body: (borrowing LockHeld) throws -> R) rethrows -> R {
        try lock.withLock { held in try body(held) }
    }

    /// The context current for the calling thread's AL calls.
    @inline(__always)
    static func currentContext(_ gateway: Gateway = gateway) -> OpaquePointer? {
        gateway.usesThreadContexts ? alcGetThreadContext() : alcGetCurrentContext()
    }

    @inline(__always)
    private static func setCurrent(_ context: OpaquePointer?) -> Bool {
        (usesThreadContexts ? alcSetThreadContext(context) : alcMakeContextCurrent(context)) != ALC_FALSE
    }

    /// Lets go of the calling thread's context: the lock calls this as the thread lets go of
    /// it, outermost (see ``withContext(_:_:)``).
    @inline(__always)
    @usableFromInline static func releaseThreadContext() {
        guard gateway.usesThreadContexts, alcGetThreadContext() != nil else { return }
        _ = alcSetThreadContext(nil)
    }

    /// Makes `context` current for the calling thread.
    static func makeCurrent(_ held: borrowing LockHeld, _ context: OpaquePointer) throws {
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
package struct ALScope: ~Copyable {
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
    /// this context are checked first, so an error is pinned on what caused it: one found for
    /// them goes to the context's sink (``ContextHandle/sendToSink(_:)``), and this call goes
    /// ahead; it fails only for its own error.
    @inline(__always)
    func call<R>(
        _ operation: @autoclosure () -> String,
        on object: @autoclosure () -> String,
        _ body: () -> R
    ) throws -> R {
        if context.hasPending { sendPendingToSink() }
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
    package func write(_ note: UncheckedWrite, _ body: () -> Void) {
        body()
        context.note(note)
    }

    /// Checks the writes left unchecked in this context, handing an error to the context's
    /// sink.
    func sendPendingToSink() {
        do { try checkPending() } catch let error as SoundStageError { context.sendToSink(error) } catch {}
    }

    /// Checks the error state for the writes left unchecked in this context, and forgets them.
    ///
    /// - Throws: the error OpenAL reported, naming how many writes it could come from and the
    ///   first and last of them.
    package func checkPending() throws {
        guard context.hasPending else { return }
        let pending = context.takePending()
        let error = alGetError()
        if error != AL_NO_ERROR {
            throw SoundStageError(
                .al(error), operation: "OpenAL.checkPending", object: "context \(context.raw)",
                reason: "OpenAL reported \(SoundStageError.Code.al(error)) for \(pending.summary); SoundStage should have caught this first, please report it")
        }
    }
}
