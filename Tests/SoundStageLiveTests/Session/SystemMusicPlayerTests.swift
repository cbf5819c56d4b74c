import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

/// `SystemMusicPlayer` against real MPRIS players: mpv with mpv-mpris on a private session bus
/// (``MusicRig``), playing tagged tones into a private PulseAudio's null sink. What SoundStage
/// reads is checked against playerctl, the reference MPRIS client, and what its commands do
/// against playerctl and against the sink's monitor (the music stops and comes back).
@Suite("SystemMusicPlayer: real MPRIS players (mpv) on a private session bus", .serialized)
struct SystemMusicPlayerTests {
    /// The events a delegate received, with whether each came on the session's thread.
    final class Log: SystemMusicPlayerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(MusicPlayerEvent, Bool)] = []
        var events: [MusicPlayerEvent] { lock.withLock { items.map(\.0) } }
        var allOnSessionThread: Bool { lock.withLock { items.allSatisfy(\.1) } }
        func systemMusicPlayer(_ player: SystemMusicPlayer, didReceive event: MusicPlayerEvent) {
            let onThread = AudioSession.shared.isSessionThread
            lock.withLock { items.append((event, onThread)) }
        }
        /// Waits until an event satisfying `match` came; returns it.
        func wait(seconds: Double = 5, _ match: (MusicPlayerEvent) -> Bool) -> MusicPlayerEvent? {
            Poll.value(seconds: seconds) { events.first(where: match) }
        }
    }

    /// The 440 Hz (or `hz`) level in dB of the last `seconds` recorded.
    static func level(_ recording: ChildProcess, lastSeconds seconds: Double = 0.5) -> (dB: Double, hz: Double) {
        let tail = Array(recording.samples.suffix(Int(seconds * 48_000)))
        guard tail.count > 4_800 else { return (-160, 0) }
        return (Measure.dB(tail), Measure.peakFrequency(tail, sampleRate: 48_000))
    }

    /// Waits until the last half second recorded satisfies `condition`, recording on.
    static func waitForLevel(_ recording: ChildProcess, seconds: Double = 6, _ condition: ((dB: Double, hz: Double)) -> Bool) -> (dB: Double, hz: Double) {
        var last = (dB: -160.0, hz: 0.0)
        Poll.until(seconds: seconds, every: 0.05) {
            last = level(recording)
            return condition(last)
        }
        return last
    }

    @Test("the player and what it plays, as playerctl reads them; events on the session's thread")
    func nowPlaying() async throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let song = try rig.song("a", hz: 440, seconds: 20, title: "Four Forty", artist: "The Testers", album: "Fixtures")
        let mpv = try rig.mpv([song])
        // mpv says "Playing" at once, but loads the tags and starts its output (its position
        // stays at 0.1 s for about 1.5 s here) a moment later: the test starts from there.
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "metadata", "xesam:title"], "Four Forty"))
        #expect(Poll.until(seconds: 5) { (Double((try? rig.playerctl(["-p", mpv.name, "position"])) ?? "") ?? 0) > 0.5 })
        let log = Log()
        let music = SystemMusicPlayer(busAddress: rig.busAddress)
        music.delegate = log
        #expect(await music.ready() == .available)
        #expect(music.players.count == 1)
        let current = try #require(music.currentPlayer)
        #expect(current.busName == "org.mpris.MediaPlayer2.\(mpv.name)" && current.identity == "mpv")
        #expect(music.playbackState == .playing)
        let item = try #require(music.nowPlayingItem)
        #expect(item.title == "Four Forty" && item.artist == "The Testers" && item.albumTitle == "Fixtures", "\(item)")
        // The same as the reference client reads.
        #expect(item.title == (try rig.playerctl(["-p", mpv.name, "metadata", "xesam:title"])))
        #expect(item.artist == (try rig.playerctl(["-p", mpv.name, "metadata", "xesam:artist"])))
        let length = try #require(item.playbackDuration)
        #expect(abs(length - 20) < 0.1, "length \(length) s")
        // The position moves with the music (extrapolated between what the player says, and
        // read again every 0.5 s while it plays).
        let (first, from) = (music.currentPlaybackTime, ContinuousClock.now)
        try await Task.sleep(for: .milliseconds(600))
        let (second, to) = (music.currentPlaybackTime, ContinuousClock.now)
        let elapsed = Double((to - from).components.attoseconds) * 1e-18 + Double((to - from).components.seconds)
        #expect(abs((second - first) - elapsed) < 0.25, "\(first) -> \(second) in \(elapsed) s")
        let reference = Double(try rig.playerctl(["-p", mpv.name, "position"])) ?? -1
        #expect(abs(music.currentPlaybackTime - reference) < 0.5, "SoundStage \(music.currentPlaybackTime) s, playerctl \(reference) s")
        #expect(log.wait { if case .playerAppeared = $0 { true } else { false } } != nil)
        #expect(log.wait { $0 == .availabilityChanged(.available) } != nil)
        #expect(log.allOnSessionThread)
    }

    @Test("commands: pause and play heard at the sink, next item, volume and seek as playerctl reads them")
    func commands() async throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "The Testers", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "The Testers", album: "Fixtures")
        let mpv = try rig.mpv([a, b])
        let recording = try rig.record()
        defer { recording.stop() }
        let log = Log()
        let music = SystemMusicPlayer(busAddress: rig.busAddress)
        music.delegate = log
        #expect(await music.ready() == .available)
        let playing = Self.waitForLevel(recording) { $0.dB > -30 && abs($0.hz - 440) < 5 }
        #expect(playing.dB > -30 && abs(playing.hz - 440) < 5, "mpv's music at the sink: \(playing)")

        try await music.perform(.pause)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        let silent = Self.waitForLevel(recording) { $0.dB < -80 }
        #expect(silent.dB < -80, "paused: the sink is silent (\(silent))")
        #expect(log.wait { $0 == .playbackStateChanged(busName: "org.mpris.MediaPlayer2.\(mpv.name)", .paused) } != nil)
        #expect(music.playbackState == .paused)

        try await music.perform(.play)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"))
        let back = Self.waitForLevel(recording) { $0.dB > -30 && abs($0.hz - 440) < 5 }
        #expect(back.dB > -30 && abs(back.hz - 440) < 5, "played again: \(back)")

        try await music.perform(.skipToNextItem)
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "metadata", "xesam:title"], "Six Sixty"))
        let next = Self.waitForLevel(recording) { $0.dB > -30 && abs($0.hz - 660) < 5 }
        #expect(abs(next.hz - 660) < 5, "the next item at the sink: \(next)")
        #expect(log.wait { if case .nowPlayingItemChanged(_, let item) = $0 { item?.title == "Six Sixty" } else { false } } != nil)
        #expect(Poll.until(seconds: 3) { music.nowPlayingItem?.title == "Six Sixty" })

        try await music.perform(.setVolume(0.5))
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "volume"], "0.500000"))
        #expect(Poll.until(seconds: 3) { music.volume == 0.5 })

        try await music.perform(.seek(to: 12))
        let position = Poll.value(seconds: 3) { () -> Double? in
            guard let p = Double((try? rig.playerctl(["-p", mpv.name, "position"])) ?? ""), p >= 11.9 else { return nil }
            return p
        }
        #expect(position.map { $0 < 13.5 } == true, "playerctl reads \(String(describing: position)) s after a seek to 12 s")
        #expect(Poll.until(seconds: 3) { abs(music.currentPlaybackTime - 12.3) < 1 }, "SoundStage reads \(music.currentPlaybackTime) s")

        // Shuffle is read (mpv-mpris reports it on whatever is set: `playerctl shuffle off`
        // and busctl's set-property leave it reading true), so only the repeat mode is driven.
        let shuffle = try rig.playerctl(["-p", mpv.name, "shuffle"])
        #expect(music.shuffleMode == .songs && shuffle == "On")
        try await music.perform(.setRepeatMode(.one))
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "loop"], "Track"))
        #expect(Poll.until(seconds: 3) { music.repeatMode == .one })
        try await music.perform(.setRepeatMode(.all))
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "loop"], "Playlist"))
        #expect(Poll.until(seconds: 3) { music.repeatMode == .all })

        // Bad values are refused before anything is sent.
        await #expect(throws: SoundStageError.self) { try await music.perform(.setVolume(2)) }
        await #expect(throws: SoundStageError.self) { try await music.perform(.seek(to: -1)) }
        // Past the bound (it trapped on the bus thread, converting 1e13 s to microseconds).
        for far in [1e13, 1e300, SystemMusicPlayer.longestPosition.nextUp] {
            await #expect(throws: SoundStageError.self) { try await music.perform(.seek(to: far)) }
        }
        await #expect(throws: SoundStageError.self) { try await music.perform(.play, on: "no-such-player") }
    }

    @Test("two players: the one most recently started is in charge; one killed mid-session leaves the other")
    func twoPlayersAndOneKilled() async throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "B", album: "Fixtures")
        let first = try rig.mpv([a])
        let log = Log()
        let music = SystemMusicPlayer(busAddress: rig.busAddress)
        music.delegate = log
        #expect(await music.ready() == .available)
        let second = try rig.mpv([b], paused: true)
        let secondBus = "org.mpris.MediaPlayer2.\(second.name)", firstBus = "org.mpris.MediaPlayer2.\(first.name)"
        #expect(log.wait { if case .playerAppeared(let p) = $0 { p.busName == secondBus } else { false } } != nil, "\(log.events)")
        #expect(music.players.count == 2)
        #expect(music.currentPlayer?.busName == firstBus, "the paused newcomer is not in charge")
        try rig.playerctl(["-p", second.name, "play"])
        #expect(Poll.until(seconds: 5) { music.currentPlayer?.busName == secondBus }, "the one started last is in charge")
        #expect(music.nowPlayingItem?.title == "Six Sixty")
        // A command with no player named goes to the one in charge.
        try await music.perform(.pause)
        #expect(rig.waitForPlayerctl(["-p", second.name, "status"], "Paused"))
        #expect(try rig.playerctl(["-p", first.name, "status"]) == "Playing")
        // The one in charge is killed: gone, and the other takes over.
        second.process.signal(SIGKILL)
        #expect(log.wait { $0 == .playerVanished(busName: secondBus) } != nil, "\(log.events)")
        #expect(Poll.until(seconds: 5) { music.currentPlayer?.busName == firstBus && music.players.count == 1 })
        #expect(music.nowPlayingItem?.title == "Four Forty")
    }

    @Test("a player that hangs (SIGSTOP) is skipped within the timeout and comes back when it answers again")
    func hungPlayer() async throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "B", album: "Fixtures")
        let stuck = try rig.mpv([a])
        let fine = try rig.mpv([b])
        stuck.process.signal(SIGSTOP)
        let log = Log()
        let started = ContinuousClock.now
        let music = SystemMusicPlayer(busAddress: rig.busAddress, answerTimeout: .milliseconds(300))
        music.delegate = log
        #expect(await music.ready() == .available)
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(2), "the first look waited \(waited) for a hung player (timeout 300 ms)")
        #expect(music.players.map(\.busName) == ["org.mpris.MediaPlayer2.\(fine.name)"], "\(music.players) \(log.events) stuck \(stuck.name) pid \(stuck.process.pid)")
        #expect(log.wait { $0 == .playerNotAnswering(busName: "org.mpris.MediaPlayer2.\(stuck.name)") } != nil, "\(log.events)")
        // A command to it fails within the bound; the game's thread never waits.
        let asked = ContinuousClock.now
        music.pause(stuck.name)   // not in `players`: refused at once
        #expect(ContinuousClock.now - asked < .milliseconds(200))
        // It answers again: heard from, it is back.
        stuck.process.signal(SIGCONT)
        try rig.playerctl(["-p", stuck.name, "pause"])
        #expect(Poll.until(seconds: 5) { music.players.count == 2 }, "\(music.players)")
        #expect(music.players.first { $0.busName.hasSuffix(stuck.name) }?.playbackState == .paused)
    }

    @Test("no session bus: unavailable with the reason, commands refused, nothing hangs")
    func noSessionBus() async throws {
        let started = ContinuousClock.now
        let music = SystemMusicPlayer(busAddress: "unix:path=/nonexistent/soundstage-bus")
        let availability = await music.ready()
        #expect(ContinuousClock.now - started < .seconds(1))
        guard case .unavailable(let reason) = availability else {
            Issue.record("expected unavailable, got \(availability)")
            return
        }
        #expect(reason.contains("cannot connect") || reason.contains("libsystemd"), "\(reason)")
        #expect(music.players.isEmpty && music.currentPlayer == nil && music.playbackState == .stopped)
        do {
            try await music.perform(.play)
            Issue.record("play without a bus did not throw")
        } catch let error as SoundStageError {
            #expect(error.code == .musicPlayerUnavailable && error.reason == reason, "\(error)")
        }
    }

    @Test("soundstage music: lists the player in charge, sends a command, follows the events")
    func tool() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let tool = try #require(ToolRunner.soundstage)
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "The Testers", album: "Fixtures")
        let mpv = try rig.mpv([a])
        let listed = try ToolRunner.run(tool, ["music", "--bus", rig.busAddress])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("* mpv") && listed.stdout.contains("playing") && listed.stdout.contains("Four Forty — The Testers (Fixtures)"),
                "\(listed.stdout)")
        let paused = try ToolRunner.run(tool, ["music", "pause", "--bus", rig.busAddress])
        #expect(paused.status == 0 && paused.stdout.contains("pause done"), "\(paused.stdout) \(paused.stderr)")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        let follow = try ChildProcess(tool, ["music", "--follow", "--seconds", "10", "--bus", rig.busAddress], environment: rig.environment)
        defer { follow.stop() }
        #expect(follow.waitForLine(containing: "availabilityChanged available") != nil, "\(follow.lines)")
        try rig.playerctl(["-p", mpv.name, "play"])
        #expect(follow.waitForLine(containing: "playbackStateChanged org.mpris.MediaPlayer2.\(mpv.name) playing") != nil, "\(follow.lines)")
        let noBus = try ToolRunner.run(tool, ["music", "--bus", "unix:path=/nonexistent/soundstage-bus"])
        #expect(noBus.status == 1 && noBus.stderr.contains("cannot be reached"), "\(noBus.stderr)")
    }
}
