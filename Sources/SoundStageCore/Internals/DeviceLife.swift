import COpenAL
import CProcessExit
import Foundation

/// What the process knows of one open OpenAL device: its C handle, whether it was closed, and
/// the contexts made on it; shared by the device's object (`AudioDevice`, `CaptureDevice`)
/// and the process's list of open devices, so a device can be closed with no reference to
/// its object (one whose last reference is going, as the process exits).
///
/// Every field is read and written under the gateway lock.
final class DeviceLife: @unchecked Sendable {
    let raw: OpaquePointer
    let isCapture: Bool
    private(set) var isClosed = false
    /// The contexts made on the device and not yet destroyed.
    private var contexts: [ContextHandle] = []

    /// Notes a device just opened, in the process's list.
    init(_ held: borrowing LockHeld, raw: OpaquePointer, isCapture: Bool) {
        self.raw = raw
        self.isCapture = isCapture
        Self.open.withLock { $0[ObjectIdentifier(self)] = self }
    }

    /// Notes a context made on the device.
    func adopt(_ held: borrowing LockHeld, _ context: ContextHandle) { contexts.append(context) }

    /// Forgets a context destroyed on its own.
    func release(_ held: borrowing LockHeld, _ context: ContextHandle) { contexts.removeAll { $0.raw == context.raw } }

    /// Closes the device, its contexts destroyed first (``ContextHandle/destroy(_:_:object:)``),
    /// unless it is closed already; it leaves the process's list.
    ///
    /// Inside ``DeviceRoundTrip``: a reset of the device running outside the gateway's lock
    /// ends first, and none starts on it once it is closed.
    func close(_ held: borrowing LockHeld, _ operation: String, object: String) {
        DeviceRoundTrip.run(on: raw) {
            guard !isClosed else { return }
            for context in contexts { context.destroy(held, operation, object: "a context of \(object)") }
            contexts.removeAll()
            isClosed = true
            _ = isCapture ? alcCaptureCloseDevice(raw) : alcCloseDevice(raw)
            Self.open.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        }
    }

    /// The devices open in the process.
    private static let open = LockedBox<[ObjectIdentifier: DeviceLife]>([:])

    /// As the process exits (the exit handler of target CProcessExit, registered as the
    /// library loads, calls this once the gateway has made its first OpenAL call): every
    /// device still open is closed (a game that exits holding its engine, or dropping it as
    /// it exits while the service thread still holds it for a tick), before
    /// OpenAL Soft's own clean-up, which would report each as "device not closed". The
    /// gateway lock is then kept, so no thread calls into OpenAL once its clean-up has run.
    ///
    /// A thread inside OpenAL waiting on a sound server that does not answer (stopped, while
    /// a device was reset: libpulse waits 30 s) would hold the exit as long, and OpenAL Soft's
    /// clean-up would then run under it. When the gateway's lock or a round trip's is not let
    /// go within ``exitWaitSeconds`` each, the process ends there (``ss_exit_now``: with the
    /// status it exits with, its output flushed, the libraries' clean-up not run); the server
    /// sees its connection close.
    static func closeAllAtExit() {
        let closed = OpenAL.lock.holdForTheRestOfTheProcess(within: exitWaitSeconds) { held in
            guard DeviceRoundTrip.holdForTheRestOfTheProcess(within: exitWaitSeconds) else { ss_exit_now() }
            for life in DeviceLife.open.withLock({ Array($0.values) }) {
                life.close(held, "exit", object: life.isCapture ? "a capture device" : "a device")
            }
            // What closing found (writes never checked), said now: the lock is never let go.
            Log.flushWaiting()
            // And what OpenAL Soft logged that its copier has not passed on yet.
            OpenALLog.copy()
        }
        if !closed { ss_exit_now() }
    }

    /// How long the exit waits for the gateway's lock, and then for a round trip, to be let go.
    static let exitWaitSeconds = 0.8
}
