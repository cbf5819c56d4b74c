@testable import SoundStageCore
import Foundation
import Testing

/// The names SoundStage gives its threads are the kernel's (what `top -H`, `gdb`, `perf` and
/// `/proc/PID/task/TID/comm` show), whichever thread starts them and however soon they run.
@Suite("Thread names: the kernel's name of each thread SoundStage starts")
struct ThreadNameTests {
    /// The kernel's name of the calling thread.
    static func kernelName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    /// Foundation's `Thread.name` setter names the kernel's thread only once the parent has
    /// stored the new thread's id, after `pthread_create` returned; a thread that runs first
    /// kept its creator's name (seen: an engine's service thread named "oot.default-qos", the
    /// dispatch pool's, in 4 of 20 starts beside three busy loops).
    @Test("200 serial threads, started from 8 tasks at once, each run under the name it was given")
    func serialThreadsNamed() async throws {
        let names = LockedBox<[Int: String]>([:])
        let threads = (0..<200).map { SerialThread(name: "SS name \($0)") }
        await withTaskGroup(of: Void.self) { group in
            for part in 0..<8 {
                group.addTask {
                    for i in stride(from: part, to: threads.count, by: 8) {
                        threads[i].submit { names.withLock { $0[i] = Self.kernelName() } }
                    }
                }
            }
        }
        for _ in 0..<400 where names.withLock({ $0.count }) < threads.count { try await Task.sleep(for: .milliseconds(25)) }
        let seen = names.withLock { $0 }
        let wrong = (0..<threads.count).filter { seen[$0] != "SS name \($0)" }.map { "\($0): \(seen[$0] ?? "no job")" }
        #expect(wrong.isEmpty, "\(wrong.count) of \(threads.count) named otherwise: \(wrong.prefix(10))")
    }
}
