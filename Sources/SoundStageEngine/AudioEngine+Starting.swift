import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Starts `players` together, on the same sample (`alSourcePlayv`), now or at engine
    /// time `time` in seconds. Offline, a scheduled start lands on the nearest frame; in real
    /// time, within one service tick. Players already playing are left as they are.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a player of another
    ///   engine, a time in the past or past ``latestStartSeconds`` from now, ``SoundStageError/Code-swift.struct/invalidState``
    ///   during an interruption, and what preparing a player can throw.
    public func play(_ players: [Player], atTime time: Double? = nil) throws {
        let member = time == nil ? "play(_:)" : "play(_:atTime: \(time!))"
        try checkOwnership(players, member)
        guard let time else {
            return try OpenAL.lock.withLock { held in
                if isInterrupted(held) {
                    throw failure(.invalidState, member, "the audio is interrupted; players resume when the interruption ends")
                }
                try startTogether(held, players)
            }
        }
        let frame = try scheduledFrame(time, member)
        try schedule(players, ScheduledStart(seconds: time, frame: frame, players: []))
    }

    /// How far ahead of ``currentTime`` a start may be scheduled, in seconds: 10^7 (about 116
    /// days), as ``Recorder/longestSeconds`` bounds a recording. A later time is refused before
    /// any conversion to frames.
    public static let latestStartSeconds = 1e7

    /// The engine frame of a start at engine time `time`, checked: finite, not before now, and
    /// within ``latestStartSeconds`` of it.
    func scheduledFrame(_ time: Double, _ member: String) throws -> Int {
        let now = currentTime
        guard time.isFinite, time >= now else {
            throw failure(.invalidArgument, member, "the time must be finite and not before the engine's current time \(now)")
        }
        guard time - now <= Self.latestStartSeconds else {
            throw failure(.invalidArgument, member,
                          "the time must be finite, in \(now)...\(now + Self.latestStartSeconds) s (now to \(Self.latestStartSeconds) s from now), got \(time)")
        }
        return Int((time * Double(context.frequency)).rounded())
    }

    /// Starts `players` together at engine frame `frame` (``currentFrame``): exactly on it
    /// offline, within one service tick in real time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a player of another
    ///   engine or a frame in the past, and what preparing a player can throw.
    public func play(_ players: [Player], atFrame frame: Int) throws {
        let member = "play(_:atFrame: \(frame))"
        try checkOwnership(players, member)
        let now = currentFrame
        let latest = Int(Self.latestStartSeconds) * context.frequency
        guard frame >= now else {
            throw failure(.invalidArgument, member, "the frame must not be before the engine's current frame \(now)")
        }
        guard frame - now <= latest else {
            throw failure(.invalidArgument, member, "the frame must be in \(now)...\(now + latest) (now to \(Self.latestStartSeconds) s from now), got \(frame)")
        }
        try schedule(players, ScheduledStart(seconds: Double(frame) / Double(context.frequency), frame: frame, players: []))
    }

    private func checkOwnership(_ players: [Player], _ member: String) throws {
        for player in players where player.engine !== self {
            throw failure(.invalidArgument, member, "\(player) belongs to another engine")
        }
    }

    /// Prepares the players that are not playing and puts them in a scheduled start.
    private func schedule(_ players: [Player], _ start: ScheduledStart) throws {
        try OpenAL.lock.withLock { held in
            let waiting = players.filter { !$0.isPlaying(held) }
            for player in waiting { try player.prepare(held) }   // a scheduled one keeps its feed
            for player in waiting {
                unschedule(held, player)
                player.markScheduled(held)
            }
            var start = start
            start.players = waiting
            state.withLockedValue(held) { $0.scheduled.append(start) }
        }
    }

    /// Prepares and starts players in one `alSourcePlayv`.
    func startTogether(_ held: borrowing LockHeld, _ players: [Player]) throws {
        try checkNotShutDown("play")
        let starting = players.filter { !$0.isPlaying(held) }
        var sources: [AudioSource] = []
        for player in starting { sources.append(try player.prepare(held)) }
        try AudioSource.play(sources)
        for player in starting {
            unschedule(held, player)
            player.markStarted(held)
        }
    }
}
