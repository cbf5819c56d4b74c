import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Renders `frames` frames offline: blocks of one tick, with ``update()`` after each,
    /// and scheduled players started on their exact frame.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` for an engine on a real device.
    public func render(frames: Int) throws -> RenderedAudio {
        guard isOffline else {
            throw failure(.invalidState, "render(frames:)", "only an offline engine renders on request; make one with output: .offline(format)")
        }
        try checkNotShutDown("render(frames:)")
        let rate = context.frequency
        let longest = Int(AudioDevice.longestRenderSeconds) * rate
        guard frames >= 0 else {
            throw failure(.invalidArgument, "render(frames:)", "frame count must not be negative, got \(frames)")
        }
        guard frames <= longest else {
            throw failure(.invalidArgument, "render(frames:)",
                          "frames must be in 0...\(longest) (\(Int(AudioDevice.longestRenderSeconds)) s at \(rate) Hz; render longer in several calls), got \(frames)")
        }
        let tickFrames = max(1, Int((tickSeconds * Double(rate)).rounded()))
        var out = try device.render(frames: 0)
        out.samples.reserveCapacity(max(0, frames) * out.format.channels.channelCount)
        var left = frames
        while left > 0 {
            let (position, nextStart) = state.withLockedValue { ($0.renderedFrames, $0.scheduled.map(\.frame).min()) }
            if let nextStart, nextStart <= position {
                update()   // starts it on this very frame
                continue
            }
            var n = min(left, tickFrames - position % tickFrames)
            if let nextStart { n = min(n, nextStart - position) }
            out.append(try device.render(frames: n))
            state.withLockedValue { $0.renderedFrames += n }
            left -= n
            if (position + n) % tickFrames == 0 { update() }
        }
        // Measured when asked for, not on every render (the samples are shared, not copied).
        state.withLockedValue { $0.lastRender = out }
        return out
    }

    /// Peak and RMS level of each output channel in dBFS (-160 for silence) over the last
    /// ``render(frames:)``: master-output metering for offline renders.
    public var outputLevels: [(peak: Double, rms: Double)] {
        state.withLockedValue { $0.lastRender }?.levels() ?? []
    }
}
