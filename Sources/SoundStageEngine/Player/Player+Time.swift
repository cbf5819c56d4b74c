import COpenAL
import SoundStageCore
import SoundStageSession

extension Player {
    /// The playhead in seconds within the sound, corrected for output latency on a real
    /// device; setting it seeks (playing or not). A time outside the sound is ignored;
    /// ``seek(to:)`` throws.
    public var currentTime: Double {
        get { Double(currentFrame) / Double(sound.sampleRate) }
        set {
            // A time outside the sound is ignored, as AVAudioPlayer does; any other failure
            // (a streamed sound that cannot be decoded there) is logged.
            guard newValue.isFinite, newValue >= 0, newValue <= duration else { return }
            logging { try seek(to: newValue) }
        }
    }

    /// The playhead in frames within the sound: ``currentTime`` exact to the frame. Setting it
    /// seeks; a frame outside the sound is ignored, ``seek(toFrame:)`` throws.
    public var currentFrame: Int {
        get { state.withLockedValue { currentFrame($0) } }
        set {
            guard (0...sound.frameCount).contains(newValue) else { return }
            logging { try seek(toFrame: newValue) }
        }
    }

    /// Moves the playhead to `time` seconds, exactly to the (nearest) frame, playing or not.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a time outside the
    ///   sound; ``SoundStageError/Code-swift.struct/decodingFailed`` when a streamed sound
    ///   cannot be decoded there (the player stops).
    public func seek(to time: Double) throws {
        guard time.isFinite, time >= 0, time <= duration else {
            throw failure(.invalidArgument, "seek(to: \(time))", "time must be in 0...\(duration) s")
        }
        try seek(clampedFrame: Int((time * Double(sound.sampleRate)).rounded()))
    }

    /// Moves the playhead to sound frame `frame`, playing or not.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a frame outside
    ///   `0...durationFrames`; ``SoundStageError/Code-swift.struct/decodingFailed`` as
    ///   ``seek(to:)``.
    public func seek(toFrame frame: Int) throws {
        guard (0...sound.frameCount).contains(frame) else {
            throw failure(.invalidArgument, "seek(toFrame: \(frame))", "frame must be in 0...\(sound.frameCount)")
        }
        try seek(clampedFrame: frame)
    }

    private func seek(clampedFrame target: Int) throws {
        let frame = max(0, min(sound.frameCount - 1, target))
        try keepingEngine { try OpenAL.lock.withLock { held in
            let startOver = try state.withLockedValue(held) { s -> Bool in
                if settleEnded(&s, held) {
                    // The end was reached and not yet reported: it is reported now, and the
                    // sound starts over from the new place.
                    s.startFrame = frame
                    return true
                }
                guard let source = s.source, s.status != .idle && s.status != .stopped else {
                    s.startFrame = frame
                    s.pendingStart = nil
                    return false
                }
                guard let feed = s.feed else { return false }
                s.finishAt = nil
                s.heard = nil
                s.underrunWatch = nil
                let wasPlaying = s.status == .playing
                let heard = queueOffset(s, source)
                let refed: Bool
                do {
                    refed = try feed.seek(source, toFrame: frame, heardOffset: heard)
                } catch {
                    halt(&s, held, resumeAt: frame)
                    throw error
                }
                timeline?.moved(held, toFrame: frame, by: self, engine: engineRef)
                if refed && wasPlaying {
                    try source.play()
                } else if !wasPlaying {
                    s.pendingStart = frame
                }
                return false
            }
            if startOver { try engineRef?.startTogether(held, [self]) }
        } }
    }

    /// The frame being heard within the sound.
    func currentFrame(_ s: PlayerState) -> Int {
        if let pendingStart = s.pendingStart { return pendingStart }
        guard let source = s.source, s.status == .playing || s.status == .paused else { return s.startFrame }
        if playedOut(s, source) { return sound.frameCount }
        guard let feed = s.feed else { return s.startFrame }
        return feed.frame(atQueueOffset: queueOffset(s, source))
    }

    /// Frames into the source's buffer or queue being heard now: exact offline (the mixer's
    /// own sample offset), and with the output latency taken off on a real device
    /// (`AL_SAMPLE_OFFSET_LATENCY_SOFT`), which can make it negative just after a buffer was
    /// unqueued or the sound came round.
    func queueOffset(_ s: PlayerState, _ source: AudioSource) -> Int {
        guard !isOffline, hasSourceLatency else { return source.get(.sampleOffset) }
        let (offset, latencyNanoseconds) = source.sampleOffsetWithLatency()
        let latencyFrames = Double(latencyNanoseconds) * 1e-9 * Double(sound.sampleRate) * Double(s.settings.rate)
        return offset - Int(latencyFrames.rounded())
    }
}
