import Foundation
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// A buffer's lifetime under the source that plays it (reads OpenAL names, hence @testable).
extension AudioBufferTests {
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
}
