import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Event streams whose reader does not keep up hold at most 1,024 events: the oldest are
/// dropped and counted, so a stream nobody reads costs bounded memory however many events
/// come (issue 53 item 8).
@Suite("Event streams: bounded, the oldest dropped and counted")
struct EventStreamBoundsTests {
    @Test("a player's stream left unread through 1,500 interruptions (3,000 events) holds the newest 1,024, and droppedEventCount says 1,976")
    func playerStreamBounded() async throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        let player = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5))
        player.numberOfLoops = -1
        let unread = player.events()
        try player.play()
        _ = try engine.render(frames: 480)
        for _ in 0..<1_500 {
            engine.beginInterruption()
            engine.endInterruption(resume: true)
        }
        #expect(player.droppedEventCount == 3_000 - 1_024)
        // What the stream still holds: the newest 1,024, in order, ending with the last end.
        var held: [PlayerEvent] = []
        for await event in unread {
            held.append(event)
            if held.count == 1_024 { break }
        }
        #expect(held.count == 1_024)
        #expect(held.first.map { if case .interruptionBegan = $0 { true } else { false } } == true)
        #expect(held.last.map { if case .interruptionEnded = $0 { true } else { false } } == true)
        // A stream that is read keeps up and drops nothing more.
        let read = player.events()
        engine.beginInterruption()
        engine.endInterruption(resume: true)
        var next = read.makeAsyncIterator()
        #expect(await next.next() != nil)
        #expect(player.droppedEventCount == 3_000 - 1_024)
    }
}
