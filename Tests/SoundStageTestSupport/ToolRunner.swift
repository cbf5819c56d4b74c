import Foundation

/// Finds and runs external programs: sox and the vorbis tools on PATH, and the package's own
/// executables built beside the tests.
package enum ToolRunner {
    /// The executable `tool` on PATH, nil if there is none.
    package static func which(_ tool: String) -> URL? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent(tool)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// The built `soundstage` executable beside the test bundle.
    package static var soundstage: URL? { product("soundstage") }

    /// A built executable product beside the test bundle.
    package static func product(_ name: String) -> URL? {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `tool` to the end with this process's environment plus `environment` (without the
    /// OpenAL error traps if `dropTrap`), and returns its exit status and output.
    /// Runs `tool` to the end with its output thrown away, for a program that leaves a daemon
    /// behind (tmux, pulseaudio -D). Returns the exit status.
    package static func runDiscardingOutput(_ tool: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        Spawn.wait(try Spawn.start(tool, arguments, environment: environment))
    }

    package static func run(_ tool: URL, _ arguments: [String], environment: [String: String] = [:], dropTrap: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        if dropTrap {
            env["ALSOFT_TRAP_ALC_ERROR"] = nil
            env["ALSOFT_TRAP_AL_ERROR"] = nil
        }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error read beside standard output: a tool that fills one pipe (gdb's
        // warnings, 64 KB) while the other is read to its end would wait for ever.
        let errors = LockedData()
        let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = errors.waitForValue()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}

/// Data one thread reads and another waits for.
private final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?
    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.broadcast()
        condition.unlock()
    }
    func waitForValue() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data!
    }
}
