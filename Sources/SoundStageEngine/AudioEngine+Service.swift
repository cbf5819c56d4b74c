import Foundation
import Synchronization
import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// The name of the engine's service thread (Linux keeps at most 15 characters).
    public static let serviceThreadName = "SoundStage svc"
    private static let serviceThreadKey = "SoundStage.AudioEngine.service"

    /// Whether the calling thread is an engine's own service thread, where events are
    /// delivered for ``Service/thread(tick:)`` engines.
    public static var isServiceThread: Bool {
        Thread.current.threadDictionary[serviceThreadKey] as? Bool ?? false
    }

    func startServiceThread() {
        running.store(true, ordering: .relaxed)
        let tick = tickSeconds
        let thread = Thread { [weak self] in
            ThreadName.setCurrent(Self.serviceThreadName)
            Thread.current.threadDictionary[Self.serviceThreadKey] = true
            while true {
                Thread.sleep(forTimeInterval: tick)
                guard let engine = self, engine.running.load(ordering: .relaxed) else { return }
                let stall = engine.pendingStall.exchange(0, ordering: .relaxed)
                if stall > 0 { Thread.sleep(forTimeInterval: Double(stall) * 1e-9) }
                engine.update()
            }
        }
        thread.start()
    }

    /// Starves the service thread: its next tick comes `seconds` late, as on a machine too
    /// busy to run it (a test hook for underruns; nothing is refilled meanwhile).
    func stallService(seconds: Double) {
        pendingStall.store(Int64(seconds * 1e9), ordering: .relaxed)
    }

    /// Slows the next underrun's restart: once the stream has started again and before it is
    /// set on the clock, the service thread waits `seconds`, as a restart takes on a machine
    /// too busy to decode in time (a test hook; the clock runs past what was queued).
    func stallRecovery(seconds: Double) {
        pendingRecoveryStall.store(Int64(seconds * 1e9), ordering: .relaxed)
    }

    /// Slows the next refill of a stream: once the tick has queued one chunk more and before
    /// it queues the rest, the service thread waits `seconds`, as decoding takes on a
    /// machine too busy to decode in time (a test hook; the source runs dry meanwhile).
    func stallRefill(seconds: Double) {
        pendingRefillStall.store(Int64(seconds * 1e9), ordering: .relaxed)
    }

    /// Waits out a stall ``stallRecovery(seconds:)`` asked for, once.
    func takeRecoveryStall() {
        let nanoseconds = pendingRecoveryStall.exchange(0, ordering: .relaxed)
        if nanoseconds > 0 { Thread.sleep(forTimeInterval: Double(nanoseconds) * 1e-9) }
    }

    /// The stall ``stallRefill(seconds:)`` asked for, in seconds (0: none), once.
    func takeRefillStall() -> Double {
        Double(pendingRefillStall.exchange(0, ordering: .relaxed)) * 1e-9
    }

    /// Runs one service tick: starts scheduled players whose time has come, advances tweens,
    /// refills loops and streams, notices players that reached their end, checks the
    /// context's unchecked property writes, and delivers events.
    public func update() {
        // A step back from the latency mode is taken after the tick, with no lock held: its
        // reset waits on the sound server (DeviceRoundTrip).
        var step: LatencyStep?
        OpenAL.lock.withLock { held in
            guard !isShutDown else { return }
            if !isOffline { releasePlayedOut(held) }
            guard isOffline || checkOutput(held) else { return }
            if !isOffline { step = watchOutputClock(held) }
            // One look at the state for the clock and the due starts.
            let (now, frame, due) = state.withLockedValue(held) { s -> (Double, Int, [ScheduledStart]) in
                let now = isOffline ? Double(s.renderedFrames) / Double(context.frequency) : currentTime
                let position = s.renderedFrames
                let isDue: (ScheduledStart) -> Bool = { [isOffline] in isOffline ? $0.frame <= position : $0.seconds <= now }
                let due = s.scheduled.filter(isDue)
                s.scheduled.removeAll(where: isDue)
                return (now, position, due)
            }
            for start in due { startScheduled(held, start.players) }
            let players = state.withLockedValue(held) { Array($0.active.values) }
            // The output latency is the device's: read once a tick, through any playing source,
            // and the larger of this tick's and the last one's (it reads low as a stream drains).
            var reading: Double?
            if !isOffline {
                for player in players {
                    reading = player.outputLatency(held)
                    if reading != nil { break }
                }
            }
            let latency = state.withLockedValue(held) { s -> Double in
                let latency = max(reading ?? 0, s.lastLatencySeconds)
                s.lastLatencySeconds = reading ?? s.lastLatencySeconds
                return latency
            }
            // Voices first (those that ended stop setting off ducking), then the buses (fades
            // and ducking, counting the players that play on them), so players and voices
            // get this tick's gains.
            voices.service(held, context: context, nowFrame: isOffline ? frame : mixerFrame(held))
            for error in voices.takeErrors(held) { reportServiceError(held, error, player: nil) }
            let playing = players.map { $0.busPlaying(held) }
            let gains = voices.refreshBuses(held, nowSeconds: now, players: playing)
            for (player, (bus, _)) in zip(players, playing) {
                player.followBus(held, paused: gains.paused[Int(bus)])
                player.service(held, nowSeconds: now, latencySeconds: latency, busGain: gains.gain[Int(bus)])
            }
            if voices.isMetering(held) {
                voices.meter(held, players: players.compactMap { $0.meterWindow(held, seconds: tickSeconds) }, seconds: tickSeconds)
            }
            // The property writes of this tick (and the game's since the last one) are checked
            // once here; errors other calls found for earlier writes join them.
            do {
                try OpenAL.withContext(context.handle) { try $0.checkPending() }
            } catch {
                reportServiceError(held, error, player: nil)
            }
            for error in foundErrors.take() { reportServiceError(held, error, player: nil) }
        }
        if let step { stepLatency(step) }
        deliverEvents()
    }

    /// Starts a scheduled group; during an interruption they wait, paused, for its end.
    private func startScheduled(_ held: borrowing LockHeld, _ group: [Player]) {
        let waiting = group.filter { $0.isScheduled(held) }
        if isInterrupted(held) {
            for player in waiting {
                player.holdForInterruption(held)
                post(held, .interruptionBegan, to: player, run: player.currentRun(held))
            }
            return
        }
        do {
            try startTogether(held, waiting)
        } catch {
            reportServiceError(held, error, player: waiting.count == 1 ? waiting.first : nil)
            for player in waiting { player.abandonSchedule(held) }
        }
    }

    /// A stream of the engine's own events (``EngineEvent``) from now on; each call makes a
    /// new subscriber. It ends when the engine shuts down or goes away (at once, if it has).
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<EngineEvent> { EventSubscribers.subscribe(state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { state.withLockedValue { $0.subscribers.dropped } }

    /// Posts an error no caller can catch as ``EngineEvent/serviceError(_:player:)``; it is
    /// logged as it is delivered, with no lock held.
    func reportServiceError(_ held: borrowing LockHeld, _ error: any Error, player: Player?) {
        let error = error as? SoundStageError ?? failure(.invalidState, "update()", "\(error)")
        state.withLockedValue(held) { $0.outbox.append(.engine(.serviceError(error, player: player))) }
    }

    /// Delivers queued events, one at a time and in order, with no lock held. One thread
    /// delivers at a time; a delegate that calls back into the engine only adds to the queue.
    func deliverEvents() {
        let mine = state.withLockedValue { s -> Bool in
            if s.draining || s.outbox.isEmpty { return false }
            s.draining = true
            return true
        }
        guard mine else { return }
        while true {
            let next = state.withLockedValue { s -> (Outgoing, EventDelivery<EngineEvent>)? in
                if s.outbox.isEmpty {
                    s.draining = false
                    return nil
                }
                return (s.outbox.removeFirst(), s.subscribers.all)
            }
            guard let (outgoing, engineStreams) = next else { return }
            switch outgoing {
            case .player(let player, let event, let run): player.deliver(event, run: run)
            case .playlist(let timeline, let event): timeline.deliver(event)
            case .engine(let event):
                if case .serviceError(let error, _) = event { Log.report(error) }
                engineStreams.yield(event)
            }
        }
    }
}
