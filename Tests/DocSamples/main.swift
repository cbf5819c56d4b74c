import Foundation

// The documentation's Swift code blocks, compiled by the build and run by DocSamplesTests:
//
//   doc-samples list                  every sample's id (README.md:39, ...)
//   doc-samples run ID [SECONDS]      runs one: exit 0 when it returns, or when it still runs
//                                     after SECONDS (2 by default; a sample that listens for
//                                     events goes on for ever); exit 1 with the error it threw
//
// A sample that returns is followed by the given engine's shutdown; every run ends with a
// normal exit, with or without sound playing, so OpenAL would report a device left open and
// its traps a call made as the process exits.

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for sample in allSamples { print(sample.id) }
case "run":
    guard arguments.count >= 2, let sample = allSamples.first(where: { $0.id == arguments[1] }) else {
        FileHandle.standardError.write(Data("doc-samples: no sample \(arguments.dropFirst().first ?? "named"); `doc-samples list` lists them\n".utf8))
        exit(2)
    }
    let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 2 : 2
    // Not on the main actor: the main thread waits below, and it alone exits (two threads
    // calling exit() at once is undefined: each runs the exit handlers).
    let done = DispatchSemaphore(value: 0)
    /// The exit status the sample's task leaves; read after it signals `done`.
    final class Status: @unchecked Sendable {
        private let lock = NSLock()
        private var code: Int32 = 0
        var value: Int32 {
            get { lock.withLock { code } }
            set { lock.withLock { code = newValue } }
        }
    }
    let status = Status()
    Task.detached {
        do {
            try await sample.run()
            Given.shutdown()
            print("\(sample.id): returned")
        } catch {
            Given.shutdown()
            FileHandle.standardError.write(Data("\(sample.id): threw \(error)\n".utf8))
            status.value = 1
        }
        done.signal()
    }
    if done.wait(timeout: .now() + seconds) == .timedOut { print("\(sample.id): still running after \(seconds) s") }
    exit(status.value)
default:
    FileHandle.standardError.write(Data("usage: doc-samples list | run ID [SECONDS]\n".utf8))
    exit(2)
}
