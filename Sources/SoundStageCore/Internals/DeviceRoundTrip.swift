#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Calls that wait on the sound server, one at a time in the process, outside the gateway's
/// lock where the caller holds none: a device reset (``AudioContext/switchHRTF(_:named:)``,
/// ``AudioContext/switchLatency(to:)``) or reopened in place. OpenAL Soft then makes the
/// device's stream again, a round trip to PulseAudio or PipeWire that lasts as long as the
/// server takes to answer: libpulse waits up to 30 s for a server that is stopped. Under the
/// gateway's lock every game-thread call (a voice moved every frame) would wait with it;
/// measured before: a server stopped 5 s during an HRTF switch held a `setPosition` 5.0 s.
/// OpenAL Soft keeps its own state safe across such a call (its device lock; a source's
/// properties have locks of their own), so the gateway need not be held.
///
/// The order is the gateway's lock, then this one, never the other way: a round trip holds no
/// gateway it did not hold already (its bookkeeping is in locks of its own and atomics), and a
/// device is closed (``DeviceLife/close(_:_:object:)``, under the gateway) inside this lock,
/// so none is closed under a round trip and none reset once closed. A caller that holds the
/// gateway already (the engine's service thread stepping its latency back) keeps it through
/// the round trip.
///
/// A source's output latency is never read during a round trip on its device, by any thread:
/// OpenAL Soft reads it holding the source list's lock, then the device's lock, and a reset
/// takes them the other way round (1.19.1: `BackendLock`, then the context's `SourceLock`;
/// 1.23.1: `StateLock`, then `mSourceLock`). With the reset outside the gateway's lock, a game
/// thread reading a player's time during the engine's own step back from a latency mode
/// deadlocked both (seen in CI: drumdub's screen and sound stood still after a snare and after
/// Ctrl-Z and `fg`); ``AudioSource`` reads the latency through ``unlessAnyRunning(_:)``, which
/// holds this lock while it reads, so no round trip starts meanwhile.
///
/// Setting `PULSE_LATENCY_MSEC` for the call (``PulseLatency/asking(_:_:)``) changes the
/// process's environment: done inside this lock, no two round trips ask at once.
enum DeviceRoundTrip {
    /// A recursive mutex that lives as long as the process.
    private struct Mutex: @unchecked Sendable {
        let raw = RecursiveLock.recursiveMutex()
    }

    private static let mutex = Mutex()
    /// The device of the round trip running (its `ALCdevice*` as a number), 0 when none.
    private static let device = Atomic<UInt>(0)

    /// Runs `body`, a round trip on `device` (its C handle), no other round trip running
    /// meanwhile.
    static func run<R>(on device: OpaquePointer, _ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex.raw)
        let outer = Self.device.exchange(UInt(bitPattern: device), ordering: .relaxed)
        defer {
            Self.device.store(outer, ordering: .relaxed)
            pthread_mutex_unlock(mutex.raw)
        }
        return try body()
    }

    /// Runs `body`, a read of `device` that OpenAL Soft makes under its device's lock and no
    /// other lock of its own, unless a round trip on that device may run now on another
    /// thread (which holds that lock until the server answers): then nil, nothing run. A
    /// round trip known to be on another device does not stop it; one that has taken the lock
    /// and not yet said its device does. A round trip on this device may start while `body`
    /// runs (after the other one ended): it waits for `body`'s device lock, which `body` lets
    /// go without taking another, so the two cannot deadlock. A read that takes another lock
    /// of OpenAL Soft's first (a source's latency) uses ``unlessAnyRunning(_:)``.
    static func unlessRunning<R>(on device: OpaquePointer, _ body: () throws -> R) rethrows -> R? {
        guard pthread_mutex_trylock(mutex.raw) == 0 else {
            let running = Self.device.load(ordering: .relaxed)
            return running == 0 || running == UInt(bitPattern: device) ? nil : try body()
        }
        defer { pthread_mutex_unlock(mutex.raw) }
        return try body()
    }

    /// Runs `body`, a read OpenAL Soft makes under the lock of a device not named here (a
    /// source's latency, read where only the source is known), unless a round trip runs now
    /// on another thread: then nil, nothing run. None starts while `body` runs.
    static func unlessAnyRunning<R>(_ body: () throws -> R) rethrows -> R? {
        guard pthread_mutex_trylock(mutex.raw) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex.raw) }
        return try body()
    }

    /// For the process's exit: takes the lock within `seconds` and keeps it, so no round trip
    /// starts after; false when a round trip still runs then (its server does not answer).
    static func holdForTheRestOfTheProcess(within seconds: Double) -> Bool {
        RecursiveLock.lock(mutex.raw, within: seconds)
    }
}
