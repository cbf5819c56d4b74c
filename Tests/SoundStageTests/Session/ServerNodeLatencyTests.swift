import Testing
@testable import SoundStageCore
import SoundStageSession

/// A stream's `node.latency` as PipeWire writes it, read as a peer's value: only `FRAMES/RATE`
/// with both in range, and the floor it shows against what a latency mode asked.
@Suite("ServerNodeLatency: the server's node.latency, checked and compared with the request")
struct ServerNodeLatencyTests {
    @Test("the server's text read: 256/48000 and 236/44100; anything else, or out of range, is nothing")
    func parsing() throws {
        let read = try #require(ServerNodeLatency(property: "256/48000"))
        #expect(read.frames == 256 && read.sampleRate == 48_000 && abs(read.seconds - 0.005_333) < 1e-6)
        #expect(read.description == "256/48000 (5.3 ms)")
        #expect(ServerNodeLatency(property: "236/44100")?.frames(at: 48_000) == 257)
        for hostile in ["", "/", "256", "256/", "/48000", "256/0", "0/48000", "-256/48000", "256/-48000", "256/48000/1",
                        " 256/48000", "256 /48000", "+256/48000", "65537/48000", "256/768001", "9223372036854775807/48000",
                        "99999999999999999999/48000", "256/48000\0", "２５６/48000", "1e3/48000", "0x100/48000"] {
            #expect(ServerNodeLatency(property: hostile) == nil, "\(hostile.debugDescription) is refused")
        }
        #expect(ServerNodeLatency(frames: 65_536, sampleRate: 768_000) != nil)
        #expect(ServerNodeLatency(frames: Int.max, sampleRate: 48_000) == nil && ServerNodeLatency(frames: 256, sampleRate: Int.min) == nil)
    }

    @Test("the floor: 256 frames given where low asked 144 at 48 kHz is the server's; 144 given is the request's, and so is 200 (not half as long again)")
    func floor() throws {
        // low asks 12 ms: a period of 144 frames at 48 kHz.
        let low = ServerLatencyRequest(milliseconds: 12, origin: .mode, replaced: nil, periodFrames: 256, sampleRate: 48_000)
        let floor = try #require(ServerNodeLatency(property: "256/48000"))
        #expect(floor.isFloor(asked: low))
        #expect(floor.floorNote(asked: low) == "the server's floor: 144 frames asked, PipeWire gave the stream 256/48000 (5.3 ms), its pulse.min.quantum")
        for met in ["144/48000", "200/48000", "132/44100"] {
            let given = try #require(ServerNodeLatency(property: met))
            #expect(!given.isFloor(asked: low) && given.floorNote(asked: low) == nil, "\(met)")
        }
        // The server's rate is not the device's: 236 frames at 44.1 kHz is 257 at 48 kHz, a floor.
        #expect(ServerNodeLatency(property: "236/44100")?.isFloor(asked: low) == true)
    }
}
