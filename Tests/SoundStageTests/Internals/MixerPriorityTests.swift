import Foundation
import Testing
import SoundStageTestSupport

/// OpenAL Soft's mixer thread at real-time priority where the system allows it: the
/// configuration SoundStage gives OpenAL Soft asks `rt-prio = 1`, which 1.19.1 does not by
/// default (1.23.1 does). Read from the kernel: each thread's scheduling policy and priority in
/// `/proc/PID/task/TID/stat`, of `soundstage session` playing on OpenAL Soft's null output.
@Suite("OpenAL Soft's mixer at real-time priority where allowed")
struct MixerPriorityTests {
    /// Each thread of process `pid`: its name, scheduling policy (0 normal, 1 FIFO, 2 RR) and
    /// real-time priority (stat fields 41 and 40, counted from 1, after the name in parentheses).
    static func threads(of pid: pid_t) -> [(name: String, policy: Int, priority: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            // Fields 3 on, after ") ": field n is at index n - 3.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 38, let priority = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
            return (String(stat[stat.index(after: open)..<close]), policy, priority)
        }
    }

    /// Whether this process may ask for real-time scheduling: root, or `RLIMIT_RTPRIO` above 0
    /// (a child inherits both).
    static var mayUseRealTime: Bool {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(14), &limit)   // RLIMIT_RTPRIO (a macro Swift does not see)
        return geteuid() == 0 || limit.rlim_cur > 0
    }

    @Test("a playing engine's mixer thread runs at SCHED_RR priority 1 where the system allows it, and every other thread at the normal priority")
    func mixerAtRealTimePriority() throws {
        let tool = try #require(ToolRunner.soundstage)
        let child = try ChildProcess(tool, ["session", "--tone", "440", "--seconds", "60"], environment: ["ALSOFT_DRIVERS": "null"])
        defer { child.stop() }
        // Until the engine plays (its service thread, "SoundStage svc", starts once the device
        // is open; the mixer's comes with the device), or 20 s. Polled on this thread: in the
        // parallel tier the tasks' own threads are busy, and a task's sleep once ended 50 s late.
        Poll.until(seconds: 20, every: 0.05) { Self.threads(of: child.pid).contains { $0.name == "SoundStage svc" } }
        usleep(500_000)
        let threads = Self.threads(of: child.pid)
        let realTime = threads.filter { $0.policy != 0 }
        print("MixerPriorityTests: \(threads.count) threads, real-time \(realTime), allowed \(Self.mayUseRealTime)")
        try #require(threads.contains { $0.name == "SoundStage svc" }, "the engine did not start in 20 s: \(threads); the tool \(child.ending), printed \(child.lines.suffix(10))")
        if Self.mayUseRealTime {
            // One thread: OpenAL Soft's mixer (SoundStage's own threads stay normal).
            #expect(realTime.count == 1 && realTime[0].policy == 2 && realTime[0].priority == 1, "\(threads)")
        } else {
            #expect(realTime.isEmpty, "\(threads)")
        }
    }
}
