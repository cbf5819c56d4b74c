import SoundStageCore
import SoundStageSession

extension Player {
    /// Moves the player to `context`, its engine's context on a new output device: a new
    /// source with every property of the old one and, if the player is playing, paused or
    /// scheduled, the sound fed again from the playhead with the plays it had left (streams
    /// from their decoder position, fades and tweens carried on by the next ticks).
    ///
    /// The playhead is `stoppedAt` when the old device still played: where its mixer was as
    /// the engine stopped the old source (``stopForMove(_:)``), and the old device plays out
    /// what it had mixed before it closes, so nothing is skipped and nothing heard twice.
    /// When the device was lost (`deviceLost`, its sources stopped and their offsets
    /// forgotten) it is where the last service tick heard it.
    ///
    /// With `pauseMusic` (the device was lost, and the category pauses), a playing player
    /// whose ``outputLossPolicy`` is ``OutputLossPolicy/pause`` is left paused instead.
    ///
    /// - Returns: the new source when the player was playing: the engine starts all of them
    ///   together. A paused or scheduled player waits as it was.
    func move(_ held: borrowing LockHeld, to context: AudioContext, deviceLost: Bool, stoppedAt: MovePoint? = nil,
              pauseMusic: Bool = false) throws -> AudioSource? {
        try state.withLockedValue(held) { s -> AudioSource? in
            guard let old = s.source, old.context !== context else { return nil }
            // A sound that played out and was not yet reported finishes now rather than
            // starting over on the new device (on a live device only: a lost one stopped its
            // sources before their end).
            if !deviceLost { settleEnded(&s, held) }
            guard s.isEngaged, let feed = s.feed else {
                try replaceSource(&s, old, in: context, held)
                return nil
            }
            let (frame, plays): (Int, Int)
            if let pending = s.pendingStart {
                (frame, plays) = (pending, feed.remainingPlays(atQueueOffset: 0))
            } else if deviceLost {
                let heard = s.heard ?? (feed.frame(atQueueOffset: 0), 0)
                (frame, plays) = (heard.frame, feed.remainingPlays(atQueueOffset: heard.queueOffset))
            } else if let stoppedAt {
                (frame, plays) = (stoppedAt.frame, stoppedAt.plays)
            } else {
                let offset = old.get(.sampleOffset)
                (frame, plays) = (feed.frame(atQueueOffset: offset), feed.remainingPlays(atQueueOffset: offset))
            }
            try replaceSource(&s, old, in: context, held)
            guard let source = s.source else { return nil }
            let moved = try makeFeed(&s, in: context, plays: plays)
            try moved.attach(to: source, atFrame: min(frame, max(0, sound.frameCount - 1)))
            s.feed = moved
            s.finishAt = nil
            s.heard = nil
            s.underrunWatch = nil
            if s.status == .playing {
                let policy = s.settings.outputLossPolicy ?? (isEffect ? .keepPlaying : .pause)
                guard pauseMusic, policy == .pause else { return source }
                s.status = .paused
            }
            s.pendingStart = frame
            return nil
        }
    }

    /// Stops a playing player's source where its mixer is (a pause takes effect at once:
    /// the mixer mixes nothing more of it), and returns that frame and the plays left from
    /// it; for a paused player, where it paused. Nil for a player that plays nothing.
    func stopForMove(_ held: borrowing LockHeld) -> MovePoint? {
        state.withLockedValue(held) { s in
            guard s.isEngaged, s.pendingStart == nil, let feed = s.feed, let source = s.source else { return nil }
            if s.status == .playing {
                do { try source.pause() } catch { report(&s, held, error) }
            }
            let offset = source.get(.sampleOffset)
            return MovePoint(frame: feed.frame(atQueueOffset: offset), plays: feed.remainingPlays(atQueueOffset: offset))
        }
    }

    /// Puts a new source in `context` in place of `old`, with every property of it, lent by
    /// the engine's pool; the old one is stopped, emptied and given back, and goes when the
    /// last reference to it does.
    func replaceSource(_ s: inout PlayerState, _ old: AudioSource, in context: AudioContext, _ held: borrowing LockHeld) throws {
        guard let engine = engineRef else { throw failure(.invalidState, "move", "its engine was released") }
        // Lent in place of the old one: the player is counted once.
        let source = try engine.lendSource(held, in: context, replacing: true)
        try old.carryProperties(to: source)
        s.source = source
        try apply(.effects, &s, held)   // the filter and sends are made again on the new device
        try old.stop()
        try old.setBuffer(nil)
        s.source = source
        s.feed = nil
        s.pendingStart = nil
    }
}

extension Player {
    /// A player that could not be moved to a new device: the error is reported and the
    /// player finishes, unsuccessfully.
    func abandon(_ held: borrowing LockHeld, _ error: any Error) {
        state.withLockedValue(held) { s in
            report(&s, held, error)
            guard s.isEngaged else { return }
            finish(&s, held)
        }
    }
}

/// Where a player goes on from on another device: a frame of its sound and the plays left.
struct MovePoint {
    var frame: Int
    var plays: Int
}
