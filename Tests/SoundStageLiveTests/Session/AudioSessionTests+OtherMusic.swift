import Foundation
import Testing
import SoundStage
@testable import SoundStageSession
@testable import SoundStageEngine
import SoundStageTestSupport

/// The session's categories acting on other applications' music, as iOS categories act on
/// other apps' audio: mpv with mpv-mpris on a private bus (``MusicRig``) is the desktop's
/// player; what it does is read with playerctl and heard at its sink's monitor. Each test has
/// a session of its own, so the process's shared session is not touched.
@Suite("AudioSession and other applications' music: categories that pause and resume it, interruptions", .serialized)
struct AudioSessionOtherMusicTests {
    /// The session's events, as they came.
    final class Log: AudioSessionDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var items: [SessionEvent] = []
        var events: [String] { lock.withLock { items.map(\.description) } }
        func audioSession(_ session: AudioSession, didReceive event: SessionEvent) { lock.withLock { items.append(event) } }
        func wait(for text: String, seconds: Double = 5) -> Bool { Poll.until(seconds: seconds) { events.contains { $0.contains(text) } } }
    }

    /// A session of the test's own acting on the rig's players, with its log.
    static func session(_ rig: MusicRig, _ name: String) -> (AudioSession, Log) {
        let session = AudioSession(name: name)
        session.systemMusicPlayer = SystemMusicPlayer(busAddress: rig.busAddress, session: session)
        let log = Log()
        session.delegate = log
        return (session, log)
    }

    /// Waits until the session's music player has heard `state` from the player: mpv-mpris
    /// announces a change about 100 ms after it (measured with dbus-monitor), and a change
    /// undone within that time is never announced, so a user's touch is only seen once it was.
    static func seen(_ session: AudioSession, _ state: MusicPlaybackState, title: String? = nil) -> Bool {
        Poll.until(seconds: 5) {
            session.systemMusicPlayer.players.first.map { $0.playbackState == state && (title == nil || $0.nowPlayingItem?.title == title) } ?? false
        }
    }

    /// A real-time engine (the default output) joining `session`.
    static func engine(_ session: AudioSession) throws -> AudioEngine {
        try AudioEngine(output: .defaultDevice, attributes: ContextAttributes(), service: .thread(), session: session)
    }

    /// Whether the last half second at the sink holds the 440 Hz tone (`true`) or silence.
    static func heard(_ recording: ChildProcess, playing: Bool) -> Bool {
        Poll.until(seconds: 6, every: 0.05) {
            let tail = Array(recording.samples.suffix(24_000))
            guard tail.count == 24_000 else { return false }
            let dB = Measure.dB(tail)
            return playing ? dB > -30 && abs(Measure.peakFrequency(tail, sampleRate: 48_000) - 440) < 5 : dB < -80
        }
    }

    @Test("playback: the music pauses as the game's engine joins, resumes when the session is deactivated, and again when the engine shuts down")
    func playbackPausesAndResumes() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let mpv = try rig.mpv([try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")])
        let recording = try rig.record()
        defer { recording.stop() }
        #expect(Self.heard(recording, playing: true), "mpv plays before the game")
        let (session, log) = Self.session(rig, "playback pauses others")
        try session.setCategory(.playback)
        let engine = try Self.engine(session)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "the engine joined an active playback session")
        #expect(Self.heard(recording, playing: false), "the desktop's music is silent")
        #expect(log.wait(for: "otherMusicPaused(org.mpris.MediaPlayer2.\(mpv.name))"), "\(log.events)")
        #expect(session.holdsOtherMusic)

        try session.setActive(false)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "deactivated: resumed \(log.events) \(session.systemMusicPlayer.players)")
        #expect(Self.heard(recording, playing: true))
        #expect(log.wait(for: "otherMusicResumed(org.mpris.MediaPlayer2.\(mpv.name))"), "\(log.events)")

        try session.setActive(true)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "active again: paused again")
        engine.shutdown()
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "the last engine gone: resumed \(log.events) \(session.state.withLockedValue { $0.otherMusic })")
        #expect(!session.holdsOtherMusic)
    }

    @Test("music the user touched while paused is left as they set it")
    func touchedIsLeft() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "A", album: "Fixtures")
        let mpv = try rig.mpv([a, b])
        let (session, log) = Self.session(rig, "touched music")
        try session.setCategory(.soloAmbient)
        let engine = try Self.engine(session)
        defer { engine.shutdown() }
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        #expect(log.wait(for: "otherMusicPaused"))
        #expect(Self.seen(session, .paused))
        // The user plays it and pauses it again: theirs now.
        try rig.playerctl(["-p", mpv.name, "play"])
        #expect(Self.seen(session, .playing))
        try rig.playerctl(["-p", mpv.name, "pause"])
        #expect(Self.seen(session, .paused))
        try session.setActive(false)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Paused", "the user's pause is kept")
        #expect(!log.events.contains { $0.contains("otherMusicResumed") }, "\(log.events)")

        // Played by the user, paused by the session again, then moved to the next item by the
        // user: left there.
        try rig.playerctl(["-p", mpv.name, "play"])
        #expect(Self.seen(session, .playing))
        try session.setActive(true)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        #expect(Self.seen(session, .paused))
        try rig.playerctl(["-p", mpv.name, "next"])
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "metadata", "xesam:title"], "Six Sixty"))
        try rig.playerctl(["-p", mpv.name, "pause"])
        #expect(Self.seen(session, .paused, title: "Six Sixty"))
        try session.setActive(false)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Paused", "another item: not resumed")
    }

    @Test("ambient and mixWithOthers leave the music playing; switching to playback pauses it, back to ambient resumes it")
    func ambientAndMixing() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let mpv = try rig.mpv([try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")])
        let (session, log) = Self.session(rig, "ambient music")
        try session.setCategory(.ambient)
        let engine = try Self.engine(session)
        defer { engine.shutdown() }
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Playing", "ambient mixes")
        try session.setCategory(.playback, options: .mixWithOthers)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Playing", "playback with mixWithOthers mixes")
        #expect(!log.events.contains { $0.contains("otherMusicPaused") }, "\(log.events)")
        try session.setCategory(.playback)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "playback alone pauses it")
        try session.setCategory(.ambient)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "ambient again: resumed")
    }

    @Test("a call or the game's interruption pauses the desktop's music and its end resumes it; an end without resuming leaves it paused; Ctrl-Z leaves it")
    func interruptions() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let mpv = try rig.mpv([try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")])
        let (session, log) = Self.session(rig, "interrupted music")
        try session.setCategory(.ambient)
        let engine = try Self.engine(session)
        defer { engine.shutdown() }
        session.beginInterruption()
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "\(log.events)")
        session.endInterruption(shouldResume: true)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "\(log.events)")
        // Ctrl-Z stops the game, not the user's music (the process would stop before a pause
        // reached the player).
        session.begin(.processSuspended)
        Thread.sleep(forTimeInterval: 1)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Playing", "a suspended game leaves the music playing")
        session.end(.processSuspended, shouldResume: true)
        session.beginInterruption()
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        session.endInterruption(shouldResume: false)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Paused", "the end said not to resume")
    }
}
