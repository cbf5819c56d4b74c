import Foundation

/// Starts programs with posix_spawn, with every signal unblocked and at its default action:
/// a test runs on a worker thread that blocks signals, and a child started from it with
/// Foundation's Process inherits that mask (Ctrl-C, SIGTERM and a terminal's hangup would
/// then not reach it). Foundation's Process also waits for every inheritor of its monitoring
/// socket, a daemon the child leaves behind included.
package enum Spawn {
    /// Starts `tool`; its standard output goes to `stdout` (nil: /dev/null), its input and
    /// errors to /dev/null.
    package static func start(_ tool: URL, _ arguments: [String], environment: [String: String] = [:], stdout: Int32? = nil, closing: Int32? = nil) throws -> pid_t {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let closing { posix_spawn_file_actions_addclose(&actions, closing) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([tool.path] + arguments).map { strdup($0) } + [nil], envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tool.path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw PulseError("cannot run \(tool.path): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Waits for `pid` to end; returns its exit status.
    package static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xff
    }
}
