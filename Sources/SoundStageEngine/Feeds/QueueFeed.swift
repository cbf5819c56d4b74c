import SoundStageCore
import SoundStageSession

/// A loaded sound played a number of times back to back: the same buffer queued once per
/// play, topped up as plays finish, so the plays join sample-exactly.
final class QueueFeed: LoadedSoundFeed {
    let sound: Sound
    /// Plays still to queue.
    private var playsToQueue: Int
    /// Plays in the source's queue, as this feed queued and unqueued them (so no tick has to
    /// ask OpenAL).
    private var queuedPlays = 0
    /// Plays finished and unqueued since the feed began.
    private var playsUnqueued = 0
    /// Whether a block of silence follows the last play in the queue (where the mixer holds
    /// the last sample it played: ``MixerSmoothing``).
    private var silenceQueued = false

    /// Plays `sound` `plays` times.
    init(sound: Sound, plays: Int) {
        self.sound = sound
        self.playsToQueue = plays
    }

    func attach(to source: AudioSource, atFrame frame: Int, fraction: Double) throws {
        try source.set(.isLooping, to: false)
        try queueMore(source)
        try setStart(of: source, offset: frame, fraction: fraction)
    }

    /// Keeps enough plays queued to last at least 250 ms (and at least 8), so even a very
    /// short sound never runs dry between two service ticks.
    private func queueMore(_ source: AudioSource) throws {
        guard playsToQueue > 0 else { return }
        let buffer = try sound.buffer(in: source.context)
        let target = min(4_096, max(8, Int((0.25 * Double(sound.sampleRate) / Double(max(1, sound.frameCount))).rounded(.up))))
        // Called with the queue just emptied or its played copies just unqueued: what is queued waits.
        let n = min(playsToQueue, max(0, target - queuedPlays))
        guard n > 0 else { return }
        try source.queue(Array(repeating: buffer, count: n))
        playsToQueue -= n
        queuedPlays += n
        if playsToQueue == 0, source.context.mixerSmoothing.holdsLastSample {
            try source.queue([try sound.silence(after: buffer)])
            silenceQueued = true
        }
    }

    func refill(_ source: AudioSource) throws -> SoundStageError? {
        // Played copies are unqueued only while more are to come; the offset counts from the
        // queue's head either way.
        guard playsToQueue > 0 else { return nil }
        let done = try source.unqueueProcessedBuffers()
        playsUnqueued += done.count
        queuedPlays -= done.count
        try queueMore(source)
        return nil
    }

    var isExhausted: Bool { playsToQueue == 0 }

    func isInEndSilence(_ source: AudioSource) -> Bool {
        silenceQueued && source.get(.sampleOffset) >= queuedPlays * sound.frameCount
    }
    var failure: SoundStageError? { nil }

    func seek(_ source: AudioSource, toFrame frame: Int, heardOffset: Int) throws -> Bool {
        // The plays left (the current one and those not started) are queued again.
        let silence = silenceQueued ? 1 : 0
        playsToQueue += max(1, source.get(.buffersQueued) - silence - source.get(.buffersProcessed))
        try source.stop()
        try source.setBuffer(nil)
        queuedPlays = 0
        playsUnqueued = 0
        silenceQueued = false
        try queueMore(source)
        try source.set(.sampleOffset, to: frame)
        return true
    }

    func remainingPlays(atQueueOffset offset: Int) -> Int {
        guard offset >= 0 else {
            // Heard: the end of a play already unqueued (several, for a sound shorter than
            // the output latency), or (nothing unqueued) the first.
            let back = (-offset + max(1, sound.frameCount) - 1) / max(1, sound.frameCount)
            return playsToQueue + queuedPlays + min(playsUnqueued, back)
        }
        let finished = min(offset / max(1, sound.frameCount), max(0, queuedPlays - 1))
        return playsToQueue + queuedPlays - finished
    }

    func frame(atQueueOffset offset: Int) -> Int {
        let frames = max(1, sound.frameCount)
        if offset < 0 && playsUnqueued == 0 { return 0 }   // nothing heard yet
        if silenceQueued, offset >= queuedPlays * frames { return frames - 1 }   // in the silence after the end
        return ((offset % frames) + frames) % frames
    }

    func cameRound(atQueueOffset offset: Int) -> Bool {
        playsUnqueued > 0 || offset >= sound.frameCount
    }
}
