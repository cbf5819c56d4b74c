import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Playback control of sources on a loopback device; the other files of this suite
/// (AudioSourceTests+*.swift) cover spatial rendering, validation, lifetimes and threads.
@Suite("AudioSource: playback, spatial rendering, validation, lifetimes, threads")
struct AudioSourceTests {
    /// What the engine's session pause rests on (the device pauses first, the sources resume
    /// before it does): a pause taken up with its resume in one mix leaves the sound as if it
    /// had never paused. A pause mixed on its own is faded out, from 1.20 over the 64 frames
    /// after the offset the source keeps, so those frames are heard again on resuming.
    @Test("a pause and its resume in one mix: nothing faded, nothing heard twice; a pause mixed alone fades the frames after its offset")
    func pauseResumedInOneMix() throws {
        func rig() throws -> (LoopbackRig, AudioSource) {
            let scene = try LoopbackRig()
            let source = try AudioSource(context: scene.context)
            try source.setBuffer(try Tone.buffer(scene.context, frequency: 440, sampleRate: 48_000))
            try source.set(.position, to: [0, 0, -1])
            try source.play()
            return (scene, source)
        }
        let (plain, playing) = try rig()
        let reference = try plain.device.render(frames: 9_600).channel(0)
        withExtendedLifetime(playing) {}

        let (scene, source) = try rig()
        let before = try scene.device.render(frames: 4_800).channel(0)
        try source.pause()
        try source.play()
        let after = try scene.device.render(frames: 4_800).channel(0)
        let worst = zip(before + after, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-6, "paused and resumed before a mix: the render as if it had not paused (largest difference \(worst))")

        let (alone, pausing) = try rig()
        _ = try alone.device.render(frames: 4_800)
        try pausing.pause()
        let fade = alone.context.mixerSmoothing.stopFadeFrames
        let paused = try alone.device.render(frames: 480).channel(0)
        #expect(pausing.get(.sampleOffset) == 4_800, "the offset kept is where the pause came")
        #expect(Measure.dB(Array(paused.dropFirst(fade))) == -160, "silent after the fade of \(fade) frames")
        if fade > 0 {
            // The fade plays on from the offset kept: its first frame is the next one's.
            #expect(abs(paused[0] - reference[4_800]) < 0.05, "the fade starts at frame 4800: \(paused[0]) against \(reference[4_800])")
            #expect(Measure.dB(Array(paused.prefix(fade))) > -30, "the \(fade) frames after the offset are heard, faded")
        }
    }

    @Test("pause and resume keep the offset; stop and rewind reset it")
    func pauseResumeStopRewind() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(try Tone.buffer(scene.context, frequency: 440, sampleRate: 48_000))
        try source.set(.position, to: [0, 0, -1])
        #expect(source.state == .initial)
        try source.play()
        #expect(source.state == .playing)
        _ = try scene.device.render(frames: 4800)
        #expect(source.get(.sampleOffset) == 4800)
        try source.pause()
        #expect(source.state == .paused)
        let paused = try scene.device.render(frames: 9600)
        #expect(Measure.dB(Measure.afterStopFade(paused, channel: 0, scene.context)) == -160, "a paused source is silent")
        #expect(source.get(.sampleOffset) == 4800, "pausing keeps the offset")
        try source.play()
        let resumed = try scene.device.render(frames: 4800)
        #expect(Measure.dB(resumed, channel: 0) > -20)
        #expect(source.get(.sampleOffset) == 9600)
        #expect(abs(source.get(.secondOffset) - 0.2) < 1e-4)
        let latency = source.get(.offsetWithLatency)
        #expect(abs(latency.offset - 0.2) < 1e-4 && latency.latency >= 0)
        try source.stop()
        #expect(source.state == .stopped)
        #expect(source.get(.sampleOffset) == 0)
        try source.play()
        _ = try scene.device.render(frames: 480)
        try source.rewind()
        #expect(source.state == .initial)
        #expect(source.get(.sampleOffset) == 0)
    }

    @Test("a sound plays to its end and stops by itself")
    func playsToEnd() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(try clickBuffer(scene.context, frames: 4800, clicks: [0]))
        try source.play()
        _ = try scene.device.render(frames: 4799)
        #expect(source.state == .playing)
        _ = try scene.device.render(frames: 2)
        #expect(source.state == .stopped)
    }

    @Test("sources started together begin on the same sample; started apart they do not")
    func startTogether() throws {
        let scene = try LoopbackRig()
        let left = try AudioSource(context: scene.context)
        let right = try AudioSource(context: scene.context)
        let clicks = try clickBuffer(scene.context, frames: 4800, clicks: [0])
        for (source, x) in [(left, Float(-1)), (right, 1)] {
            try source.setBuffer(clicks)
            try source.set(.position, to: [x, 0, 0])
        }
        _ = try scene.device.render(frames: 1000)
        try AudioSource.play([left, right])
        let together = try scene.device.render(frames: 4800)
        let l = try #require(onsets(together.channel(0)).first)
        let r = try #require(onsets(together.channel(1)).first)
        #expect(l == r, "left onset \(l), right onset \(r)")

        try AudioSource.stop([left, right])
        try left.play()
        _ = try scene.device.render(frames: 0)
        let first = try scene.device.render(frames: 100)
        try right.play()
        let rest = try scene.device.render(frames: 4700)
        var apart = first
        apart.append(rest)
        let l2 = try #require(onsets(apart.channel(0)).first)
        let r2 = try #require(onsets(apart.channel(1)).first)
        #expect(r2 - l2 == 100, "started 100 frames apart: \(l2) and \(r2)")
    }

    @Test("seeking by samples and seconds lands on the exact frame")
    func seek() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(try clickBuffer(scene.context, frames: 48_000, clicks: [30_000]))
        try source.set(.sampleOffset, to: 24_000)
        try source.play()
        let audio = try scene.device.render(frames: 12_000)
        #expect(onsets(audio.channel(0)) == [6_000])
        try source.stop()
        try source.set(.secondOffset, to: 0.5)   // 24,000 frames
        try source.play()
        #expect(onsets(try scene.device.render(frames: 12_000).channel(0)) == [6_000])
        try source.stop()
        try source.set(.byteOffset, to: 4 * 29_000)
        try source.play()
        #expect(onsets(try scene.device.render(frames: 12_000).channel(0)) == [1_000])
    }

    @Test("a looping source repeats its buffer sample-exactly")
    func looping() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        try source.setBuffer(try clickBuffer(scene.context, frames: 4_800, clicks: [0]))
        try source.set(.isLooping, to: true)
        try source.play()
        let audio = try scene.device.render(frames: 4_800 * 4)
        #expect(onsets(audio.channel(0)) == [0, 4_800, 9_600, 14_400])
        #expect(source.state == .playing)
    }

    @Test("queued buffers play in order, are counted and come back when processed")
    func queue() throws {
        let scene = try LoopbackRig()
        let source = try AudioSource(context: scene.context)
        let buffers = try (0..<3).map { _ in try clickBuffer(scene.context, frames: 1_000, clicks: [0]) }
        try source.queue(buffers)
        #expect(source.get(.buffersQueued) == 3)
        #expect(source.get(.type) == .streaming)
        try source.play()
        let audio = try scene.device.render(frames: 2_500)
        #expect(onsets(audio.channel(0)) == [0, 1_000, 2_000])
        #expect(source.get(.buffersProcessed) == 2)
        let done = try source.unqueueProcessedBuffers()
        #expect(done.count == 2 && done[0] === buffers[0] && done[1] === buffers[1])
        #expect(source.get(.buffersQueued) == 1)
        #expect(!buffers[0].isInUse && buffers[2].isInUse)
        try source.queue([done[0]])
        let more = try scene.device.render(frames: 1_500)
        #expect(onsets(more.channel(0)) == [500])
    }

    @Test("pitch 2 doubles the frequency and halves the duration")
    func pitch() throws {
        let scene = try LoopbackRig()
        let source = try scene.toneSource(frequency: 500, at: [0, 0, -1])
        try source.set(.pitch, to: 2)
        #expect(source.get(.pitch) == 2)
        try source.play()
        let f = Measure.peakFrequency(try scene.render(frames: 32_768).channel(0), sampleRate: 48_000)
        #expect(abs(f - 1000) / 1000 < 0.005, "\(f) Hz")
    }

    @Test("every resampler plays a tone at the right frequency")
    func resamplers() throws {
        let scene = try LoopbackRig()
        let names = scene.context.resamplers
        #expect(names.count >= 2, "\(names)")
        #expect(names.indices.contains(scene.context.defaultResampler))
        let source = try scene.toneSource(frequency: 1000, at: [0, 0, -1])
        try source.set(.pitch, to: 1.25)
        try source.play()
        for index in names.indices {
            try source.set(.resampler, to: index)
            #expect(source.get(.resampler) == index)
            let f = Measure.peakFrequency(try scene.render(frames: 16_384).channel(0), sampleRate: 48_000)
            #expect(abs(f - 1250) / 1250 < 0.005, "\(names[index]): \(f) Hz")
        }
    }
}
