import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

@Suite("AudioDevice: enumeration, loopback rendering, opening, real output")
struct AudioDeviceTests {
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

    @Test("loopback renders every channel layout and sample type", arguments: ChannelLayout.outputLayouts)
    func layouts(channels: ChannelLayout) throws {
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

    @Test("devices and contexts")
    func devices() throws {
        expectError(.deviceNotFound, mentioning: ["No Such Speaker", "available"]) { _ = try AudioDevice.openOutput(named: "No Such Speaker") }
        expectError(.unsupportedFormat, mentioning: ["1000"]) { _ = try AudioDevice.openLoopback(format: RenderFormat(sampleRate: 1_000)) }
        let scene = try LoopbackRig()
        expectError(.invalidArgument, mentioning: ["44100", "48000"]) {
            _ = try AudioContext(device: scene.device, attributes: ContextAttributes(frequency: 44_100))
        }
        expectError(.invalidArgument, mentioning: ["No Such HRTF"]) {
            _ = try AudioContext(device: scene.device, attributes: ContextAttributes(hrtf: .on, hrtfName: "No Such HRTF"))
        }
        expectError(.invalidArgument, mentioning: ["refresh"]) {
            _ = try AudioContext(device: scene.device, attributes: ContextAttributes(refresh: 0))
        }
        expectError(.invalidArgument, mentioning: ["monoSources"]) {
            _ = try AudioContext(device: scene.device, attributes: ContextAttributes(monoSources: -1))
        }
        expectError(.invalidArgument, mentioning: ["negative"]) { _ = try scene.device.render(frames: -1) }
        var small = [UInt8](repeating: 0, count: 16)
        _ = small.withUnsafeMutableBytes { raw in
            expectError(.invalidArgument, mentioning: ["16 bytes"]) { try scene.device.render(into: raw, frames: 100) }
        }
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
