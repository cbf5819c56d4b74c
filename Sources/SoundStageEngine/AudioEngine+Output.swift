import Foundation
import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Moves the engine to another output, carrying everything across: the buffers of every
    /// loaded sound made for the engine, playing or not (uploaded again from their kept bytes,
    /// so nothing keeps the old device open), every player's source with all its
    /// properties, the listener, distance model, Doppler and speed of sound, the context
    /// attributes (HRTF request included), each player's playhead (where the old mixer was,
    /// exact to the frame), streams from their decoder position, scheduled starts
    /// at their engine time, and fades in flight. Playing players start again together.
    ///
    /// An offline engine moves between loopback devices (``Output/offline(_:)``), a real-time
    /// one between output devices. Objects made by hand on the old ``context`` (an
    /// ``AudioSource`` or ``AudioBuffer`` of your own) stay on the old device.
    ///
    /// - Returns: what changed, with how long the move took.
    /// - Throws: ``SoundStageError/Code-swift.struct/deviceNotFound`` or
    ///   ``SoundStageError/Code-swift.struct/noOutputDevice`` when the new output cannot be
    ///   opened, ``SoundStageError/Code-swift.struct/invalidArgument`` for an offline output on
    ///   a real-time engine or the reverse. The engine is then unchanged.
    @discardableResult
    public func switchOutput(to output: Output) throws -> RouteChange {
        let member = "switchOutput(to:)"
        guard output.isOffline == isOffline else {
            throw failure(.invalidArgument, member, isOffline
                ? "an offline engine moves only to another loopback device (.offline)"
                : "a real-time engine moves only to another output device (.defaultDevice or .named)")
        }
        let device = try Self.open(output)
        return try OpenAL.lock.withLock { held in
            let change = try moveOutput(held, to: device, requested: output, reason: .override, lostAt: nil)
            report(held, change)
            return change
        }
    }

    /// The output the engine was asked for: the default device, a named one, or offline.
    public var requestedOutput: Output { output.withLock { $0.requested } }

    /// Moves to `device` (see ``switchOutput(to:)``). `lostAt` is when the old device was
    /// found lost, nil for a move while it still plays.
    func moveOutput(_ held: borrowing LockHeld, to device: AudioDevice, context prepared: AudioContext? = nil, requested: Output,
                    reason: RouteChange.Reason, lostAt: ContinuousClock.Instant?) throws -> RouteChange {
        let began = ContinuousClock.now
        let old = output.withLock { $0 }
        let context = try prepared ?? AudioContext(device: device, attributes: old.context.attributes)
        try old.context.carryState(to: context)
        // From a device that still plays, every source stops where its mixer is and goes on
        // from there on the new device, and the old device plays out what it has mixed
        // before it is closed: nothing is skipped, nothing heard twice, and no reading of the
        // output latency is needed (PulseAudio has none for a young stream).
        let live = lostAt == nil && old.device.loopbackFormat == nil
        var stopped: [ObjectIdentifier: MovePoint] = [:]
        if live {
            for player in state.withLockedValue(held, { $0.made.compactMap(\.player) }) {
                stopped[ObjectIdentifier(player)] = player.stopForMove(held)
            }
        }
        voices.leave(held, atFrame: mixerFrame(held), stoppingSources: live)
        if live { playOut(held, old) }
        DeviceSuccession.record(from: old.device, to: device)
        output.withLock { $0 = EngineOutput(device: device, context: context, requested: requested) }
        let found = foundErrors
        context.handle.setErrorSink { found.append($0) }
        old.context.handle.setErrorSink(nil)
        let (oldRate, newRate) = (old.context.frequency, context.frequency)
        let gone = state.withLockedValue(held) { $0.made }.gone
        let (players, sounds, category, paused) = state.withLockedValue(held) { s -> ([Player], [Sound], AudioSession.Category, Bool) in
            s.lastLatencySeconds = 0
            if oldRate != newRate, oldRate > 0 {
                // The engine's clock is in frames of its output: the same time in the new rate.
                s.renderedFrames = Int((Double(s.renderedFrames) * Double(newRate) / Double(oldRate)).rounded())
                for i in s.scheduled.indices { s.scheduled[i].frame = Int((s.scheduled[i].seconds * Double(newRate)).rounded()) }
            }
            // Every player the engine made: playing, paused and scheduled ones, and idle ones,
            // whose sources would otherwise keep the old device open.
            s.made.removeAll { gone.contains($0.serial) }
            s.sounds.removeAll { $0.sound == nil }
            return (s.made.compactMap(\.player), s.sounds.compactMap(\.sound), s.category, s.devicePaused)
        }
        // Every loaded sound of the engine's, playing or not, so no buffer keeps the old device.
        // One that cannot be uploaded now stays where it is and is uploaded when next played
        // (and that play reports the error).
        for sound in sounds {
            do { try sound.follow(to: context) } catch { Log.report(error) }
        }
        voices.moved(held, to: newRate, clockFrame: mixerFrame(held))
        if paused { pauseDevice(held, device, context, true) }
        let pauseMusic = reason == .oldDeviceUnavailable && category.pausesWhenOutputLost
        var starting: [AudioSource] = []
        for player in players {
            do {
                if let source = try player.move(held, to: context, deviceLost: lostAt != nil, stoppedAt: stopped[ObjectIdentifier(player)],
                                                pauseMusic: pauseMusic) { starting.append(source) }
            } catch {
                player.abandon(held, error)
            }
        }
        do { try AudioSource.play(starting) } catch { reportServiceError(held, error, player: nil) }
        // Voices keep time through the move: the most audible take sources on the new device now.
        voices.service(held, context: context, nowFrame: voices.clockFrame(held))
        let end = ContinuousClock.now
        return RouteChange(reason: reason, previous: old.device.name, current: device.name,
                           moveSeconds: (end - began).seconds, gapSeconds: lostAt.map { (end - $0).seconds })
    }
}

extension AudioEngine {
    /// A context on `device` for the engine to move to, made before the move and returned
    /// once the device's stream plays: OpenAL Soft's stream on a sound server starts a
    /// while after the device opens (0.3 to 1.7 s measured on PulseAudio), and the old
    /// device plays on meanwhile, so the move itself leaves no such gap. Returned after
    /// `limit` seconds at most; called with no lock held.
    func prepareOutput(on device: AudioDevice, limit: Double = 2) throws -> AudioContext {
        let context = try AudioContext(device: device, attributes: self.context.attributes)
        guard context.refresh > 0, let start = device.clockNanoseconds else { return context }
        // Mixed beyond the queue it fills before the server plays anything (three updates)
        // and one update more: the server is taking what it mixes.
        let running = Int64(4e9 / Double(context.refresh))
        let deadline = ContinuousClock.now + .seconds(limit)
        while (device.clockNanoseconds ?? start) - start < running, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        return context
    }

    /// Keeps `old`, an output the engine moved away from while it played, until it has
    /// played what it had mixed (``PlayingOut``): at least twice its latency (three mixer
    /// updates when it reports none yet), and 50 ms more. The service tick lets it go then
    /// (``releasePlayedOut(_:)``).
    private func playOut(_ held: borrowing LockHeld, _ old: EngineOutput) {
        let updates = old.context.refresh > 0 ? 3 / Double(old.context.refresh) : 0
        let reported = Double(old.device.latencyNanoseconds ?? 0) * 1e-9
        let kept = PlayingOut(old, latencySeconds: max(reported, updates), now: ContinuousClock.now)
        state.withLockedValue(held) { $0.playingOut.append(kept) }
    }

    /// Lets go of the outputs that have played out what they had mixed: each context is
    /// destroyed and each device closed as its last reference goes, after the engine's state
    /// is let go (closing a device takes a while).
    func releasePlayedOut(_ held: borrowing LockHeld) {
        let now = ContinuousClock.now
        let waiting = state.withLockedValue(held) { $0.playingOut }
        guard !waiting.isEmpty else { return }
        // The devices are read outside the engine's state (they take the gateway lock, held).
        let played = Set(waiting.filter { $0.hasPlayedOut(at: now) }.map { ObjectIdentifier($0.output.device) })
        guard !played.isEmpty else { return }
        var done: [EngineOutput] = []
        state.withLockedValue(held) { s in
            done = s.playingOut.filter { played.contains(ObjectIdentifier($0.output.device)) }.map(\.output)
            s.playingOut.removeAll { played.contains(ObjectIdentifier($0.output.device)) }
        }
        done.removeAll()
    }
}

extension AudioEngine {
    /// The shortest and longest waits between attempts to open a device after a loss.
    static let reopenWaits: ClosedRange<Double> = 0.05...2

    /// How long a replacement device must play before its loss counts as a new one: a loss
    /// sooner than this after a recovery (a device that fails as soon as it is opened) waits
    /// twice as long as the last attempt did; a later one starts the waits over.
    static let healthyOutputSeconds = 1.0

    /// At the start of a tick on a real device: notices a lost output and moves to the
    /// default device (or the named one asked for, if it is back), or, when none opens, keeps
    /// every player as it is and tries again later (or plays on the silent output, when
    /// asked: ``fallsBackToSilentOutput``). Returns whether the tick may service the players:
    /// while the output is lost their sources are stopped and must not be taken for finished.
    func checkOutput(_ held: borrowing LockHeld) -> Bool {
        let now = ContinuousClock.now
        if state.withLockedValue(held, { $0.lost == nil }) {
            if device.isConnected { return true }
            state.withLockedValue(held) { s in
                var wait = Self.reopenWaits.lowerBound, next = now
                if let last = s.lastRecovery, now - last.at < .seconds(Self.healthyOutputSeconds) {
                    wait = min(last.wait * 2, Self.reopenWaits.upperBound)
                    next = last.at + .seconds(wait)
                }
                s.lost = LostOutput(since: now, nextAttempt: next, wait: wait)
            }
        }
        if let lost = state.withLockedValue(held, { $0.lost }), now >= lost.nextAttempt, replaceLostOutput(held, lost, now: now) {
            return true
        }
        return renderSilently(held, now: now)
    }

    /// Opens a device in place of the lost one and moves there; false when none opened.
    private func replaceLostOutput(_ held: borrowing LockHeld, _ lost: LostOutput, now: ContinuousClock.Instant) -> Bool {
        let requested = requestedOutput
        let previous = device.name
        // A loss noticed soon after the sound server died is its doing; a later one is not
        // (an engine whose device outlived the server would otherwise label the next loss so).
        let (serverLost, silent) = state.withLockedValue(held) { s in
            (s.serverLostAt.map { abs((lost.since - $0).seconds) < AudioEngine.serverLossWindow } ?? false, s.silent != nil)
        }
        // Whether the session's monitor was too busy to say, or the server did not answer it
        // in time (both asked again at the shortest wait).
        var busy = false, late = false
        do {
            // The device asked for by name if it is back, the default device otherwise.
            var target = Output.defaultDevice
            if case .named(let name) = requested, AudioDevice.outputDevices.contains(name) { target = requested }
            // Not on a server that is not back yet, nor on its placeholder sink: OpenAL Soft
            // lists both a while, and an open there fails, or lasts until the real sink comes.
            let server = session?.soundServerOutput ?? .unwatched
            busy = server == .busy
            late = server == .late
            if let reason = server.notReady, server == .gone || busy || late || target == .defaultDevice {
                throw failure(.noOutputDevice, "update()", reason)
            }
            let device = try Self.open(target)
            // From the silent output the players move as from any live device, exactly.
            let reason: RouteChange.Reason = serverLost ? .mediaServicesWereReset : silent ? .newDeviceAvailable : .oldDeviceUnavailable
            let change = try moveOutput(held, to: device, requested: requested, reason: reason, lostAt: silent ? nil : lost.since)
            state.withLockedValue(held) { s in
                s.lost = nil
                s.silent = nil
                s.serverLostAt = nil
                s.lastRecovery = (ContinuousClock.now, lost.wait)
            }
            report(held, change)
            return true
        } catch {
            let error = error as? SoundStageError ?? failure(.noOutputDevice, "update()", "\(error)")
            let announce = state.withLockedValue(held) { s -> Bool in
                let wait = busy ? Self.reopenWaits.lowerBound : lost.wait
                s.lost?.nextAttempt = now + .seconds(wait)
                // A busy monitor is asked again at the shortest wait, unannounced: nothing new
                // is known of the output. A late server is asked again after the same wait, not
                // doubled, and announced once: it answers as soon as it is done with what held
                // it (a sink's streams moved), and doubling there made a quick move last 1.45 s.
                guard !busy, !(late && lost.announced) else { return false }
                if !late { s.lost?.wait = min(wait * 2, Self.reopenWaits.upperBound) }
                s.outbox.append(.engine(.outputUnavailable(device: previous, error: error, retryInSeconds: wait)))
                defer { s.lost?.announced = true }
                return !lost.announced && lost.wait == Self.reopenWaits.lowerBound
            }
            if announce { session?.post(.outputUnavailable(device: previous, reason: error.reason)) }
            if !silent, !busy, state.withLockedValue(held, { $0.fallsBackToSilentOutput }) { moveToSilentOutput(held, lost, now: now) }
            return false
        }
    }
}

extension AudioEngine {
    /// The name the silent output goes by in route changes.
    public static let silentOutputName = "SoundStage silent output"

    /// Whether a real-time engine that lost its device and finds no other plays on a silent
    /// output meanwhile, so that time goes on for its players (streams advance, sounds end
    /// and report it) until a device returns. False by default: the players wait, paused
    /// where they were, for a device.
    public var fallsBackToSilentOutput: Bool {
        get { state.withLockedValue { $0.fallsBackToSilentOutput } }
        set { state.withLockedValue { $0.fallsBackToSilentOutput = newValue } }
    }

    /// Whether the engine plays on the silent output now (see ``fallsBackToSilentOutput``).
    public var isOnSilentOutput: Bool { state.withLockedValue { $0.silent != nil } }

    /// Moves to a loopback device the service loop renders in real time and throws away.
    private func moveToSilentOutput(_ held: borrowing LockHeld, _ lost: LostOutput, now: ContinuousClock.Instant) {
        let rate = Limits.outputSampleRates.clamping(context.frequency)
        do {
            let device = try AudioDevice.openLoopback(format: RenderFormat(sampleRate: rate, channels: .stereo, sampleType: .float32))
            let change = try moveOutput(held, to: device, requested: requestedOutput, reason: .oldDeviceUnavailable, lostAt: lost.since)
            state.withLockedValue(held) { $0.silent = SilentOutput(since: ContinuousClock.now) }
            report(held, RouteChange(reason: change.reason, previous: change.previous, current: Self.silentOutputName,
                                     moveSeconds: change.moveSeconds, gapSeconds: change.gapSeconds))
        } catch {
            reportServiceError(held, error, player: nil)
        }
    }

    /// On the silent output, renders what the time since the last tick asks for (at most a
    /// second's worth) and throws it away. Returns whether the silent output is in use.
    private func renderSilently(_ held: borrowing LockHeld, now: ContinuousClock.Instant) -> Bool {
        guard let silent = state.withLockedValue(held, { $0.silent }), let format = device.loopbackFormat else { return false }
        let due = Int(((now - silent.since).seconds * Double(format.sampleRate)).rounded(.down)) - silent.rendered
        let frames = min(max(0, due), format.sampleRate)
        guard frames > 0 else { return true }
        var scratch = [UInt8](repeating: 0, count: frames * format.bytesPerFrame)
        do {
            try scratch.withUnsafeMutableBytes { try device.render(into: $0, frames: frames) }
        } catch {
            reportServiceError(held, error, player: nil)
        }
        state.withLockedValue(held) { $0.silent?.rendered += max(0, due) }
        return true
    }
}

extension AudioEngine {
    /// Posts a route change to the engine's subscribers and its session's.
    func report(_ held: borrowing LockHeld, _ change: RouteChange) {
        state.withLockedValue(held) { $0.outbox.append(.engine(.routeChanged(change))) }
        session?.post(.routeChanged(change))
    }

    /// Pauses or resumes `device`'s mixing and suspends or processes `context` (real devices
    /// that can pause); an error is reported, never thrown.
    func pauseDevice(_ held: borrowing LockHeld, _ device: AudioDevice, _ context: AudioContext, _ pause: Bool) {
        guard device.loopbackFormat == nil, device.canPause else { return }
        do {
            if pause {
                try context.suspend()
                try device.pause()
            } else {
                try device.resume()
                try context.process()
            }
        } catch {
            reportServiceError(held, error, player: nil)
        }
    }
}

extension AudioEngine {
    /// Switches HRTF on or off, or to another data set by name, while everything plays (see
    /// ``AudioContext/switchHRTF(_:named:)``); the engine keeps the choice when it moves to
    /// another device.
    public func switchHRTF(_ request: HRTFRequest, named name: String? = nil) throws {
        try context.switchHRTF(request, named: name)
    }
}
