import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Bad input to a source gets a typed error and OpenAL never sees it.
extension AudioSourceTests {
    @Test("source properties out of range")
    func sourceRanges() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.set(.gain, to: 0.7)
        expectError(.invalidArgument, mentioning: ["gain", "-1", "source"]) { try source.set(.gain, to: -1) }
        #expect(source.get(.gain) == 0.7, "a rejected value leaves the old one")
        expectError(.invalidArgument, mentioning: ["gain", "nan"]) { try source.set(.gain, to: .nan) }
        expectError(.invalidArgument, mentioning: ["position"]) { try source.set(.position, to: [0, .infinity, 0]) }
        expectError(.invalidArgument, mentioning: ["velocity"]) { try source.set(.velocity, to: [.nan, 0, 0]) }
        expectError(.invalidArgument, mentioning: ["coneInnerAngle", "0.0...360.0"]) { try source.set(.coneInnerAngle, to: 400) }
        expectError(.invalidArgument, mentioning: ["coneOuterGain"]) { try source.set(.coneOuterGain, to: 1.5) }
        expectError(.invalidArgument, mentioning: ["minGain"]) { try source.set(.minGain, to: 2) }
        expectError(.invalidArgument, mentioning: ["maxGain"]) { try source.set(.maxGain, to: -0.1) }
        expectError(.invalidArgument, mentioning: ["pitch"]) { try source.set(.pitch, to: -1) }
        expectError(.invalidArgument, mentioning: ["referenceDistance"]) { try source.set(.referenceDistance, to: -1) }
        expectError(.invalidArgument, mentioning: ["rolloffFactor"]) { try source.set(.rolloffFactor, to: -2) }
        expectError(.invalidArgument, mentioning: ["maxDistance"]) { try source.set(.maxDistance, to: .infinity) }
        expectError(.invalidArgument, mentioning: ["radius"]) { try source.set(.radius, to: -1) }
        expectError(.invalidArgument, mentioning: ["stereoAngles"]) { try source.set(.stereoAngles, to: [.nan, 0]) }
        expectError(.invalidArgument, mentioning: ["resampler", "99"]) { try source.set(.resampler, to: 99) }
        expectError(.invalidArgument, mentioning: ["sampleOffset"]) { try source.set(.sampleOffset, to: -5) }
        expectError(.invalidArgument, mentioning: ["secondOffset"]) { try source.set(.secondOffset, to: -0.5) }
        expectError(.readOnly, mentioning: ["state"]) { try source.set(.state, to: .playing) }
        expectError(.readOnly, mentioning: ["buffersQueued"]) { try source.set(.buffersQueued, to: 3) }
    }

    @Test("offsets past the end of the buffer are refused")
    func offsetsPastEnd() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(try clickBuffer(scene.context, frames: 48_000, clicks: [0]))
        expectError(.invalidArgument, mentioning: ["past the end", "48000"]) { try source.set(.sampleOffset, to: 48_000) }
        expectError(.invalidArgument, mentioning: ["past the end"]) { try source.set(.secondOffset, to: 1.5) }
        expectError(.invalidArgument, mentioning: ["past the end"]) { try source.set(.byteOffset, to: 4 * 48_000) }
        try source.play()
        expectError(.invalidArgument, mentioning: ["past the end"]) { try source.set(.sampleOffset, to: 60_000) }
        try source.set(.sampleOffset, to: 47_999)
    }

    @Test("state rules: buffer changes while playing, queueing onto a static source, unqueueing a loop")
    func stateRules() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        let a = try clickBuffer(scene.context, frames: 4_800, clicks: [0])
        let b = try clickBuffer(scene.context, frames: 4_800, clicks: [0])
        try source.setBuffer(a)
        try source.play()
        expectError(.invalidState, mentioning: ["playing", "stop"]) { try source.setBuffer(b) }
        #expect(source.buffer === a)
        expectError(.invalidState, mentioning: ["static"]) { try source.queue([b]) }
        try source.stop()
        try source.setBuffer(nil)

        let streaming = try AudioSource(context: scene.context)
        try streaming.queue([a])
        let stereo = try AudioBuffer(context: scene.context, samples: [Int16](repeating: 0, count: 20), channels: .stereo, sampleRate: 48_000)
        expectError(.invalidArgument, mentioning: ["int16 stereo", "float32 mono"]) { try streaming.queue([stereo]) }
        let otherRate = try clickBuffer(scene.context, frames: 100, clicks: [0], sampleRate: 44_100)
        expectError(.invalidArgument, mentioning: ["44100"]) { try streaming.queue([otherRate]) }
        try streaming.set(.isLooping, to: true)
        try streaming.play()
        _ = try scene.device.render(frames: 6_000)
        #expect(try streaming.unqueueProcessedBuffers().isEmpty, "OpenAL reports nothing processed while looping")
    }

    @Test("objects of another device or context are refused")
    func wrongContext() throws {
        let one = try LoopbackRig()
        let two = try LoopbackRig()
        let source = try AudioSource(context: one.context)
        let foreign = try clickBuffer(two.context, frames: 100, clicks: [0])
        expectError(.wrongContext, mentioning: ["loopback device"]) { try source.setBuffer(foreign) }
        expectError(.wrongContext) { try source.queue([foreign]) }
        let other = try AudioSource(context: two.context)
        expectError(.wrongContext, mentioning: ["share one context"]) { try AudioSource.play([source, other]) }

        // A second context on the same device shares the device's buffers.
        let sibling = try AudioContext(device: one.device)
        let siblingSource = try AudioSource(context: sibling)
        try siblingSource.setBuffer(try clickBuffer(one.context, frames: 100, clicks: [0]))
    }
}
