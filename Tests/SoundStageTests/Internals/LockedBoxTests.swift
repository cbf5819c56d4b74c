import Foundation
import Testing
@testable import SoundStageCore

/// A lock taken with a bound on the wait (`withLock(waitingAtMost:)`): what an engine's service
/// thread uses where another thread may hold the lock for seconds.
@Suite("LockedBox: a lock waited for at most so long")
struct LockedBoxTests {
    @Test("free, it runs the body; held by another thread all along, nil after the wait and the body not run; let go within the wait, it runs")
    func boundedWait() throws {
        let box = LockedBox(0)
        #expect(box.withLock(waitingAtMost: .milliseconds(10)) { value -> Int in value += 1; return value } == 1)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.withLock { _ in
                holding.signal()
                release.wait()
            }
            released.signal()
        }
        holding.wait()
        let began = ContinuousClock.now
        let refused = box.withLock(waitingAtMost: .milliseconds(50)) { value -> Int in value += 1; return value }
        let waited = ContinuousClock.now - began
        #expect(refused == nil)
        // It waited (not refused at once), and the body did not run.
        #expect(waited >= .milliseconds(45), "\(waited)")
        // Let go while another waits up to 5 s: that one runs.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { release.signal() }
        #expect(box.withLock(waitingAtMost: .seconds(5)) { value -> Int in value += 1; return value } == 2)
        released.wait()
        // Waits out of range are bounded (0 s to an hour), no trap: a free lock is taken.
        #expect(box.withLock(waitingAtMost: .seconds(-5)) { $0 } == 2)
        #expect(box.withLock(waitingAtMost: .seconds(Int64.max)) { $0 } == 2)
    }

    /// The wait is of the monotonic clock where glibc has `pthread_mutex_clocklock` (2.30 and
    /// later; Debian 12 has 2.36), so a step of the wall clock cannot end it early. The step
    /// itself is not made here: it would change the machine's time for everything else on it.
    @Test("the bounded wait is of the monotonic clock on this C library")
    func monotonicWait() {
        #if canImport(Glibc)
        #expect(MutexClockLock.lock != nil, "glibc without pthread_mutex_clocklock: the wait is of the realtime clock")
        #endif
    }
}
