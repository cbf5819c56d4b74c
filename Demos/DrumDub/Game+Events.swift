import Foundation
import SoundStage
import Synchronization

/// What reaches the game from other threads: the session's events and the engine's.
enum GameEvent: Sendable {
    case session(SessionEvent)
    case engine(EngineEvent)
}

/// Where the session's thread and the engine's event stream leave their events for the
/// game's loop to take.
final class Inbox: AudioSessionDelegate, Sendable {
    private let events = Mutex<[GameEvent]>([])

    func post(_ event: GameEvent) { events.withLock { $0.append(event) } }
    func take() -> [GameEvent] { events.withLock { e in defer { e = [] }; return e } }

    func audioSession(_ session: AudioSession, didReceive event: SessionEvent) { post(.session(event)) }

    /// Listens to `engine`'s events until the engine goes (the session's come to the inbox
    /// as its delegate).
    func listen(to engine: AudioEngine) {
        let stream = engine.events()
        Task.detached { [self] in
            for await event in stream { post(.engine(event)) }
        }
    }
}

extension Game {
    /// Reacts to an event from the session or the engine, at engine time `now`.
    func handle(_ event: GameEvent, at now: Double) {
        switch event {
        case .session(.interruptionBegan(let reason)): interruptionBegan(reason, at: now)
        case .session(.interruptionEnded(let resume)): interruptionEnded(shouldResume: resume)
        case .session(.activeChanged(let active)): sessionState = active ? "active" : "inactive"
        case .session(.soundServerUnavailable(let reason)): note("no sound server: \(reason); calls are not seen")
        case .session(.mediaServicesWereLost): say("the sound server died; the game waits for it to come back", alert: true)
        case .session(.mediaServicesWereReset): say("the sound server is back; the game plays on it")
        case .session(.watcherUnavailable(let what, let reason)): note("\(what) not watched: \(reason)")
        case .session: break   // route changes come from the engine, with what they did
        case .engine(.routeChanged(let change)):
            lastRoute = "\(change.reason.rawValue): '\(change.current)'"
            if change.reason == .oldDeviceUnavailable { outputLost(change, at: now) }
        case .engine(.outputUnavailable(let device, _, let retry)):
            say("'\(device)' is gone and no other output opens; trying again in \(String(format: "%.1f", retry)) s", alert: true)
        case .engine(.serviceError(let error, _)): say("\(error)", alert: true)
        case .engine(.streamUnderrun): underruns += 1
        case .engine(.latencyChanged): break   // the output line shows the mode it holds now
        case .engine(.outputDropout): break    // counted in the output line's gaps (outputUnderruns)
        }
    }

    /// The seed app's `audioPlayerBeginInterruption`: the music is paused (by its policy) and
    /// the percussion stopped, the groove too, so no tail comes back afterwards.
    func interruptionBegan(_ reason: InterruptionReason, at now: Double) {
        interruption = reason
        stopPercussion(at: now)
        let why: String
        switch reason {
        case .phoneCall: why = "a call (a phone stream on the sound server)"
        case .processSuspended: why = "suspended (Ctrl-Z)"
        case .systemSleep: why = "the system is going to sleep"
        case .app: why = "the game's own interruption (i ends it)"
        }
        say("INTERRUPTED by \(why): music paused, drums stopped", alert: true)
    }

    /// The seed app's `audioPlayerEndInterruption`: the session is active again and the
    /// music plays on from where it paused.
    func interruptionEnded(shouldResume: Bool) {
        interruption = nil
        if let session = engine.session {
            do { try session.setActive(true); sessionState = "active" } catch { say("\(error)", alert: true); return }
        }
        // The engine resumed the music already when the end says so; this covers the rest.
        if shouldResume, musicWanted, !music.isPlaying { try? music.play() }
        let session = engine.session == nil ? "" : " session active again,"
        say(music.isPlaying ? "interruption over:\(session) music playing on" : "interruption over:\(session) p plays the music")
    }

    /// The seed app's route change for `oldDeviceUnavailable` (headphones unplugged): everything
    /// pauses, on the new output.
    func outputLost(_ change: RouteChange, at now: Double) {
        stopPercussion(at: now)
        music.pause()
        musicWanted = false
        say("'\(change.previous ?? "?")' went away: everything paused, now on '\(change.current)'; p plays the music", alert: true)
    }

    private func stopPercussion(at now: Double) {
        groove.stop(at: now)
        engine.stopVoices()
        for drum in drums { drum.stop() }
    }

    /// Begins the game's own interruption, or ends it: through the session for a real-time
    /// engine (its events come back as for a call), directly for an offline one.
    func toggleInterruption(at now: Double) {
        if let session = engine.session {
            // The session's own state decides, not a flag of the game's an event may overtake.
            if session.interruptions.contains(.app) { session.endInterruption() } else { session.beginInterruption() }
        } else if interruption == nil {
            engine.beginInterruption()
            interruptionBegan(.app, at: now)
        } else {
            engine.endInterruption(resume: true)
            interruptionEnded(shouldResume: true)
        }
    }

    /// What the screen shows now; `now` moves the meters' fall.
    /// The music line when the game plays along with the desktop's player: its name, state,
    /// position and what it plays, e.g. `mpv playing 0:12/3:45 Title — Artist` (cut to the box).
    static func desktopLine(_ desktop: SystemMusicPlayer) -> String {
        guard let player = desktop.currentPlayer else { return "desktop: no music player now" }
        func clock(_ t: Double) -> String { String(format: "%d:%02d", Int(t) / 60, Int(t) % 60) }
        var line = "\(player.identity) \(player.playbackState) \(clock(player.currentPlaybackTime))"
        if let length = player.nowPlayingItem?.playbackDuration { line += "/\(clock(length))" }
        if let item = player.nowPlayingItem { line += " \(item)" }
        return String(line.prefix(34))
    }

    func snapshot(at now: Double) -> Snapshot {
        music.updateMeters()
        var levels = drumBuses.map(\.peakPower)
        levels.append(max(music.peakPower(forChannel: 0), music.peakPower(forChannel: 1)))
        levels.append(engine.masterBus.peakPower)
        let fall = Float(now - (shownAt ?? now)) * Self.meterFall
        shownAt = now
        shown = zip(levels, shown).map { max($0, $1 - fall) }

        var s = Snapshot()
        s.pose = pose
        s.drumLevels = Array(shown.prefix(Room.drums.count))
        s.struck = struckAt.map { $0.map { now - $0 < Self.flashSeconds } ?? false }
        s.musicLevel = shown[Room.drums.count]
        s.masterLevel = shown[Room.drums.count + 1]
        if let desktop {
            s.music = Self.desktopLine(desktop)
        } else {
            let musicState = interruption != nil && musicWanted ? "waiting" : music.isPlaying ? "playing" : "paused"
            s.music = String(format: "music  %@ %4.1f/%.0f s  vol %d%%", musicState, music.currentTime, music.duration, Int((music.volume * 100).rounded()))
        }
        s.room = "reverb \(Self.reverbs[reverbIndex].name), HRTF \(engine.context.hrtfStatus)"
        switch groove.state {
        case .idle: s.groove = groove.hits.isEmpty ? "groove: none (g records)" : "groove: \(groove.hits.count) hits (l loops)"
        case .recording(_, let hits): s.groove = "groove: RECORDING, \(hits.count) hits"
        case .looping: s.groove = String(format: "groove: looping %d hits / %.1f s", groove.hits.count, groove.length)
        }
        // The latency: the mode the output holds now (or the player's own PULSE_LATENCY_MSEC,
        // which decides, and the milliseconds asked in its place) and what its device reports.
        let reported = engine.outputLatency.map { String(format: " %.0f ms", $0 * 1_000) } ?? ""
        let latency: String
        if let request = engine.context.serverLatencyRequest, request.origin == .process {
            latency = " PULSE_LATENCY_MSEC=\(request.replaced ?? request.milliseconds)" + (request.replaced != nil ? " (\(request.milliseconds) asked)" : "") + reported
        } else {
            latency = engine.latencyMode.map { " \($0)" + reported } ?? ""
        }
        let rate = engine.context.frequency
        let kHz = rate % 1_000 == 0 ? "\(rate / 1_000)" : String(format: "%.1f", Double(rate) / 1_000)
        let gaps = engine.outputUnderruns
        s.device = "'\(engine.device.name)' \(kHz) kHz\(latency)" + (gaps > 0 ? ", \(gaps) output gaps" : "")
            + (underruns > 0 ? ", \(underruns) underruns" : "")
        if let session = engine.session {
            let interrupted = interruption.map { ", INTERRUPTED (\($0))" } ?? ""
            s.session = "\(sessionState), \(session.category)\(interrupted)"
        } else {
            s.session = "none: rendering offline" + (interruption.map { ", INTERRUPTED (\($0))" } ?? "")
        }
        s.route = lastRoute
        let voices = engine.voiceCounts
        (s.realVoices, s.virtualVoices) = (voices.real, voices.virtual)
        s.message = message
        s.isAlert = isAlert
        s.notice = notice
        return s
    }
}
