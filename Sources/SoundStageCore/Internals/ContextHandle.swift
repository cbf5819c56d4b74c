import COpenAL
import Foundation

/// An OpenAL context as the gateway keeps it: its C pointer, and the property writes made
/// into it since its error state was last checked (``UncheckedWrites``).
///
/// Two pointers and nothing counted: objects copy it freely on the per-call path. The
/// ``AudioContext`` that makes one frees it (``free()``) when it is destroyed; everything
/// holding a copy keeps that context alive.
package struct ContextHandle: @unchecked Sendable {
    let raw: OpaquePointer
    private let journal: UnsafeMutablePointer<UncheckedJournal>

    init(_ raw: OpaquePointer) {
        self.raw = raw
        journal = .allocate(capacity: 1)
        journal.initialize(to: UncheckedJournal())
    }

    /// Releases the journal; the context is being destroyed.
    func free() {
        journal.deinitialize(count: 1)
        journal.deallocate()
    }

    /// Whether writes wait to be checked.
    @inline(__always)
    var hasPending: Bool { !journal.pointee.isEmpty }

    /// Whether the context was destroyed with its device (``AudioDevice/close()``).
    @inline(__always)
    var isClosed: Bool { journal.pointee.closed.load(ordering: .acquiring) }

    /// Destroys the context, its last writes and any error left in it checked first, and
    /// notes it closed; under the gateway lock. The journal stays until ``free()``.
    func destroy(_ held: borrowing LockHeld, _ operation: String, object: String) {
        do {
            try OpenAL.withContext(self) { scope in try scope.call(operation, on: object) {} }
        } catch {
            Log.report(error)
        }
        OpenAL.releaseCurrent(held, ifItIs: raw)
        alcDestroyContext(raw)
        journal.pointee.closed.store(true, ordering: .releasing)
    }

    /// The error a call into a closed context gets.
    var closedError: SoundStageError {
        SoundStageError(.deviceClosed, operation: "OpenAL call", object: "context \(raw)",
                        reason: "its device was closed (AudioEngine.shutdown() or AudioDevice.close()); make a new engine or context")
    }

    /// Sends errors found for this context's unchecked writes by unrelated calls to `sink`
    /// (nil: to the log).
    package func setErrorSink(_ sink: (@Sendable (SoundStageError) -> Void)?) {
        journal.pointee.sink.withLock { $0 = sink }
    }

    /// Hands an error found for the unchecked writes to the sink, or the log.
    func sendToSink(_ error: SoundStageError) {
        if let sink = journal.pointee.sink.withLock({ $0 }) { sink(error) } else { Log.report(error) }
    }

    /// Notes a write handed to OpenAL unchecked.
    @inline(__always)
    func note(_ write: UncheckedWrite) { journal.pointee.note(write) }

    /// The writes waiting to be checked, forgotten here.
    func takePending() -> UncheckedWrites { journal.pointee.take() }

    /// Writes a vector property straight through its C writer, unchecked, and notes it.
    /// The context must be current for the calling thread.
    @inline(__always)
    func writeDirect(_ writer: ALVectorWriter, _ param: Int32, _ value: SIMD3<Float>,
                     to name: ALuint, target: UncheckedWrite.Target) {
        withUnsafePointer(to: value) {
            $0.withMemoryRebound(to: Float.self, capacity: 3) { writer(name, param, $0) }
        }
        note(UncheckedWrite(target: target, object: name, param: param))
    }
}
