import Foundation
import SoundStage

/// A loopback device and context ready to render.
package struct LoopbackRig {
    package let device: AudioDevice
    package let context: AudioContext

    package init(format: RenderFormat = RenderFormat(), attributes: ContextAttributes = ContextAttributes(hrtf: .off)) throws {
        device = try AudioDevice.openLoopback(format: format)
        context = try AudioContext(device: device, attributes: attributes)
    }

    package var sampleRate: Int { device.loopbackFormat!.sampleRate }

    /// A looping mono sine source at `position`.
    package func toneSource(frequency: Float = 1000, at position: SIMD3<Float>, gain: Float = 1) throws -> AudioSource {
        let source = try AudioSource(context: context)
        try source.setBuffer(try Tone.buffer(context, frequency: frequency, sampleRate: sampleRate))
        try source.set(.isLooping, to: true)
        try source.set(.position, to: position)
        try source.set(.gain, to: gain)
        return source
    }

    /// Renders `frames`, throwing away `settle` frames first so gain ramps have finished.
    package func render(frames: Int, settle: Int = 4096) throws -> RenderedAudio {
        if settle > 0 { _ = try device.render(frames: settle) }
        return try device.render(frames: frames)
    }
}
