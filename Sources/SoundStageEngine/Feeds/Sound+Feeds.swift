import SoundStageCore
import SoundStageSession

extension Sound {
    /// The one place that decides how a sound is fed to a source: a stream for a streamed
    /// sound, one looping buffer for endless loops of a loaded one, a queue of plays
    /// otherwise. Players (which add loop regions) and voices both come here.
    ///
    /// `plays` is how many plays are left (-1 forever); the buffers come from `context`'s
    /// device; a stream is buffered as `buffering` says. With `fromMemory`, a loaded sound is
    /// streamed from its own samples: a source joining it far into a play (a voice back from
    /// virtual) then starts a few frames into its queue, where its offset keeps the fraction
    /// of a frame (``MixerStepping/exactOffsetFrames``).
    func makeFeed(plays: Int, in context: AudioContext, buffering: StreamBuffering = .standard, fromMemory: Bool = false) throws -> any PlaybackFeed {
        let decoder = try makeDecoder() ?? (fromMemory ? memoryDecoder() : nil)
        if let decoder {
            return StreamFeed(decoder: decoder, loops: plays < 0 ? -1 : max(0, plays - 1), label: label, buffering: buffering)
        }
        if plays < 0 {
            return LoopingBufferFeed(sound: self, buffer: try buffer(in: context), loopEnd: frameCount)
        }
        return QueueFeed(sound: self, plays: plays)
    }
}

extension Sound {
    /// A decoder over a loaded sound's own samples.
    func memoryDecoder() -> SampleArrayDecoder? {
        guard let buffer else { return nil }
        return SampleArrayDecoder(samples: samples, channels: buffer.format.channels, sampleRate: sampleRate)
    }
}
