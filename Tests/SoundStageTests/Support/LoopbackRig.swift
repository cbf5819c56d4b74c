import Foundation
import SoundStage

/// A loopback device and context ready to render.
struct LoopbackRig {
    let device: AudioDevice
    let context: AudioContext

    init(format: RenderFormat = RenderFormat(), attributes: ContextAttributes = ContextAttributes(hrtf: .off)) throws {
        device = try AudioDevice.openLoopback(format: format)
        context = try AudioContext(device: device, attributes: attributes)
    }

    var sampleRate: Int { device.loopbackFormat!.sampleRate }

    /// A looping mono sine source at `position`.
    func toneSource(frequency: Float = 1000, at position: SIMD3<Float>, gain: Float = 1) throws -> AudioSource {
        let source = try AudioSource(context: context)
        try source.setBuffer(try Tone.buffer(context, frequency: frequency, sampleRate: sampleRate))
        try source.set(.isLooping, to: true)
        try source.set(.position, to: position)
        try source.set(.gain, to: gain)
        return source
    }

    /// Renders `frames`, throwing away `settle` frames first so gain ramps have finished.
    func render(frames: Int, settle: Int = 4096) throws -> RenderedAudio {
        if settle > 0 { _ = try device.render(frames: settle) }
        return try device.render(frames: frames)
    }
}
