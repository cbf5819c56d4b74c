import COpenAL
import Foundation
import Testing
@testable import SoundStage

@Suite("Lifetimes")
struct LifecycleTests {
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

    @Test("a buffer in use is never deleted under its source")
    func bufferInUse() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        weak var weakBuffer: AudioBuffer?
        var bufferName: UInt32 = 0
        do {
            let buffer = try Tone.buffer(scene.context, frequency: 440, sampleRate: 48_000)
            weakBuffer = buffer
            bufferName = buffer.name
            try source.setBuffer(buffer)
            try source.set(.isLooping, to: true)
            try source.set(.position, to: [0, 0, -1])
        }
        #expect(weakBuffer != nil, "the source keeps its buffer alive")
        #expect(weakBuffer?.isInUse == true)
        try source.play()
        #expect(Measure.dB(try scene.render(frames: 4_800), channel: 0) > -20, "and it still plays")
        try source.stop()
        try source.setBuffer(nil)
        #expect(weakBuffer == nil, "released once the source lets go")
        #expect(try aliveNames(scene.context, sources: [], buffers: [bufferName]).buffers == 0)
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

    @Test("going past the source limit throws sourceLimitReached, and releasing one makes room")
    func sourceLimit() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(monoSources: 6, stereoSources: 2, hrtf: .off))
        let limit = scene.context.sourceLimit
        #expect(limit == 8, "the 6 + 2 asked for, though OpenAL Soft grants more")
        var sources = try (0..<limit).map { _ in try AudioSource(context: scene.context) }
        #expect(scene.context.sourceCount == limit)
        #expect {
            _ = try AudioSource(context: scene.context)
        } throws: { error in
            let e = error as? SoundStageError
            return e?.code == .sourceLimitReached && e!.reason.contains("\(limit)")
        }
        sources.removeLast()
        sources.append(try AudioSource(context: scene.context))
        #expect(sources.count == limit)
    }
}

@Suite("Context switching")
struct ContextSwitchTests {
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
        // The current context is one per process: hold the gateway's lock so that tests on
        // other threads cannot make theirs current in between.
        try OpenAL.lock.withLock {
            // Make `other` the current context, as the last one used, before the operation.
            try weakOther?.listener.set(.gain, to: 1)
            #expect(alcGetCurrentContext() == weakOther?.handle.raw)
            // Replacing the buffer drops the last reference to it and so to `other`, inside the
            // source's own operation: the buffer is deleted in `other`, `other` is destroyed.
            try source.setBuffer(replacement)
            #expect(weakOther == nil)
            // The destroyed context must never be made current again (an earlier gateway did,
            // a use-after-free that OpenAL Soft happened not to report).
            #expect(alcGetCurrentContext() == scene.context.handle.raw)
        }
        // The source's context is still the one its calls reach.
        try source.set(.position, to: [0, 0, -1])
        try source.play()
        let audio = try scene.device.render(frames: 4_800)
        #expect(onsets(audio.channel(0)) == [100])
        #expect(source.get(.position) == [0, 0, -1])
    }
}
