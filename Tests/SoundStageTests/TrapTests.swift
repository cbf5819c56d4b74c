import COpenAL
import Foundation
import Testing
@testable import SoundStage

@Suite("The OpenAL error trap")
struct TrapTests {
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
            try OpenAL.withContext(scene.context.handle) { alSourcef(999_999, AL_GAIN, 1) }   // AL_INVALID_NAME
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
}
