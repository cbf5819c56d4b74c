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
            let samples = shape.samples(frequency: frequency, seconds: duration, sampleRate: scene.sampleRate)
            return try AudioBuffer(context: context, samples: samples, sampleRate: scene.sampleRate,
                                   label: "\(shape.sceneName) \(frequency) Hz")
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
