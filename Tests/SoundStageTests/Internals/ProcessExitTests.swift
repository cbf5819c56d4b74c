import Foundation
import Testing
import SoundStageTestSupport

@Suite("The process's exit: OpenAL is called no more once the exit began")
struct ProcessExitTests {
    /// A thread that first uses the OpenAL gateway as the process exits, after SoundStage's
    /// exit handler ran and before OpenAL Soft's clean-up (forced every time by the ExitRace
    /// program's own exit handler; by chance, it aborted 10 of 40 runs of a documentation
    /// sample on a loaded machine): the gateway makes no OpenAL call then, and the process
    /// exits 0. With the exit handler registered by the gateway's first use, as before, the
    /// call went through and the program exited 3 every time.
    @Test("a thread whose first OpenAL use comes as the process exits makes no OpenAL call")
    func firstUseDuringExit() throws {
        let race = try #require(ToolRunner.product("ExitRace"), "ExitRace is built beside the tests")
        // The program waits a second for a call that should never return.
        let result = try ToolRunner.run(race, [], environment: ["ALSOFT_DRIVERS": "null"])
        #expect(result.status == 0, "status \(result.status) (3: OpenAL was called after the exit began; 134: OpenAL Soft aborted)\n\(result.stderr)")
        #expect(result.stdout == "exiting\n")
    }
}
