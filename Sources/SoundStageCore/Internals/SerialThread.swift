import Foundation
import Synchronization

/// A thread of its own that runs the jobs handed to it one at a time, in order: where the
/// audio session acts on what its watchers saw and delivers its events, so a watcher's own
/// thread (a sound-server callback) never waits on an engine. The thread ends after
/// ``idleSeconds`` with nothing to do, and a new one starts with the next job.
package final class SerialThread: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var started = false
    }

    private let queue = LockedBox(Queue())
    /// How long the thread waits for a job before it ends.
    static let idleSeconds = 5.0
    private let wake = DispatchSemaphore(value: 0)
    /// The thread's name (Linux keeps 15 characters).
    let name: String
    private let key: String

    package init(name: String) {
        self.name = name
        key = "SoundStage.SerialThread.\(name)"
    }

    /// Whether the calling thread is this one.
    package var isCurrent: Bool { Thread.current.threadDictionary[key] as? Bool ?? false }

    /// Runs `job` on the thread after the jobs already handed to it.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        let start = queue.withLock { q -> Bool in
            q.jobs.append(job)
            defer { q.started = true }
            return !q.started
        }
        if start {
            let thread = Thread { [self] in
                ThreadName.setCurrent(name)
                Thread.current.threadDictionary[key] = true
                while true {
                    let woken = wake.wait(timeout: .now() + Self.idleSeconds) == .success
                    let jobs = queue.withLock { q -> [@Sendable () -> Void]? in
                        // Idle: end, unless a job came in meanwhile (decided under the lock, so
                        // the next submit starts a new thread if this one has gone).
                        if !woken, q.jobs.isEmpty {
                            q.started = false
                            return nil
                        }
                        defer { q.jobs = [] }
                        return q.jobs
                    }
                    guard let jobs else { return }
                    for job in jobs { job() }
                }
            }
            thread.start()
        }
        wake.signal()
    }

    /// Waits until the jobs handed to the thread before this call have run, or until
    /// `deadline`; returns whether they ran. Does not wait when called from the thread itself
    /// (it would wait for its own job): returns false at once. For the process's exit.
    package func waitForJobs(before deadline: ContinuousClock.Instant) -> Bool {
        if isCurrent { return false }
        let ran = DispatchSemaphore(value: 0)
        submit { ran.signal() }
        let left: Duration = max(.zero, deadline - ContinuousClock.now)
        let nanoseconds = Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)
        return ran.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
