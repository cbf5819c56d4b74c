import Foundation

/// What a process's threads are doing, for a failure message when a program under test stops
/// answering: each thread's stack from gdb (`thread apply all bt`, when gdb is installed), else
/// each thread's name, state and the kernel function it waits in (`/proc`).
package enum ThreadDump {
    /// The threads of process `pid`, or why they could not be read.
    package static func of(_ pid: Int32) -> String {
        if let gdb = ToolRunner.which("gdb"),
           let out = try? ToolRunner.run(gdb, ["-p", "\(pid)", "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt 30"]).stdout,
           out.contains("Thread ") {
            // gdb's own lines (symbol loading, the attach) before the first thread are left out.
            let lines = out.components(separatedBy: "\n")
            let first = lines.firstIndex { $0.hasPrefix("Thread ") } ?? 0
            return "threads of process \(pid) (gdb):\n" + lines[first...].joined(separator: "\n")
        }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        guard !tasks.isEmpty else { return "process \(pid): no threads to read (gone?)" }
        let rows = tasks.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { tid -> String in
            func read(_ name: String) -> String {
                ((try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let state = read("stat").split(separator: ")").last.map { String($0.split(separator: " ").first ?? "?") } ?? "?"
            return "  \(tid) \(read("comm")) state \(state) waiting in \(read("wchan"))"
        }
        return "threads of process \(pid) (no gdb; from /proc):\n" + rows.joined(separator: "\n")
    }

    /// The processes below `pid` (its children, theirs, and so on), from `/proc`.
    package static func descendants(of pid: Int32) -> [Int32] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        var parent: [Int32: Int32] = [:]
        for p in all {
            guard let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let ppid = Int32(fields[1]) { parent[p] = ppid }
        }
        var found: [Int32] = [], frontier = [pid]
        while let next = frontier.popLast() {
            let children = parent.filter { $0.value == next }.map(\.key).sorted()
            found += children
            frontier += children
        }
        return found
    }
}
