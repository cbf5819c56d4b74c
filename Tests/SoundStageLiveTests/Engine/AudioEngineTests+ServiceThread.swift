import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

/// A real-time engine on the sound server scripts/test.sh starts.
@Suite("AudioEngine in real time: events on the service thread")
struct AudioEngineServiceThreadTests {
    @Test("a real-time engine delivers finished on its service thread, once the end is heard",
          .enabled(if: PulseServer.expected || PulseServer.answers, "needs a PulseAudio server; scripts/test.sh starts one"))
    func serviceThread() async throws {
        let engine = try AudioEngine()
        defer { engine.shutdown() }
        let sound = Sound(buffer: try clickBuffer(engine.context, frames: 2_400, clicks: [10], sampleRate: 48_000))
        let player = engine.makePlayer(sound)
        let log = EventLog()
        player.delegate = log
        let events = player.events()
        let started = ContinuousClock.now
        try player.play()
        let source = try #require(player.audioSource)
        // When the mixer is done with the source (a fresh PulseAudio stream may take a while to
        // start), seen by a thread of its own: a test task can wait long on a busy pool.
        let stoppedAt = Mutex<ContinuousClock.Instant?>(nil)
        let polled = DispatchSemaphore(value: 0)
        Thread {
            while stoppedAt.withLock({ $0 }) == nil, ContinuousClock.now - started < .seconds(10) {
                if source.state == .stopped { stoppedAt.withLock { $0 = .now } } else { usleep(1_000) }
            }
            polled.signal()
        }.start()
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { polled.wait(); done.resume() }.start()
        }
        let stopped = stoppedAt.withLock { $0 }
        // When the delegate heard of it, on the service thread.
        let finished = try #require(log.times.first)
        #expect(event?.description == "finished(successfully: true)")
        #expect(log.threads == ["service"])
        let mixed = try #require(stopped)
        #expect(finished - started >= .milliseconds(50), "reported \(finished - started) after play(); the sound lasts 50 ms")
        // Reported after the output latency (up to about 70 ms here) plus at most a tick or two.
        #expect(finished - mixed < .milliseconds(150), "reported \(finished - mixed) after the mixer finished")
    }
}
