import Foundation
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// What a source keeps alive, and that released sources and buffers leave no OpenAL name behind.
extension AudioSourceTests {
    @Test("10,000 create-and-release cycles of buffers and sources leave no OpenAL name alive")
    func noLeaks() throws {
        let scene = try LoopbackRig()
        var sourceNames = Set<UInt32>()
        var bufferNames = Set<UInt32>()
        let samples = [Int16](repeating: 1000, count: 64)
        for i in 0..<10_000 {
            let buffer = try AudioBuffer(context: scene.context, samples: samples, sampleRate: 48_000)
            let source = try AudioSource(context: scene.context)
            try source.setBuffer(buffer)
            if i % 100 == 0 { try source.play() }
            sourceNames.insert(source.name)
            bufferNames.insert(buffer.name)
        }
        _ = try scene.device.render(frames: 64)
        #expect(scene.context.sourceCount == 0)
        let alive = try aliveNames(scene.context, sources: Array(sourceNames), buffers: Array(bufferNames))
        #expect(alive.sources == 0 && alive.buffers == 0, "alive: \(alive)")
        // Names were really made and released many times over, not one object kept.
        #expect(!sourceNames.isEmpty && !bufferNames.isEmpty)
    }

    @Test("a buffer stays alive while only queued on a source, and a source keeps its context and device")
    func ownershipChain() throws {
        var source: AudioSource?
        weak var weakContext: AudioContext?
        weak var weakDevice: AudioDevice?
        weak var weakBuffer: AudioBuffer?
        do {
            let scene = try LoopbackRig()
            weakContext = scene.context
            weakDevice = scene.device
            let buffer = try clickBuffer(scene.context, frames: 100, clicks: [0])
            weakBuffer = buffer
            source = try AudioSource(context: scene.context)
            try source?.queue([buffer])
        }
        #expect(weakContext != nil && weakDevice != nil && weakBuffer != nil)
        _ = try source?.context.device.render(frames: 10)
        source = nil
        #expect(weakBuffer == nil && weakContext == nil && weakDevice == nil, "everything released in order, no OpenAL error")
    }
}
