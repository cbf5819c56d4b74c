import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Buffers on a loopback device; their lifetime under a source is in AudioBufferTests+Lifetime.swift.
@Suite("AudioBuffer: formats, facts, copies, lifetime")
struct AudioBufferTests {
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

    @Test("buffers: sizes, rates, samples and formats")
    func buffers() throws {
        let scene = try LoopbackRig()
        let c = scene.context
        expectError(.invalidArgument, mentioning: ["3 bytes", "int16 mono", "sfx.raw"]) {
            _ = try AudioBuffer(context: c, bytes: [1, 2, 3], format: BufferFormat(.int16, .mono), sampleRate: 48_000, label: "sfx.raw")
        }
        expectError(.invalidArgument, mentioning: ["sample rate"]) {
            _ = try AudioBuffer(context: c, samples: [Int16](repeating: 0, count: 4), sampleRate: 0)
        }
        expectError(.invalidArgument, mentioning: ["stereo", "frames"]) {
            _ = try AudioBuffer(context: c, samples: [Int16](repeating: 0, count: 3), channels: .stereo, sampleRate: 48_000)
        }
        expectError(.invalidArgument, mentioning: ["sample 1", "finite"]) {
            _ = try AudioBuffer(context: c, samples: [0, .nan, 0], sampleRate: 48_000)
        }
        expectError(.unsupportedFormat, mentioning: ["a-law quad"]) {
            _ = try AudioBuffer(context: c, bytes: [0, 0, 0, 0], format: BufferFormat(.aLaw, .quad), sampleRate: 8_000)
        }
        expectError(.invalidArgument, mentioning: ["8k+1"]) {
            _ = try AudioBuffer(context: c, bytes: [UInt8](repeating: 0, count: 8), format: BufferFormat(.imaADPCM(framesPerBlock: 10), .mono), sampleRate: 8_000)
        }
        expectError(.invalidArgument, mentioning: ["even"]) {
            _ = try AudioBuffer(context: c, bytes: [UInt8](repeating: 0, count: 8), format: BufferFormat(.msADPCM(framesPerBlock: 9), .mono), sampleRate: 8_000)
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

    /// From 4 MB up, linear PCM goes into OpenAL's storage through a map (huge pages), not
    /// `alBufferData`: what plays must be the samples given, at the start, across the middle
    /// (inside the huge pages) and at the very end (after the last whole one).
    @Test("a big buffer (uploaded through a map) plays its own samples at its start, middle and end",
          arguments: [SampleEncoding.int16, .float32, .uint8])
    func bigBufferPlaysItsSamples(encoding: SampleEncoding) throws {
        let rig = try LoopbackRig()
        let frames = 48_000 * 100 + 37   // 100 s: 4.8 MB of 8-bit, 9.6 of 16, 19.2 of float
        let middle = frames / 2 + 1_001, end = frames - 9_600
        var values = [Float](repeating: 0, count: frames)
        for k in 0..<9_600 {
            values[middle + k] = 0.5 * sinf(2 * .pi * 2_000 * Float(k) / 48_000)
            values[end + k] = 0.5 * sinf(2 * .pi * 1_000 * Float(k) / 48_000)
        }
        let bytes: [UInt8]
        switch encoding {
        case .int16: bytes = values.map { Int16($0 * 32_767) }.withUnsafeBytes { Array($0) }
        case .uint8: bytes = values.map { UInt8(128 + Int($0 * 127)) }
        default: bytes = values.withUnsafeBytes { Array($0) }
        }
        #expect(bytes.count >= 4 << 20)
        let buffer = try AudioBuffer(context: rig.context, bytes: bytes, format: BufferFormat(encoding, .mono), sampleRate: 48_000, label: "big")
        let source = try AudioSource(context: rig.context)
        try source.setBuffer(buffer)
        try source.set(.isRelative, to: true)
        for (offset, frequency) in [(0, 0.0), (middle, 2_000.0), (end, 1_000.0)] {
            try source.set(.sampleOffset, to: offset)
            try source.play()
            let heard = try rig.render(frames: 8_192, settle: 0).channel(0)
            try source.stop()
            if frequency == 0 {
                #expect(heard.allSatisfy { abs($0) < 1e-3 }, "\(encoding): the silent start plays \(heard.map(abs).max() ?? 0)")
            } else {
                #expect(abs(Measure.peakFrequency(heard, sampleRate: 48_000) - frequency) < 10, "\(encoding) at frame \(offset)")
                #expect(Measure.dB(Array(heard[1_024...])) > -20, "\(encoding) at frame \(offset): \(Measure.dB(heard)) dB")
            }
        }
    }

    @Test("a range of frames reads what the whole buffer's samples hold there, in every encoding, across and within blocks",
          arguments: ["s16", "ima", "ms", "ulaw", "u8"])
    func framesInRange(kind: String) throws {
        let folder = try TemporaryFolder()
        let url = folder.file("x.wav")
        let options = ["s16": ["-b", "16"], "ima": ["-e", "ima-adpcm"], "ms": ["-e", "ms-adpcm"], "ulaw": ["-e", "u-law"], "u8": ["-b", "8"]][kind]!
        let made = try ToolRunner.run(try sox(), ["-n", "-r", "22050", "-c", "2"] + options + [url.path, "synth", "0.5", "sine", "300-3000", "sine", "500", "gain", "-3"])
        try #require(made.status == 0, "\(made.stderr)")
        let scene = try LoopbackRig()
        let buffer = try AudioBuffer(context: scene.context, contentsOf: url)
        let whole = buffer.floatSamples(), frames = buffer.frameCount
        for range in [0..<1, 0..<frames, 3..<700, 1_000..<1_001, 2_039..<2_100, frames - 5..<frames, frames - 5..<frames + 50, -10..<4] {
            let clamped = max(0, range.lowerBound)..<min(frames, range.upperBound)
            #expect(buffer.floatSamples(frames: range) == Array(whole[(clamped.lowerBound * 2)..<(clamped.upperBound * 2)]), "\(kind): frames \(range)")
        }
        #expect(buffer.floatSamples(frames: frames..<frames + 10).isEmpty)
    }
}
