import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Foundation
import Synchronization
import Testing
import SoundStageTestSupport

@Suite("SerialThread: jobs in order on one thread, which ends when idle")
struct SerialThreadTests {
    /// The kernel's id of the calling thread (from /proc/thread-self, "PID/task/TID").
    static func threadID() -> String {
        ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "").components(separatedBy: "/").last ?? ""
    }

    @Test("jobs run in order on one thread; it ends after idling and a new one takes the next job")
    func idleEnds() async throws {
        let thread = SerialThread(name: "SS test serial")
        let log = Mutex<[Int]>([])
        let ids = Mutex<Set<String>>([])
        for i in 0..<50 {
            thread.submit {
                log.withLock { $0.append(i) }
                ids.withLock { _ = $0.insert(Self.threadID()) }
            }
        }
        // Waits for the jobs, however slow the machine.
        for _ in 0..<200 where log.withLock({ $0.count }) < 50 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(log.withLock { $0 } == Array(0..<50))
        let first = ids.withLock { $0 }
        #expect(first.count == 1 && !(first.first ?? "").isEmpty, "one thread ran them all: \(first)")
        // Idle past the limit: the thread ends; the next job gets a new one and still runs.
        try await Task.sleep(for: .seconds(SerialThread.idleSeconds + 1))
        let tid = first.first ?? ""
        #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(tid)"), "the idle thread \(tid) ended")
        let done = Mutex(false)
        thread.submit { done.withLock { $0 = true } }
        for _ in 0..<200 where !done.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(done.withLock { $0 })
    }
}
