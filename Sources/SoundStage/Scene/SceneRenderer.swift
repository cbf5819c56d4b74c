import Foundation

/// Renders a ``SceneDescription`` offline through a loopback device, faster than real time
/// and deterministically: the same scene gives the same samples.
///
/// Sources start on the exact frame of their `start` time; a source with `loops: N` plays
/// its sound N+1 times back to back, sample-exactly (the buffer is queued N+1 times); moving
/// objects follow their paths, updated every 10 ms with the velocity of the path segment
/// they are on, so Doppler follows the motion.
public struct SceneRenderer: Sendable {
    /// The scene to render.
    public let scene: SceneDescription
    /// Frames between position updates of moving objects (10 ms).
    public var blockFrames: Int

    /// Creates a renderer for `scene`.
    public init(scene: SceneDescription) {
        self.scene = scene
        self.blockFrames = max(1, scene.sampleRate / 100)
    }

    /// Renders the whole scene. `progress` is called after each block with the fraction done.
    public func render(progress: ((Double) -> Void)? = nil) throws -> RenderedAudio {
        let format = RenderFormat(sampleRate: scene.sampleRate, channels: scene.channels, sampleType: .float32)
        let device = try AudioDevice.openLoopback(format: format)
        let context = try AudioContext(device: device, attributes: ContextAttributes(hrtf: scene.hrtf ? .on : .off))
        try context.set(.distanceModel, to: scene.distanceModel)
        try context.set(.dopplerFactor, to: scene.dopplerFactor)
        try context.set(.speedOfSound, to: scene.speedOfSound)
        let listener = context.listener
        try listener.set(.gain, to: scene.listener.gain)
        try listener.set(.orientation, to: Orientation(forward: scene.listener.forward, up: scene.listener.up))
        try listener.set(.position, to: scene.listener.position)
        try listener.set(.velocity, to: scene.listener.velocity)

        var buffers: [SoundDescription: AudioBuffer] = [:]
        var sources: [(description: SourceDescription, source: AudioSource, startFrame: Int)] = []
        for description in scene.sources {
            let buffer: AudioBuffer
            if let cached = buffers[description.sound] {
                buffer = cached
            } else {
                buffer = try makeBuffer(description.sound, context: context)
                buffers[description.sound] = buffer
            }
            let source = try AudioSource(context: context)
            try configure(source, description, buffer)
            sources.append((description, source, Int((description.start * Double(scene.sampleRate)).rounded())))
        }

        let total = Int((scene.duration * Double(scene.sampleRate)).rounded())
        let channels = scene.channels.channelCount
        var samples = [Float](repeating: 0, count: total * channels)
        var frame = 0
        let starts = Set(sources.map(\.startFrame)).sorted()
        while frame < total {
            let startingNow = sources.filter { $0.startFrame == frame }.map(\.source)
            if !startingNow.isEmpty { try AudioSource.play(startingNow) }
            let time = Double(frame) / Double(scene.sampleRate)
            if let path = scene.listener.path {
                try listener.set(.position, to: path.position(at: time))
                try listener.set(.velocity, to: path.velocity(at: time))
            }
            for entry in sources {
                guard let path = entry.description.path else { continue }
                try entry.source.set(.position, to: path.position(at: time))
                try entry.source.set(.velocity, to: path.velocity(at: time))
            }
            var end = min(total, frame + blockFrames)
            if let nextStart = starts.first(where: { $0 > frame && $0 < end }) { end = nextStart }
            let count = end - frame
            try samples.withUnsafeMutableBytes { raw in
                let offset = frame * channels * MemoryLayout<Float>.size
                try device.render(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + count * channels * MemoryLayout<Float>.size)]), frames: count)
            }
            frame = end
            progress?(Double(frame) / Double(max(total, 1)))
        }
        return RenderedAudio(format: format, samples: samples)
    }

    private func makeBuffer(_ sound: SoundDescription, context: AudioContext) throws -> AudioBuffer {
        switch sound {
        case .file(let path):
            return try AudioBuffer(context: context, contentsOf: scene.resolve(path))
        case .tone(let shape, let frequency, let duration):
            let samples = ToneGenerator.samples(shape, frequency: frequency, duration: duration, sampleRate: scene.sampleRate)
            return try AudioBuffer(context: context, samples: samples, sampleRate: scene.sampleRate,
                                   label: "\(shape.rawValue) \(frequency) Hz")
        }
    }

    private func configure(_ source: AudioSource, _ d: SourceDescription, _ buffer: AudioBuffer) throws {
        try source.set(.position, to: d.path?.position(at: 0) ?? d.position)
        try source.set(.velocity, to: d.velocity)
        try source.set(.direction, to: d.direction)
        try source.set(.coneInnerAngle, to: d.coneInner)
        try source.set(.coneOuterAngle, to: d.coneOuter)
        try source.set(.coneOuterGain, to: d.coneOuterGain)
        try source.set(.gain, to: d.gain)
        try source.set(.maxGain, to: 1)
        try source.set(.pitch, to: d.pitch)
        try source.set(.referenceDistance, to: d.referenceDistance)
        try source.set(.maxDistance, to: d.maxDistance)
        try source.set(.rolloffFactor, to: d.rolloff)
        try source.set(.isRelative, to: d.relative)
        if d.loops < 0 {
            try source.setBuffer(buffer)
            try source.set(.isLooping, to: true)
        } else {
            // Queued back to back, OpenAL plays the N+1 copies with no gap and no overlap.
            try source.queue(Array(repeating: buffer, count: d.loops + 1))
        }
    }
}

extension SoundDescription: Hashable {
    /// Hashes the file name or the tone's parameters.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .file(let path): hasher.combine(0); hasher.combine(path)
        case .tone(let shape, let f, let d): hasher.combine(1); hasher.combine(shape); hasher.combine(f); hasher.combine(d)
        }
    }
}

/// Generated test tones, at amplitude 0.5 (-6 dBFS peak).
public enum ToneGenerator {
    /// `duration` seconds of `shape` at `frequency`, mono Float32 at `sampleRate`. Noise
    /// comes from a fixed seed, so it is the same every time.
    public static func samples(_ shape: ToneShape, frequency: Float, duration: Double, sampleRate: Int) -> [Float] {
        let count = max(1, Int((duration * Double(sampleRate)).rounded()))
        let period = Double(sampleRate) / Double(frequency)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { i in
            let phase = (Double(i) / period).truncatingRemainder(dividingBy: 1)
            switch shape {
            case .sine: return 0.5 * Float(sin(2 * Double.pi * phase))
            case .square: return phase < 0.5 ? 0.5 : -0.5
            case .sawtooth: return Float(phase) - 0.5
            case .impulse:
                return (Double(i).truncatingRemainder(dividingBy: period) < 1) ? 0.5 : 0
            case .noise:
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(Int64(bitPattern: seed) >> 11) / Float(1 << 52) * 0.5
            }
        }
    }
}

/// The sample format of a written WAV file.
public enum WAVSampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed integers (clipped to full scale).
    case pcm16
    /// 32-bit floats (WAVE_FORMAT_IEEE_FLOAT).
    case float32
}

extension RenderedAudio {
    /// Peak and RMS level of every channel in dBFS (-160 for silence), in one pass.
    public func levels() -> [(peak: Double, rms: Double)] {
        channelLevels(samples, channels: format.channels.channelCount)
    }

    /// The peak level of channel `channel` in dBFS (-160 for silence).
    public func peakDB(channel: Int) -> Double { levels()[channel].peak }

    /// The RMS level of channel `channel` in dBFS (-160 for silence).
    public func rmsDB(channel: Int) -> Double { levels()[channel].rms }

    /// The WAV file bytes of this audio in `sampleFormat`.
    public func wavData(_ sampleFormat: WAVSampleFormat = .pcm16) -> Data {
        let channels = format.channels.channelCount
        let bytesPerSample = sampleFormat == .pcm16 ? 2 : 4
        let dataBytes = samples.count * bytesPerSample
        var data = Data(capacity: 44 + dataBytes)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + dataBytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16)
        u16(sampleFormat == .pcm16 ? 1 : 3); u16(channels); u32(format.sampleRate)
        u32(format.sampleRate * channels * bytesPerSample); u16(channels * bytesPerSample); u16(bytesPerSample * 8)
        data.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        let header = data.count
        data.count += dataBytes
        data.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress! + header
            samples.withUnsafeBufferPointer { input in
                switch sampleFormat {
                case .pcm16:
                    let ints = out.bindMemory(to: Int16.self, capacity: input.count)
                    for i in 0..<input.count {
                        ints[i] = Int16((max(-1, min(1, input[i])) * 32767).rounded()).littleEndian
                    }
                case .float32:
                    let bits = out.bindMemory(to: UInt32.self, capacity: input.count)
                    for i in 0..<input.count { bits[i] = input[i].bitPattern.littleEndian }
                }
            }
        }
        return data
    }

    /// Writes a WAV file; the file appears only when complete (written aside, then renamed).
    public func writeWAV(to url: URL, as sampleFormat: WAVSampleFormat = .pcm16) throws {
        do {
            try wavData(sampleFormat).write(to: url, options: .atomic)
        } catch {
            throw SoundStageError(.fileAccess, operation: "RenderedAudio.writeWAV", object: url.path,
                                  reason: "cannot write the file (\(error.localizedDescription))")
        }
    }
}

/// Peak and RMS level of each channel of interleaved `samples` scaled by `gain`, in dBFS
/// (-160 for silence), in one pass: render levels and player metering.
func channelLevels(_ samples: [Float], channels n: Int, gain: Float = 1) -> [(peak: Double, rms: Double)] {
    var peaks = [Float](repeating: 0, count: n)
    var sums = [Double](repeating: 0, count: n)
    samples.withUnsafeBufferPointer { s in
        var i = 0
        while i + n <= s.count {
            for c in 0..<n {
                let v = s[i + c] * gain
                peaks[c] = max(peaks[c], abs(v))
                sums[c] += Double(v) * Double(v)
            }
            i += n
        }
    }
    let frames = Double(max(1, samples.count / max(1, n)))
    func dB(_ x: Double) -> Double { x > 0 ? max(-160, 20 * log10(x)) : -160 }
    return (0..<n).map { (dB(Double(peaks[$0])), dB((sums[$0] / frames).squareRoot())) }
}
