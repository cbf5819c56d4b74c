import COpenAL
import Dispatch
import Foundation
import Synchronization
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

@Suite("OpenALGateway: the error trap and context switching")
struct OpenALGatewayTests {
    static let provoke = "SOUNDSTAGE_PROVOKE_AL_ERROR"

    /// The rest of the suite only proves "no OpenAL error, ever" if an OpenAL error really
    /// stops the run. OpenAL Soft raises SIGTRAP under ALSOFT_TRAP_AL_ERROR=1, but Swift's
    /// crash backtracer catches SIGTRAP and returns, so the run would go on: scripts/test.sh
    /// turns the backtracer off. This test provokes an error in a child run of this test
    /// binary, with this run's environment, and expects it to die of SIGTRAP.
    @Test("an OpenAL error in this environment kills the test process")
    func trapIsArmed() throws {
        if ProcessInfo.processInfo.environment[Self.provoke] == "1" {
            let scene = try LoopbackRig()
            try OpenAL.withContext(scene.context.handle) { _ in alSourcef(999_999, AL_GAIN, 1) }   // AL_INVALID_NAME
            Issue.record("the AL error did not stop the process")
            return
        }
        let env = ProcessInfo.processInfo.environment
        try #require(env["ALSOFT_TRAP_AL_ERROR"] == "1" && env["ALSOFT_TRAP_ALC_ERROR"] == "1",
                     "run the tests with scripts/test.sh, which sets ALSOFT_TRAP_AL_ERROR=1 and ALSOFT_TRAP_ALC_ERROR=1")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "trapIsArmed"]
        child.environment = env.merging([Self.provoke: "1"]) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGTRAP,
                "the child ended with \(child.terminationReason == .exit ? "exit" : "signal") \(child.terminationStatus); if it exited, Swift's backtracer swallowed SIGTRAP: set SWIFT_BACKTRACE=enable=no (scripts/test.sh does)")
    }

    @Test("dropping the last reference to another context inside an operation neither trips OpenAL nor leaves the wrong context current")
    func contextDiesInsideAnOperation() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        weak var weakOther: AudioContext?
        do {
            // A second context on the same device, kept alive only by a buffer made in it.
            let other = try AudioContext(device: scene.device)
            weakOther = other
            let buffer = try clickBuffer(other, frames: 4_800, clicks: [0])
            try other.listener.set(.gain, to: 1)     // leave `other` current
            try source.setBuffer(buffer)
        }
        #expect(weakOther != nil)
        let replacement = try clickBuffer(scene.context, frames: 4_800, clicks: [100])
        // The current context is per thread (or, without ALC_EXT_thread_local_context, one per
        // process): hold the gateway's lock so that tests on other threads cannot change it in between.
        try OpenAL.lock.withLock { _ in
            // Make `other` the current context, as the last one used, before the operation.
            try weakOther?.listener.set(.gain, to: 1)
            #expect(OpenAL.currentContext() == weakOther?.handle.raw)
            // Replacing the buffer drops the last reference to it and so to `other`, inside the
            // source's own operation: the buffer is deleted in `other`, `other` is destroyed.
            try source.setBuffer(replacement)
            #expect(weakOther == nil)
            // The destroyed context must never be made current again (an earlier gateway did,
            // a use-after-free that OpenAL Soft happened not to report).
            #expect(OpenAL.currentContext() == scene.context.handle.raw)
        }
        // The source's context is still the one its calls reach.
        try source.set(.position, to: [0, 0, -1])
        try source.play()
        let audio = try scene.device.render(frames: 4_800)
        #expect(onsets(audio.channel(0)) == [100])
        #expect(source.get(.position) == [0, 0, -1])
    }
}

extension OpenALGatewayTests {
    @Test("a thread other than the main thread keeps no context current after its call, so none outlives its AudioContext")
    func workerThreadsLetGo() throws {
        guard OpenAL.usesThreadContexts else { return }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var during: OpaquePointer?
        nonisolated(unsafe) var after: OpaquePointer?
        let rig = try LoopbackRig()
        let source = try AudioSource(context: rig.context)
        let worker = Thread {
            try? OpenAL.withContext(rig.context.handle) { _ in during = alcGetThreadContext() }
            try? source.set(.position, to: [1, 0, 0])
            after = alcGetThreadContext()
            done.signal()
        }
        worker.start()
        done.wait()
        #expect(during == rig.context.handle.raw)
        #expect(after == nil, "the worker still holds \(String(describing: after))")
        #expect(source.get(.position) == [1, 0, 0])
    }
}

extension OpenALGatewayTests {
    @Test("lock-free position sets on the main thread, across two contexts, beside locked batches and renders of the same context on another thread")
    func lockFreeSetsBesideLockedWork() throws {
        guard OpenAL.usesThreadContexts else { return }
        let a = try LoopbackRig()
        let b = try LoopbackRig()
        let inA = try a.toneSource(at: [0, 0, -1])
        let other = try a.toneSource(at: [0, 0, -1], gain: 0)
        let inB = try b.toneSource(at: [0, 0, -1])
        try inA.play()
        try inB.play()
        let lockFree = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0), begun = DispatchSemaphore(value: 0)
        // The game's thread: the gateway treats it as the main one. It starts once the locked
        // work below has begun, so the two overlap however the threads are scheduled.
        Thread {
            begun.wait()
            OpenAL.gateway.mainThread.treatCurrentThreadAsMain()
            defer { OpenAL.lock.withLock { held in OpenAL.releaseCurrent(held) } }
            do {
                for i in 0..<2_000 {
                    if OpenAL.directWritesSkipLock { lockFree.add(1, ordering: .relaxed) }
                    try inA.set(.position, to: [Float(i % 7) - 3, 0, -1])
                    try inB.set(.position, to: [Float(i % 5) - 2, 0, -1])
                }
                try inA.set(.position, to: [3, 0, -1])
                try inB.set(.position, to: [-3, 0, -1])
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
            done.signal()
        }.start()
        // Meanwhile, locked work on context a from another thread.
        var rendered = 0
        repeat {
            try a.context.update { try $0.set(.position, of: other, to: [Float(rendered % 3), 0, -1]) }
            _ = try a.device.render(frames: 64)
            try a.context.checkErrors()
            rendered += 1
            if rendered == 1 { begun.signal() }
        } while done.wait(timeout: .now()) == .timedOut
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(lockFree.load(ordering: .relaxed) == 2_000, "the sets took the lock-free path")
        #expect(rendered > 0)
        try a.context.checkErrors()
        try b.context.checkErrors()
        #expect(inA.get(.position) == [3, 0, -1])
        #expect(inB.get(.position) == [-3, 0, -1])
        let right = try a.render(frames: 4_800), left = try b.render(frames: 4_800)
        #expect(Measure.dB(right, channel: 1) - Measure.dB(right, channel: 0) > 10, "a's source is on the right")
        #expect(Measure.dB(left, channel: 0) - Measure.dB(left, channel: 1) > 10, "b's source is on the left")
    }
}
