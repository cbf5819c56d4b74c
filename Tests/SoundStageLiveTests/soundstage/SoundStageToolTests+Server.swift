import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// `soundstage play` on the PulseAudio server scripts/test.sh starts.
@Suite("SoundStageTool on the sound server: play")
struct SoundStageToolServerTests {
    @Test("soundstage play plays a file on the sound server and reports it",
          .enabled(if: PulseServer.expected || PulseServer.answers, "needs a PulseAudio server; scripts/test.sh starts one"))
    func playTool() throws {
        try #require(PulseServer.answers, "scripts/test.sh started PulseAudio, but it does not answer")
        let tool = try #require(ToolRunner.soundstage)
        let snare = Assets.drums.appendingPathComponent("snare.wav")
        let result = try ToolRunner.run(tool, ["play", snare.path, "--at", "2,0,-1", "--gain", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("played") && result.stdout.contains("0.25 s"), "\(result.stdout)")
        let bad = try ToolRunner.run(tool, ["play", snare.path, "--at", "2,zero,-1"])
        #expect(bad.status != 0 && bad.stderr.contains("--at takes X,Y,Z"))
    }
}
