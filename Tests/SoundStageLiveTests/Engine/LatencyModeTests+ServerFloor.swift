import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

extension LatencyModeTests {
    /// The game's `server:` line, once the session's monitor has read its stream's
    /// `node.latency` from the server: the frames, and the floor note if the server's floor
    /// set the latency.
    static func nodeLatencyLine(_ game: ChildProcess) -> (frames: Int, floor: Bool)? {
        guard let line = game.lines.first(where: { $0.contains(" ms  server: ") }),
              let frames = line.firstMatch(of: /(?:node\.latency|gave the stream) (\d+)\/48000/)?.1 else { return nil }
        return (Int(frames)!, line.contains("the server's floor: 144 frames asked, PipeWire gave the stream 256/48000 (5.3 ms), its pulse.min.quantum"))
    }

    @Test("the floor read from the server: on PipeWire at its default pulse.min.quantum the engine reads its stream's node.latency, 256/48000, and says it is the server's floor where low asked 144 frames; with a minimum quantum of 64 it reads the 144 asked, and no floor; PulseAudio has no node.latency and says nothing",
          arguments: [(PrivatePulse.Kind.pipewire, nil), (.pipewire, 64), (.pulseaudio, nil)] as [(PrivatePulse.Kind, Int?)])
    func serverFloorRead(kind: PrivatePulse.Kind, quantum: Int?) throws {
        try #require(kind.isInstalled, "\(kind) is not installed")
        let pulse = try PrivatePulse(kind, minimumQuantum: quantum)
        defer { pulse.stop() }
        try pulse.addDefaultSink("out")
        let game = try pulse.session(["--latency", "low", "--tone", "300"])
        defer { game.stop() }
        #expect(game.waitForLine(containing: "latency mode low") != nil, "\(game.lines)")
        try pulse.waitUntilPlaying("out")
        // The monitor reads the stream when the server announces it: well within 2 s.
        Poll.until(seconds: 2, every: 0.02) { Self.nodeLatencyLine(game) != nil }
        let read = Self.nodeLatencyLine(game)
        print("serverFloorRead(\(kind), minimum quantum \(quantum.map(String.init) ?? "default")): \(game.lines.filter { $0.contains(" ms  server: ") })")
        switch (kind, quantum) {
        case (.pulseaudio, _):
            #expect(read == nil, "\(game.lines)")
        case (_, nil):
            #expect(read?.frames == 256 && read?.floor == true, "\(game.lines)")
        default:
            #expect(read?.frames == 144 && read?.floor == false, "\(game.lines)")
        }
        // The server's own word agrees: pactl shows the same node.latency on the game's stream.
        if kind == .pipewire, let read {
            let inputs = try pulse.pactl(["list", "sink-inputs"]).stdout
            #expect(inputs.contains("node.latency = \"\(read.frames)/48000\""), "\(inputs)")
        }
    }
}
