import COpenAL
import Foundation
import Logging
import Synchronization
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// Property writes are handed to OpenAL without an error check after each; an error OpenAL
/// reports for one is still found, named, and never ignored. OpenAL only reports one for a
/// value SoundStage failed to validate, so the tests write such a value through the gateway
/// directly, in a child run of this test binary with OpenAL's error traps off.
extension AudioContextTests {
    static let uncheckedChild = "SOUNDSTAGE_UNCHECKED_WRITE_CHILD"

    @Test("an error OpenAL reports for an unchecked write is found by checkErrors(), by the engine's tick, and by other calls, which still do their own work")
    func uncheckedWriteErrors() async throws {
        if ProcessInfo.processInfo.environment[Self.uncheckedChild] == "1" {
            try await uncheckedWriteErrorsInChild()
            return
        }
        var env = ProcessInfo.processInfo.environment
        env["ALSOFT_TRAP_AL_ERROR"] = nil
        env["ALSOFT_TRAP_ALC_ERROR"] = nil
        env[Self.uncheckedChild] = "1"
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-unchecked-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "uncheckedWriteErrors"]
        child.environment = env
        let output = try FileHandle(forWritingTo: log)
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let deadline = Date().addingTimeInterval(120)
        while child.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        if child.isRunning { child.terminate() }
        child.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "the child run failed:\n\(text.suffix(3_000))")
        #expect(text.contains("1 test") && text.contains("passed"), "the child ran no test:\n\(text.suffix(3_000))")
    }

    /// Writes `AL_GAIN` -1 to the source named `name` in `context` as an unchecked write,
    /// bypassing validation.
    private func badWrite(_ context: AudioContext, _ name: ALuint) throws {
        try OpenAL.withContext(context.handle) { scope in
            scope.write(UncheckedWrite(target: .source, object: name, param: AL_GAIN)) { alSourcef(name, AL_GAIN, -1) }
        }
    }

    private func uncheckedWriteErrorsInChild() async throws {
        let logged = LogCapture.install()
        let rig = try LoopbackRig()
        let source = try rig.toneSource(at: [1, 0, 0])
        try rig.context.checkErrors()   // the tone source's own writes
        try source.set(.position, to: [1, 0, 0])
        try badWrite(rig.context, source.name)
        try source.set(.velocity, to: [0, 0, 1])
        // checkErrors: the error, naming the writes it may come from.
        expectError(.alInvalidValue, mentioning: ["one of 3 property writes", "AL_POSITION of source \(source.name)", "AL_VELOCITY"]) {
            try rig.context.checkErrors()
        }
        try rig.context.checkErrors()   // checked and forgotten: nothing left
        // Caught by its code alone.
        try badWrite(rig.context, source.name)
        var caught = false
        do { try rig.context.checkErrors() } catch SoundStageError.Code.alInvalidValue { caught = true }
        #expect(caught)

        // Another call finds it first: it does its own work, and the error is logged, naming the write.
        try badWrite(rig.context, source.name)
        try source.play()
        #expect(source.state == .playing)
        #expect(logged.messages.contains { $0.contains("AL_INVALID_VALUE") && $0.contains("AL_GAIN of source \(source.name)") }, "\(logged.messages)")
        try rig.context.checkErrors()
        // A source released just after an unchecked write OpenAL refused is still deleted.
        var name: ALuint = 0
        do {
            let doomed = try AudioSource(context: rig.context)
            name = doomed.name
            try badWrite(rig.context, doomed.name)
        }
        let alive = try OpenAL.withContext(rig.context.handle) { _ in alIsSource(name) != 0 }
        #expect(!alive, "source \(name) was never deleted")

        // An engine's tick checks the writes of its context and posts what it (or a call) finds.
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let events = engine.events()
        let player = engine.makePlayer(try EngineRig.clicks(engine, frames: 4_800, at: [10]))
        try player.play()
        let engineSource = try #require(player.audioSource)
        try badWrite(engine.context, engineSource.name)
        _ = try engine.render(frames: 960)
        let event = await withTaskGroup(of: EngineEvent?.self) { group -> EngineEvent? in
            group.addTask { for await event in events { return event }; return nil }
            group.addTask { try? await Task.sleep(for: .seconds(10)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let text = event?.description ?? "no event"
        #expect(text.contains("serviceError") && text.contains("AL_INVALID_VALUE") && text.contains("AL_GAIN"), "\(text)")
    }
}

/// Collects what SoundStage logs, for a child test run (swift-log is bootstrapped once a process).
final class LogCapture: LogHandler, @unchecked Sendable {
    private static let shared = LogCapture()
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// Routes every logger to the capture and returns it.
    static func install() -> LogCapture {
        LoggingSystem.bootstrap { _ in shared }
        return shared
    }

    var messages: [String] { lines.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.message)") }
    }
}
