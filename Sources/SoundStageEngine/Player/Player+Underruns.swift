import Foundation
import SoundStageCore
import SoundStageSession

extension Player {
    /// How much of a streamed sound is decoded ahead (``StreamBuffering``); takes effect the
    /// next time the player is fed (``prepareToPlay()``, a play after a stop). A setting that
    /// cannot be is ignored; ``setStreamBuffering(_:)`` throws.
    public var streamBuffering: StreamBuffering {
        get { state.withLockedValue { $0.settings.streamBuffering } }
        set { logging { try setStreamBuffering(newValue) } }
    }

    /// Sets ``streamBuffering``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` naming what is wrong.
    public func setStreamBuffering(_ buffering: StreamBuffering) throws {
        if let problem = buffering.problem { throw failure(.invalidArgument, "setStreamBuffering(_:)", problem) }
        state.withLockedValue { $0.settings.streamBuffering = buffering }
    }

    /// Where a streamed sound starts again after its source ran dry on a real device:
    /// ``UnderrunPolicy/keepTime`` (the default) or ``UnderrunPolicy/resume``. Each underrun
    /// is reported as ``EngineEvent/streamUnderrun(_:)``.
    public var underrunPolicy: UnderrunPolicy {
        get { state.withLockedValue { $0.settings.underrunPolicy } }
        set { state.withLockedValue { $0.settings.underrunPolicy = newValue } }
    }

    // MARK: - Under the lock

    /// Whether a stream's source stopped with more still to come: its queue ran out before a
    /// service tick refilled it. Real devices only (offline, every tick refills before the
    /// mixer reaches the end of the queue), and not a lost device (that stops every source).
    func ranDryEarly(_ feed: any PlaybackFeed, _ source: AudioSource) -> Bool {
        guard !isOffline, feed.queueEnd != nil, !feed.isExhausted, source.state == .stopped else { return false }
        return source.context.device.isConnected
    }

    /// Notes where a playing stream's queue runs out, on the device clock: the mixer's offset
    /// and the clock read together, and the frames queued beyond it.
    func watchQueue(_ s: inout PlayerState, _ source: AudioSource, _ feed: any PlaybackFeed) {
        guard !isOffline, hasDeviceClock, let (queued, next) = feed.queueEnd, queued > 0 else { return }
        let (offset, clock) = source.sampleOffsetWithClock()
        let framesPerSecond = Double(sound.sampleRate) * Double(s.settings.rate)
        let ahead = Double(max(0, queued - offset)) / framesPerSecond
        s.underrunWatch = UnderrunWatch(dryAt: clock + Int64(ahead * 1e9), stopFrame: next, endOffset: queued)
    }

    /// Starts a stream that ran dry again: at the frame the output's clock says it should be
    /// at now (``UnderrunPolicy/keepTime``) or where it stopped (``UnderrunPolicy/resume``),
    /// with a deeper queue from now on, and reports the underrun. Returns whether the sound
    /// has played out (the time lost reached past its end, and it does not repeat).
    func recoverUnderrun(_ s: inout PlayerState, _ held: borrowing LockHeld, _ source: AudioSource,
                         _ feed: any PlaybackFeed, _ watch: UnderrunWatch) -> Bool {
        s.underrunWatch = nil
        let device = source.context.device
        let now = device.clockNanoseconds ?? watch.dryAt
        let lost = max(0, now - watch.dryAt)
        let framesPerNanosecond = Double(sound.sampleRate) * Double(s.settings.rate) * 1e-9
        let policy = s.settings.underrunPolicy
        let skip = policy == .keepTime ? Int((Double(lost) * framesPerNanosecond).rounded()) : 0
        var target = watch.stopFrame
        if let plan = timeline?.plan {
            // Through the playlist's items as it repeats them now.
            guard target < plan.frameCount, let frame = plan.advance(from: target, by: skip) else { return true }
            target = frame
        } else {
            target += skip
            if target >= sound.frameCount {
                guard s.settings.numberOfLoops != 0, sound.frameCount > 0 else { return true }
                target %= sound.frameCount
            }
        }
        // Where the queue started again runs out, when the restart outlasts it (it played
        // from `now` and ran dry while the restart went on): dry since then.
        var dryAgain: UnderrunWatch?
        do {
            // Started again on the queue it had; the deeper one fills on the next ticks. (Decoded
            // first, the deeper queue kept a busy machine silent as long again: 0.86 s of a
            // stream's restart in one measured run, beside two busy loops at nice -11.)
            _ = try feed.seek(source, toFrame: target, heardOffset: max(0, watch.endOffset - 1))
            try source.play()
            engineRef?.takeRecoveryStall()
            if policy == .keepTime { try keepOnClock(source, feed, startedFor: now, framesPerNanosecond: framesPerNanosecond) }
            if source.state == .stopped, let (queued, next) = feed.queueEnd {
                dryAgain = UnderrunWatch(dryAt: now + Int64(Double(queued) / framesPerNanosecond), stopFrame: next, endOffset: queued)
            }
        } catch {
            report(&s, held, error)
            watchQueue(&s, source, feed)
            return false
        }
        let queueSeconds = feed.deepen() ?? 0
        let underrun = StreamUnderrun(player: self, seconds: Double(lost) * 1e-9, stoppedAtFrame: watch.stopFrame,
                                      resumedAtFrame: target, policy: policy, restartedAt: engineRef?.currentTime ?? 0,
                                      queueSeconds: queueSeconds)
        engineRef?.post(held, underrun)
        if let dryAgain { s.underrunWatch = dryAgain } else { watchQueue(&s, source, feed) }
        return false
    }

    /// A source started for device clock `start` begins at the next mix, which begins at that
    /// clock unless a mix ran between the clock's reading and the start. Then it began a mix
    /// late: its offset is moved on to where the clock says it should be, when that is inside
    /// its queue. A clock past all that is queued means the restart itself took longer than
    /// the queue plays (a machine too busy to decode in time): the stream plays on from
    /// where it started, late, rather than be set past its queue's end (an invalid offset,
    /// which left the stream unwatched and the underrun unreported).
    private func keepOnClock(_ source: AudioSource, _ feed: any PlaybackFeed, startedFor start: Int64, framesPerNanosecond: Double) throws {
        let (offset, clock) = source.sampleOffsetWithClock()
        let due = Int((Double(clock - start) * framesPerNanosecond).rounded())
        guard due > offset + 1, due < feed.queueEnd?.frames ?? 0 else { return }
        try source.set(.sampleOffset, to: due)
    }
}
