import SoundStageCore
import SoundStageSession

/// What one service tick found a feed and its source doing.
struct FeedSettlement {
    /// A decode error met for the first time this tick (what decoded before it still plays).
    var decodeError: SoundStageError?
    /// What OpenAL refused while (un)queueing or restarting the source.
    var errors: [any Error] = []
    /// The source stopped with nothing more to play: the sound has played out.
    var playedOut = false
    /// A stream's source stopped with more to come, left stopped for the caller to start again
    /// (``PlaybackFeed/settle(_:isOffline:leavingDryStreams:)``).
    var ranDryEarly = false
}

extension PlaybackFeed {
    /// Brings a playing source's feed up to date, the same way for players and voices:
    /// unqueues what was played, queues or decodes more, and restarts a source that ran dry
    /// with more to play (a very late tick).
    ///
    /// A device lost since the tick checked it stops every source: that is not an end, so a
    /// real-time source found stopped on a disconnected device has not played out (the
    /// engine notices the loss at its next tick and moves it on).
    ///
    /// A stream's source found stopped while more is to come ran dry, whatever OpenAL counts
    /// processed (on a machine too busy to decode in time, a playlist whose source stopped
    /// while a tick decoded was found with 8 chunks queued and none left unprocessed, and
    /// was taken as played out 16 s into 40). It is started again, or, with
    /// `leavingDryStreams`, left stopped and reported (``FeedSettlement/ranDryEarly``) for
    /// the caller to start where it chooses.
    func settle(_ source: AudioSource, isOffline: Bool, leavingDryStreams: Bool = false) -> FeedSettlement {
        var outcome = FeedSettlement()
        do {
            outcome.decodeError = try refill(source)
        } catch {
            outcome.errors.append(error)
        }
        guard source.state == .stopped else {
            outcome.playedOut = isExhausted && isInEndSilence(source)
            return outcome
        }
        if !isOffline, !source.context.device.isConnected { return outcome }
        let streamRanDry = !isOffline && !isExhausted && (queueEnd?.frames ?? 0) > 0
        if streamRanDry && leavingDryStreams {
            outcome.ranDryEarly = true
            return outcome
        }
        if streamRanDry || ranDry(source) {
            do {
                try source.play()
                return outcome
            } catch {
                outcome.errors.append(error)
            }
        }
        outcome.playedOut = true
        return outcome
    }
}
