import Dispatch
import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

/// Sources used from several threads and tasks at once.
extension AudioSourceTests {
    @Test("sources and buffers made, played, moved and released from several threads at once, across contexts")
    func manyThreads() throws {
        // Two devices; the first has two contexts, so the threads keep switching contexts.
        let a = try LoopbackRig()
        let b = try LoopbackRig()
        let a2 = try AudioContext(device: a.device, attributes: ContextAttributes(hrtf: .off))
        let contexts = [a.context, a2, b.context]
        let shared = try Tone.buffer(a.context, frequency: 500, sampleRate: 48_000)
        let failures = Mutex<[String]>([])
        let audible = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            do {
                let context = contexts[thread % contexts.count]
                for round in 0..<40 {
                    let source = try AudioSource(context: context)
                    let buffer = context.device === a.device && round % 2 == 0
                        ? shared
                        : try Tone.buffer(context, frequency: 250, sampleRate: 48_000)
                    try source.setBuffer(buffer)
                    try source.set(.position, to: [Float(thread), 0, Float(-round)])
                    try source.set(.gain, to: 0.5)
                    try source.play()
                    if round % 10 == 0 {
                        // Render from worker threads too, while others change sources.
                        let audio = try context.device.render(frames: 256)
                        if audio.samples.contains(where: { $0 != 0 }) { audible.add(1, ordering: .relaxed) }
                    }
                    #expect(source.get(.position) == [Float(thread), 0, Float(-round)])
                    try source.pause()
                }
            } catch {
                failures.withLock { $0.append("thread \(thread): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(audible.load(ordering: .relaxed) > 0, "the renders heard the sources")
        for context in contexts { #expect(context.sourceCount == 0, "\(context) leaked sources") }
        #expect(!shared.isInUse)
    }

    @Test("one source shared by tasks: concurrent setters and getters stay consistent")
    func sharedSource() async throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(at: [0, 0, -1])
        try source.play()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    for i in 0..<300 {
                        let value = Float(task * 1000 + i)
                        try source.set(.position, to: [value, value, value])
                        let p = source.get(.position)
                        // Another task may have written since, but never a torn vector.
                        #expect(p.x == p.y && p.y == p.z)
                        try source.set(.gain, to: Float(i % 10) / 10)
                    }
                }
            }
            group.addTask {
                for _ in 0..<50 { _ = try scene.device.render(frames: 128) }
            }
            try await group.waitForAll()
        }
        #expect(source.isPlaying)
    }
}
