import Foundation
import SoundStageCore

/// A task executor with a thread of its own, for a test that consumes a real-time stream
/// (a capture) for a minute: on the shared cooperative pool (two threads on a two-core
/// machine) the test runner's long synchronous tests held both threads, and the consumer's
/// task did not run for 95 s, so 4.6 M captured frames were dropped. Run the consuming loop
/// inside `withTaskExecutorPreference(DedicatedExecutor.shared) { ... }`.
package final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    /// One for the test process; its thread waits when there is nothing to run.
    package static let shared = DedicatedExecutor(name: "test consumer")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    package init(name: String) {
        let thread = Thread { [self] in
            ThreadName.setCurrent(name)
            run()
        }
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
