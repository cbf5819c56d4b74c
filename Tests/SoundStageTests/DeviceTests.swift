import Foundation
import Testing
import SoundStage

@Suite("Devices, contexts and buffers")
struct DeviceTests {
    @Test("enumeration and extensions")
    func enumeration() throws {
        // This machine may or may not have devices; the lists must be consistent either way.
        let outputs = AudioDevice.outputDevices
        if let name = AudioDevice.defaultOutputDevice { #expect(outputs.contains(name)) }
        let captures = AudioDevice.captureDevices
        if let name = AudioDevice.defaultCaptureDevice { #expect(captures.contains(name)) }
        #expect(AudioDevice.isExtensionPresent("ALC_SOFT_loopback"))
        #expect(AudioDevice.extensions.contains("ALC_ENUMERATION_EXT"))
        let scene = try LoopbackRig()
        #expect(scene.device.isExtensionPresent("ALC_SOFT_HRTF"))
        #expect(scene.device.isConnected)
        #expect(scene.context.isExtensionPresent("AL_SOFT_source_spatialize"))
        #expect(scene.context.extensions.contains("AL_EXT_FLOAT32"))
        #expect(!scene.device.availableHRTFs.isEmpty)
        #expect(scene.device.description.contains("48000 Hz stereo float32"))
    }

    @Test("loopback renders every channel layout and sample type", arguments: OutputChannels.allCases)
    func layouts(channels: OutputChannels) throws {
        for type in RenderSampleType.allCases {
            let format = RenderFormat(sampleRate: 44_100, channels: channels, sampleType: type)
            let scene = try LoopbackRig(format: format)
            #expect(scene.context.frequency == 44_100)
            let source = try scene.toneSource(frequency: 441, at: [-1, 0, -1])
            try source.play()
            let audio = try scene.render(frames: 4_410)
            #expect(audio.samples.count == 4_410 * channels.channelCount)
            #expect(audio.frameCount == 4_410)
            let loudest = (0..<channels.channelCount).map { Measure.dB(audio, channel: $0) }.max()!
            #expect(loudest > -30, "\(format): loudest channel \(loudest) dB")
            #expect(audio.samples.allSatisfy { abs($0) <= 1.0001 })
        }
    }

    @Test("context attributes are put in effect and readable")
    func attributes() throws {
        let scene = try LoopbackRig(attributes: ContextAttributes(refresh: 100, monoSources: 16, stereoSources: 4, hrtf: .off, outputLimiter: false))
        #expect(scene.context.refresh == 0, "a loopback device mixes on request, so no refresh rate")
        #expect(scene.context.stereoSources == 4)
        // OpenAL Soft grants at least 256 sources; SoundStage enforces the 20 asked for.
        #expect(scene.context.monoSources + scene.context.stereoSources >= 20)
        #expect(scene.context.sourceLimit == 20)
        #expect(scene.context.outputLimiter == false)
        #expect(scene.context.hrtfStatus == .disabled)
        #expect(scene.context.hrtfName == nil)

        let hrtf = try LoopbackRig(attributes: ContextAttributes(hrtf: .on, hrtfName: try AudioDevice.openLoopback().availableHRTFs.first))
        #expect(hrtf.context.hrtfStatus == .enabled)
        let mono = try LoopbackRig(format: RenderFormat(channels: .mono), attributes: ContextAttributes(hrtf: .on))
        #expect(mono.context.hrtfStatus == .unsupportedFormat)
    }

    @Test("the output limiter keeps a hot mix under full scale; without it the float output clips past 1")
    func limiter() throws {
        for limiter in [true, false] {
            let scene = try LoopbackRig(attributes: ContextAttributes(hrtf: .off, outputLimiter: limiter))
            let source = try scene.toneSource(at: [0, 0, -1])
            // A source's gain is clamped by its maxGain (at most 1); the listener's is not.
            try scene.context.listener.set(.gain, to: 8)
            try source.play()
            let peak = try scene.render(frames: 48_000, settle: 48_000).samples.map(abs).max()!
            if limiter {
                #expect(peak <= 1.0, "limited peak \(peak)")
            } else {
                #expect(peak > 1.5, "unlimited peak \(peak)")
            }
        }
    }

    @Test("distance model and Doppler settings round-trip", arguments: DistanceModel.allCases)
    func distanceModels(model: DistanceModel) throws {
        let scene = try LoopbackRig()
        try scene.context.set(.distanceModel, to: model)
        #expect(scene.context.get(.distanceModel) == model)
        try scene.context.set(.dopplerFactor, to: 0.5)
        try scene.context.set(.speedOfSound, to: 1_500)
        #expect(scene.context.get(.dopplerFactor) == 0.5)
        #expect(scene.context.get(.speedOfSound) == 1_500)
        let source = try AudioSource(context: scene.context)
        try source.set(.distanceModel, to: model)
        #expect(source.get(.distanceModel) == model)
    }

    @Test("buffer facts: channels, bits, frames, duration, bytes, and the kept samples")
    func bufferFacts() throws {
        let scene = try LoopbackRig()
        let c = scene.context
        let int16 = try AudioBuffer(context: c, samples: [Int16](repeating: 100, count: 4_800), channels: .stereo, sampleRate: 48_000, label: "a.wav")
        #expect(int16.channelCount == 2 && int16.bitsPerSample == 16 && int16.frameCount == 2_400)
        #expect(int16.byteCount == 9_600 && abs(int16.duration - 0.05) < 1e-12)
        #expect(int16.description.contains("a.wav"))
        #expect(int16.floatSamples().first == Float(100) / 32_768)
        let bytes = try AudioBuffer(context: c, samples: [UInt8](repeating: 255, count: 600), channels: .surround51, sampleRate: 22_050)
        #expect(bytes.channelCount == 6 && bytes.bitsPerSample == 8 && bytes.frameCount == 100)
        #expect(bytes.floatSamples().first == Float(127) / 128)
        let floats = try AudioBuffer(context: c, samples: [Float](repeating: 0.25, count: 800), channels: .surround71, sampleRate: 96_000)
        #expect(floats.channelCount == 8 && floats.bitsPerSample == 32 && floats.frameCount == 100 && floats.byteCount == 3_200)
        #expect(floats.floatSamples() == [Float](repeating: 0.25, count: 800))
        let ima = try AudioBuffer(context: c, bytes: [UInt8](repeating: 0, count: 36 * 2), format: BufferFormat(.imaADPCM(framesPerBlock: 65), .mono), sampleRate: 8_000)
        #expect(ima.frameCount == 130 && ima.bitsPerSample == (c.version.contains("ALSOFT 1.19") ? 16 : 4) && ima.floatSamples() == [Float](repeating: 0, count: 130))
        let ms = try AudioBuffer(context: c, bytes: [UInt8](repeating: 0, count: 2 * 38), format: BufferFormat(.msADPCM(framesPerBlock: 64), .stereo), sampleRate: 8_000)
        #expect(ms.frameCount == 64)
        for (encoding, layout) in [(SampleEncoding.muLaw, ChannelLayout.quad), (.aLaw, .stereo), (.int16, .rear), (.float32, .surround61)] {
            let format = BufferFormat(encoding, layout)
            let b = try AudioBuffer(context: c, bytes: [UInt8](repeating: 0, count: format.bytesPerBlock * 10), format: format, sampleRate: 8_000)
            #expect(b.frameCount == 10 && b.format == format)
        }
    }

    @Test("a buffer copied to a new device plays the same samples there")
    func copyToNewDevice() throws {
        let old = try LoopbackRig()
        let buffer = try Tone.buffer(old.context, frequency: 750, sampleRate: 48_000)
        let fresh = try LoopbackRig()
        let copy = try buffer.copy(to: fresh.context)
        #expect(copy.bytes == buffer.bytes && copy.label == buffer.label && copy.context === fresh.context)
        let source = try AudioSource(context: fresh.context)
        try source.setBuffer(copy)
        try source.set(.isLooping, to: true)
        try source.play()
        let f = Measure.peakFrequency(try fresh.render(frames: 16_384).channel(0), sampleRate: 48_000)
        #expect(abs(f - 750) < 3)
    }

    @Test("a real output device that does not open says so and names the ways out")
    func noOutputDevice() throws {
        // Run in a child process without the error trap: OpenAL Soft raises an ALC error when
        // a backend fails to open, which the trap would turn into a crash of this test run.
        // The child's OpenAL uses only ALSA, pointed at a device that does not exist.
        let tool = try #require(ToolRunner.soundstage, "the soundstage tool is built beside the tests")
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-nodevice-\(getpid()).conf")
        try "[general]\ndrivers = alsa\n[alsa]\ndevice = soundstage-no-such-device\n".write(to: conf, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: conf) }
        let result = try ToolRunner.run(tool, ["devices", "--open"],
                                        environment: ["ALSOFT_CONF": conf.path, "ALSOFT_DRIVERS": "alsa", "ALSOFT_LOGLEVEL": "0"],
                                        dropTrap: true)
        #expect(result.status != 0)
        #expect(result.stderr.contains("no output device"), "\(result.stderr)")
        #expect(result.stderr.contains("ALSOFT_DRIVERS") && result.stderr.contains("openLoopback"), "\(result.stderr)")

        // `play` says the same and how to render instead.
        let snare = Assets.drums.appendingPathComponent("snare.wav")
        let play = try ToolRunner.run(tool, ["play", snare.path],
                                      environment: ["ALSOFT_CONF": conf.path, "ALSOFT_DRIVERS": "alsa", "ALSOFT_LOGLEVEL": "0"],
                                      dropTrap: true)
        #expect(play.status != 0)
        #expect(play.stderr.contains("no output device") && play.stderr.contains("soundstage render"), "\(play.stderr)")
    }
}
