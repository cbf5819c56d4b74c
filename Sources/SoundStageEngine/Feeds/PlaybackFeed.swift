import SoundStageCore
import SoundStageSession

/// How a player's source is fed, in the manner of SFML's `SoundStream`: a small contract that
/// one service loop drives, whatever the sound.
///
/// Three feeds implement it: ``QueueFeed`` (a loaded sound played N times back to back),
/// ``LoopingBufferFeed`` (a loaded sound, or a region of it, looping forever) and
/// ``StreamFeed`` (a streamed sound decoded in chunks). A ``Player`` holds one and never asks
/// which. The contract is also what re-attaches a playhead to another source, as a voice
/// pool does: ``attach(to:atFrame:fraction:)`` on the new source.
///
/// Every method runs under ``OpenAL/lock`` (the player calls them inside its locked state),
/// with `source` the player's own.
protocol PlaybackFeed: AnyObject {
    /// Feeds `source` (stopped, with nothing set or queued) to play from sound frame `frame`
    /// and `fraction` of a frame more (0..<1, in the mixer's fixed point: see
    /// ``MixerStepping``). A source that starts anywhere but the very beginning of its queue
    /// is faded in by OpenAL over its first mix; a stream queues a few frames before `frame`
    /// so that it starts inside its queue and fades too.
    ///
    /// - Throws: what setting up the source throws, and a decode error when a streamed sound
    ///   cannot be decoded there at all.
    func attach(to source: AudioSource, atFrame frame: Int, fraction: Double) throws

    /// One service tick while playing: unqueues what was played and queues or decodes more.
    ///
    /// - Returns: a decode error met for the first time this tick, for the player to report;
    ///   what decoded before it still plays.
    /// - Throws: what OpenAL refused while (un)queueing.
    func refill(_ source: AudioSource) throws -> SoundStageError?

    /// Whether nothing more will be queued: a source that stops has played everything.
    var isExhausted: Bool { get }

    /// For a feed whose source can run dry while more is to come (a stream): the frames in
    /// the source's queue, and the sound frame that follows the last one queued (where the
    /// source stops if it runs dry); nil for the others.
    var queueEnd: (frames: Int, nextFrame: Int)? { get }

    /// Queues more from now on after an underrun; returns the queue's new length in seconds
    /// (nil: this feed's queue does not grow).
    func deepen() -> Double?

    /// The decode error that cut the sound short, if one did.
    var failure: SoundStageError? { get }

    /// Whether a stopped source still has queued audio it has not played (it ran dry before
    /// the last refill came), so it should be started again.
    func ranDry(_ source: AudioSource) -> Bool

    /// Whether a playing source has played all of the sound and is in the block of silence
    /// queued after it (``MixerSmoothing/holdsLastSample``): it has played out as surely as a
    /// stopped one.
    func isInEndSilence(_ source: AudioSource) -> Bool

    /// Moves to sound frame `frame` while the source is playing or paused. `heardOffset` is
    /// the queue offset being heard (for a stream to keep count of its plays).
    ///
    /// - Returns: true when the source was stopped and fed again (play it if it was playing),
    ///   false when it moved in place.
    /// - Throws: a decode error when a streamed sound cannot be decoded at `frame` (the
    ///   source is left stopped and empty).
    func seek(_ source: AudioSource, toFrame frame: Int, heardOffset: Int) throws -> Bool

    /// How many plays of the sound are left, counting the one heard at queue offset `offset`
    /// (-1: forever). A feed made with this count and attached at the heard frame carries
    /// the sound on (a player moved to another device).
    func remainingPlays(atQueueOffset offset: Int) -> Int

    /// The sound frame `offset` frames into the source's buffer or queue; a negative offset
    /// (latency taken off just after the head moved) reaches back before it.
    func frame(atQueueOffset offset: Int) -> Int

    /// Up to `frames` frames of the sound as played, ending at the playhead (`offset` frames
    /// into the source's queue, which is sound frame `frame`; the end of the sound once it has
    /// played out), interleaved Float32 (for metering).
    func samples(endingAtQueueOffset offset: Int, soundFrame frame: Int, frames: Int) -> [Float]
}

extension PlaybackFeed {
    /// Feeds `source` to play from sound frame `frame` (see ``attach(to:atFrame:fraction:)``).
    func attach(to source: AudioSource, atFrame frame: Int) throws {
        try attach(to: source, atFrame: frame, fraction: 0)
    }

    /// Sets where a stopped `source` starts: `offset` frames into its buffer or queue and
    /// `fraction` of a frame more. The fraction needs `AL_SOFT_source_latency` (OpenAL Soft
    /// has it from 1.17); without it the source starts on the whole frame.
    func setStart(of source: AudioSource, offset: Int, fraction: Double) throws {
        if fraction > 0, source.context.isExtensionPresent("AL_SOFT_source_latency") {
            try source.set(.preciseSampleOffset, to: Double(offset) + fraction)
        } else if offset > 0 {
            try source.set(.sampleOffset, to: offset)
        }
    }

    var queueEnd: (frames: Int, nextFrame: Int)? { nil }
    func deepen() -> Double? { nil }

    func ranDry(_ source: AudioSource) -> Bool {
        source.get(.buffersQueued) > source.get(.buffersProcessed)
    }

    func isInEndSilence(_ source: AudioSource) -> Bool { false }
}

/// What the two feeds of a loaded sound share: the sound's decoded samples around the
/// playhead, for metering.
protocol LoadedSoundFeed: PlaybackFeed {
    var sound: Sound { get }
    /// Whether the play before the one at `offset` was heard (so the meter window may reach
    /// back into its end).
    func cameRound(atQueueOffset offset: Int) -> Bool
}

extension LoadedSoundFeed {
    func samples(endingAtQueueOffset offset: Int, soundFrame frame: Int, frames wanted: Int) -> [Float] {
        let channels = sound.channelCount
        let samples = sound.samples
        let total = sound.frameCount
        guard total > 0 else { return [] }
        var count = min(wanted, total)
        var start = frame - count
        if start < 0 {
            if cameRound(atQueueOffset: offset) { start += total } else { start = 0; count = frame }
        }
        var out: [Float] = []
        out.reserveCapacity(count * channels)
        for k in 0..<count {
            let base = ((start + k) % total) * channels
            out.append(contentsOf: samples[base..<(base + channels)])
        }
        return out
    }
}
