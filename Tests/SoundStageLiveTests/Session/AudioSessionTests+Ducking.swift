import Foundation
import Testing
import SoundStageTestSupport

/// `duckOthers`: other applications lowered by the set depth while a game's session is active,
/// each given back its exact volume after, also after the game was killed. The game is
/// `soundstage session --duck-others` on a server of the test's own; the other applications
/// are paplay playing tones; what they play is read with pactl and heard at the sink's monitor.
@Suite("AudioSession ducking other applications (duckOthers)", .serialized)
struct AudioSessionDuckingTests {
    /// A server with a sink `apps` (the default) that the other applications and the game play to.
    static func server(_ kind: PrivatePulse.Kind, remembering: Bool = false) throws -> PrivatePulse {
        let pulse = try PrivatePulse(kind)
        do {
            _ = try pulse.addSink("apps")
            _ = try pulse.pactl(["set-default-sink", "apps"])
            // PulseAudio's module that remembers each application's volume for its next stream,
            // as desktops load it (its memory in the server's runtime folder).
            if remembering { #expect(try pulse.pactl(["load-module", "module-stream-restore"]).status == 0) }
        } catch {
            pulse.stop()
            throw error
        }
        return pulse
    }

    /// The level of the 440 Hz tone over the last quarter second at the sink, once it settled
    /// (two quarter seconds in a row within 0.1 dB).
    static func level(_ recording: ChildProcess) -> Double {
        var last = -200.0
        var settled = -200.0
        Poll.until(seconds: 5, every: 0.25) {
            let tail = Array(recording.samples.suffix(12_000))
            guard tail.count == 12_000 else { return false }
            let now = toneDB(tail, frequency: 440, sampleRate: 48_000)
            defer { last = now }
            settled = now
            return abs(now - last) < 0.1
        }
        return settled
    }

    /// The ducking records `game` left in the server's runtime folder (`soundstage/ducked-<id>.json`,
    /// naming its process).
    static func records(_ pulse: PrivatePulse, of game: ChildProcess) -> [String] {
        let folder = pulse.runtime.appendingPathComponent("soundstage")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            guard name.hasPrefix("ducked-"), let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                  let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return (record["pid"] as? Int).map { Int32($0) } == game.pid
        }
    }

    /// The other application most tests lower: paplay's 440 Hz tone as `music` on the sink
    /// `apps`, set to 70 % (a volume not the default, so its exact return means something),
    /// with that volume as read back.
    static func music(_ pulse: PrivatePulse) throws -> (OtherApplication, [UInt32]) {
        let music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        do {
            try music.setVolume(percent: 70)
            return (music, try #require(music.stream?.volume))
        } catch {
            music.stop()
            throw error
        }
    }

    /// Whether two volumes are the same as a server gives them back: pipewire-pulse keeps
    /// volumes as floats, and a stream lowered again from its volume read back may land on a
    /// neighbour of the first lowering.
    static func same(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in max(x, y) - min(x, y) <= max(4, max(x, y) / 2000) }
    }

    /// A volume in dB, as PulseAudio's cubic scale maps it.
    static func dB(_ volume: UInt32) -> Double { 60 * log10(Double(volume) / 65536) }

    @Test("duckOthers lowers other applications by the set depth (pactl, and the sink within 0.5 dB), those that come too, and gives each its exact volume back", arguments: PrivatePulse.Kind.allCases)
    func lowersAndGivesBack(kind: PrivatePulse.Kind) throws {
        try #require(kind.isInstalled, "\(kind) is not installed")
        let pulse = try Self.server(kind)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let recording = try pulse.record("apps", latencyMilliseconds: 20)
        defer { recording.stop() }
        let before = Self.level(recording)
        #expect(before > -20, "the music is heard before the game: \(before) dB")

        let game = try pulse.session(["--category", "playback", "--duck-others", "--ducking-depth", "12"])
        defer { game.stop() }
        #expect(game.waitForLine(containing: "otherAudioDucked(depth: 12.0 dB)") != nil, "\(game.lines)")
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original }, "lowered")
        let lowered = try #require(music.stream?.volume)
        for (was, now) in zip(original, lowered) {
            #expect(abs(Self.dB(now) - Self.dB(was) + 12) < 0.01, "lowered by 12 dB at the server: \(was) -> \(now)")
        }
        let during = Self.level(recording)
        #expect(abs(before - during - 12) < 0.5, "12 dB lower at the sink: \(before) -> \(during) dB")

        // An application that starts while the game plays is lowered too.
        let late = try OtherApplication(pulse, name: "late", hz: 660, sink: "apps")
        defer { late.stop() }
        #expect(Poll.until(seconds: 5, every: 0.02) { (late.stream?.volume.first).map { abs(Self.dB($0) + 12) < 0.01 } ?? false },
                "the late one lowered from 100 %: \(String(describing: late.stream))")

        game.signal(SIGINT)
        #expect(Poll.until(seconds: 5, every: 0.02) { !game.isRunning } && game.ending == "exit 0", "\(game.ending) \(game.lines)")
        let restored = game.lines.first { $0.contains("otherAudioRestored(") } ?? ""
        #expect(restored.contains("music") && restored.contains("late"), "the session says what it gave back: \(game.lines)")
        #expect(music.stream?.volume == original, "the exact volume back: \(String(describing: music.stream)) against \(original)")
        #expect(late.stream?.volume.allSatisfy { $0 == 65536 } == true, "\(String(describing: late.stream))")
        let after = Self.level(recording)
        #expect(abs(after - before) < 0.5, "heard as before: \(before) -> \(after) dB")
        #expect(Self.records(pulse, of: game).isEmpty, "no record left")
    }

    @Test("a stream the user changed while lowered is left as they set it; a call is not lowered")
    func userChangeIsKept() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio)
        defer { pulse.stop() }
        let music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        defer { music.stop() }
        let video = try OtherApplication(pulse, name: "video", hz: 550, sink: "apps")
        defer { video.stop() }
        try music.setVolume(percent: 70)
        try video.setVolume(percent: 90)
        let original = try #require(video.stream?.volume)
        // `ambient`: a call does not interrupt it, so the call plays beside the game, not lowered.
        let game = try pulse.session(["--category", "ambient", "--duck-others"])
        defer { game.stop() }
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume.first != 45875 && video.stream?.volume != original })
        let call = try OtherApplication(pulse, name: "call", hz: 330, sink: "apps", properties: ["media.role": "phone"])
        defer { call.stop() }
        try music.setVolume(percent: 40)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(call.stream?.volume.allSatisfy { $0 == 65536 } == true, "a call is never lowered: \(String(describing: call.stream))")
        game.stop()
        #expect(game.ending == "exit 0", "\(game.ending) \(game.lines)")
        #expect(video.waitForVolume(original[0]), "the untouched one back: \(String(describing: video.stream))")
        #expect(music.stream?.volume.allSatisfy { $0 == 26214 } == true, "the user's 40 % kept: \(String(describing: music.stream))")
    }

    @Test("the server remembers the volume from before for an application whose stream went, or came again, while lowered (PulseAudio's module-stream-restore, WirePlumber)",
          arguments: PrivatePulse.Kind.allCases)
    func rememberedVolumes(kind: PrivatePulse.Kind) throws {
        try #require(kind.isInstalled, "\(kind) is not installed")
        let pulse = try Self.server(kind, remembering: kind == .pulseaudio)
        defer { pulse.stop() }
        var music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        try music.setVolume(percent: 70)
        let player = try OtherApplication(pulse, name: "player", hz: 550, sink: "apps")
        try player.setVolume(percent: 80)
        let (musicVolume, playerVolume) = (try #require(music.stream?.volume), try #require(player.stream?.volume))
        let game = try pulse.session(["--category", "playback", "--duck-others"])
        defer { game.stop() }
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != musicVolume && player.stream?.volume != playerVolume })
        // The music's next track is a new stream: the server starts it at the lowered volume it
        // remembered; it stays lowered, not lowered twice.
        let lowered = try #require(music.stream?.volume)
        // WirePlumber keeps what it remembers a moment after a change (measured: by 1.5 s).
        if kind == .pipewire { Thread.sleep(forTimeInterval: 1.5) }
        music.stop()
        music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        defer { music.stop() }
        #expect(Poll.until(seconds: 3, every: 0.02) { music.stream?.volume == lowered }, "\(String(describing: music.stream)) against \(lowered)")
        // The player quits while lowered.
        player.stop()
        game.stop()
        #expect(game.ending == "exit 0", "\(game.ending) \(game.lines)")
        #expect(music.waitForVolume(musicVolume[0]), "the new stream gets the volume from before: \(String(describing: music.stream))")
        let again = try OtherApplication(pulse, name: "player", hz: 550, sink: "apps")
        defer { again.stop() }
        #expect(Poll.until(seconds: 3, every: 0.02) { again.stream?.volume == playerVolume },
                "the player starts again at its 80 %: \(String(describing: again.stream))")
    }

    @Test("a game killed while lowering: the next session gives back the exact volumes and what the server remembers", arguments: PrivatePulse.Kind.allCases)
    func killedGame(kind: PrivatePulse.Kind) throws {
        try #require(kind.isInstalled, "\(kind) is not installed")
        let pulse = try Self.server(kind, remembering: kind == .pulseaudio)
        defer { pulse.stop() }
        let music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        defer { music.stop() }
        try music.setVolume(percent: 70)
        let player = try OtherApplication(pulse, name: "player", hz: 550, sink: "apps")
        try player.setVolume(percent: 80)
        let (musicVolume, playerVolume) = (try #require(music.stream?.volume), try #require(player.stream?.volume))
        let game = try pulse.session(["--category", "playback", "--duck-others", "--ducking-depth", "20"])
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != musicVolume && player.stream?.volume != playerVolume })
        #expect(Poll.until(seconds: 2, every: 0.02) { !Self.records(pulse, of: game).isEmpty }, "recorded while lowered")
        game.signal(SIGKILL)
        #expect(Poll.until(seconds: 5, every: 0.02) { !game.isRunning })
        Thread.sleep(forTimeInterval: 0.3)
        #expect(music.stream.map { abs(Self.dB($0.volume[0]) - Self.dB(musicVolume[0]) + 20) < 0.01 } == true, "still lowered after the kill")
        // The player quits after the kill: the server remembers its lowered volume.
        player.stop()

        // The next game (any session that watches the server) gives it back.
        let next = try pulse.session(["--seconds", "1.5"])
        defer { next.stop() }
        #expect(music.waitForVolume(musicVolume[0]), "the exact volume back: \(String(describing: music.stream))")
        #expect(Poll.until(seconds: 3, every: 0.02) { Self.records(pulse, of: game).isEmpty }, "the record is gone")
        #expect(Poll.until(seconds: 5, every: 0.02) { !next.isRunning } && next.ending == "exit 0", "\(next.ending) \(next.lines)")
        let again = try OtherApplication(pulse, name: "player", hz: 550, sink: "apps")
        defer { again.stop() }
        // PipeWire (WirePlumber) remembers a stream's volume only some time after it is set;
        // measured on PulseAudio's module-stream-restore.
        if kind == .pulseaudio {
            #expect(again.stream?.volume == playerVolume, "the player starts again at its 80 %: \(String(describing: again.stream))")
        }
    }

    @Test("a game killed while lowering, and the next game ducks too: lowered once, not twice, and the exact volume back after it")
    func killedThenDuckingAgain() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let first = try pulse.session(["--category", "playback", "--duck-others"])
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original })
        let lowered = try #require(music.stream?.volume)
        first.signal(SIGKILL)
        #expect(Poll.until(seconds: 5, every: 0.02) { !first.isRunning })
        let second = try pulse.session(["--category", "playback", "--duck-others"])
        defer { second.stop() }
        #expect(second.waitForLine(containing: "otherAudioDucked") != nil, "\(second.lines)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(music.stream?.volume == lowered, "lowered once: \(String(describing: music.stream)) against \(lowered)")
        second.stop()
        #expect(second.ending == "exit 0", "\(second.ending) \(second.lines)")
        #expect(music.waitForVolume(original[0]), "the volume from before the first game: \(String(describing: music.stream))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pulse.runtime.appendingPathComponent("soundstage").path)
                    .filter { $0.hasSuffix(".json") }.isEmpty, "no record left")
    }

    @Test("two games ducking at once: lowered once; whichever ends first, stopped or killed, the exact volume is back when both have",
          arguments: PrivatePulse.Kind.allCases, [(true, false), (false, false), (true, true), (false, true)])
    func twoGames(kind: PrivatePulse.Kind, order: (firstEndsFirst: Bool, killed: Bool)) throws {
        try #require(kind.isInstalled, "\(kind) is not installed")
        let pulse = try Self.server(kind)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let first = try pulse.session(["--category", "playback", "--duck-others"])
        defer { first.stop() }
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original })
        #expect(Poll.until(seconds: 2, every: 0.02) { !Self.records(pulse, of: first).isEmpty }, "the first recorded what it lowered")
        let lowered = try #require(music.stream?.volume)
        let second = try pulse.session(["--category", "playback", "--duck-others"])
        defer { second.stop() }
        #expect(second.waitForLine(containing: "otherAudioDucked") != nil, "\(second.lines)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(music.stream?.volume == lowered, "lowered once: \(String(describing: music.stream)) against \(lowered)")
        let (a, b) = order.firstEndsFirst ? (first, second) : (second, first)
        if order.killed {
            a.signal(SIGKILL)
            #expect(Poll.until(seconds: 5, every: 0.02) { !a.isRunning })
            Thread.sleep(forTimeInterval: 0.5)
        } else {
            a.stop()
            #expect(a.ending == "exit 0", "\(a.ending) \(a.lines)")
            if order.firstEndsFirst {
                // The first gave it back while the second still ducks: the second lowers it now.
                #expect(Poll.until(seconds: 3, every: 0.02) { music.stream.map { Self.same($0.volume, lowered) } == true },
                        "taken on: \(String(describing: music.stream))")
            }
        }
        #expect(music.stream.map { Self.same($0.volume, lowered) } == true,
                "lowered while one game still ducks: \(String(describing: music.stream)) against \(lowered)")
        // A terminal closed (SIGHUP) ends the tool as Ctrl-C does.
        b.signal(SIGHUP)
        #expect(Poll.until(seconds: 5, every: 0.02) { !b.isRunning })
        #expect(b.ending == "exit 0", "\(b.ending) \(b.lines)")
        #expect(music.waitForVolume(original[0]), "the volume from before, with no other session: \(String(describing: music.stream)) \(b.lines)")
        #expect(Self.records(pulse, of: first).isEmpty && Self.records(pulse, of: second).isEmpty, "no record left")
    }

    @Test("the game stopped while the server is down: the record stays, and the next session puts right what the server remembers")
    func stoppedDuringOutage() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio, remembering: true)
        defer { pulse.stop() }
        let music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        try music.setVolume(percent: 70)
        let original = try #require(music.stream?.volume)
        let game = try pulse.session(["--category", "playback", "--duck-others"])
        defer { game.stop() }
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original })
        let folder = pulse.runtime.appendingPathComponent("soundstage")
        try pulse.kill()
        music.stop()
        game.stop()
        #expect(game.ending == "exit 0", "\(game.ending) \(game.lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasSuffix(".json") },
                "the record is kept for the server's return")
        try pulse.start()
        _ = try pulse.addSink("apps")
        #expect(try pulse.pactl(["load-module", "module-stream-restore"]).status == 0)
        let next = try pulse.session(["--seconds", "1"])
        defer { next.stop() }
        #expect(Poll.until(seconds: 5, every: 0.05) { !next.isRunning }, "\(next.lines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.isEmpty, "the record is gone")
        let again = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        defer { again.stop() }
        #expect(again.stream?.volume == original, "the music starts again at its 70 %: \(String(describing: again.stream))")
    }

    @Test("a game killed, the server started again, the music's new stream at the lowered volume it remembered: the next session gives it back")
    func killedThenServerRestarted() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio, remembering: true)
        defer { pulse.stop() }
        var music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        try music.setVolume(percent: 70)
        let original = try #require(music.stream?.volume)
        let game = try pulse.session(["--category", "playback", "--duck-others"])
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original })
        let lowered = try #require(music.stream?.volume)
        game.signal(SIGKILL)
        #expect(Poll.until(seconds: 5, every: 0.02) { !game.isRunning })
        music.stop()
        try pulse.kill()
        try pulse.start()
        _ = try pulse.addSink("apps")
        #expect(try pulse.pactl(["load-module", "module-stream-restore"]).status == 0)
        music = try OtherApplication(pulse, name: "music", hz: 440, sink: "apps")
        defer { music.stop() }
        #expect(music.stream?.volume == lowered, "the server remembered the lowered volume: \(String(describing: music.stream))")
        let next = try pulse.session(["--seconds", "1"])
        defer { next.stop() }
        #expect(music.waitForVolume(original[0]), "given back: \(String(describing: music.stream))")
    }

    @Test("without XDG_RUNTIME_DIR the record is kept in the temporary folder, and a killed game's volumes still come back")
    func noRuntimeFolder() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let temporary = pulse.runtime.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let environment = ["XDG_RUNTIME_DIR": "", "TMPDIR": temporary.path]
        let game = try pulse.session(["--category", "playback", "--duck-others"], environment: environment)
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original })
        let folder = temporary.appendingPathComponent("soundstage-\(getuid())")
        #expect(Poll.until(seconds: 2, every: 0.02) { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { $0.hasSuffix(".json") } },
                "recorded in \(folder.path)")
        game.signal(SIGKILL)
        #expect(Poll.until(seconds: 5, every: 0.02) { !game.isRunning })
        let next = try pulse.session(["--seconds", "1"], environment: environment)
        defer { next.stop() }
        #expect(music.waitForVolume(original[0]), "given back: \(String(describing: music.stream))")
    }
}
