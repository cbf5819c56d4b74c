import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

extension DrumDubGameTests {
    @Test("with a desktop music player (mpv, MPRIS) the game plays along with it: its line on screen, p, n and i drive it, its own loop silent; a real call pauses it and its end resumes it")
    func desktopMusic() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "A", album: "Fixtures")
        let mpv = try rig.mpv([a, b])
        let game = try DrumDubGame(sinks: ["game", "phone"], environment: ["DBUS_SESSION_BUS_ADDRESS": rig.busAddress])
        defer { game.stop() }
        #expect(game.terminal.waitFor("drumming along with mpv"), "\(game.terminal.screen)")
        #expect(game.terminal.waitFor("mpv playing"), "\(game.terminal.screen)")
        #expect(game.terminal.screen.contains("Four Forty"), "\(game.terminal.screen)")
        // Its own loop does not play: the game's sink stays silent (no drum banged).
        let recording = try game.pulse.record("game", latencyMilliseconds: 10)
        defer { recording.stop() }
        recording.waitForFrames(48_000)
        #expect(Measure.dB(Array(recording.samples.suffix(24_000))) < -80, "the game's own music is not playing")

        try game.press("p")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"))
        #expect(game.terminal.waitFor("mpv paused"), "\(game.terminal.screen)")
        try game.press("p")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"))
        try game.press("n")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "metadata", "xesam:title"], "Six Sixty"))
        #expect(game.terminal.waitFor("Six Sixty"), "\(game.terminal.screen)")
        // The game's own interruption (as a call) pauses the desktop's music; its end resumes it.
        try game.press("i")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "\(game.terminal.screen)")
        try game.press("i")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "\(game.terminal.screen)")
        // A real call (a phone stream on the game's server) interrupts both: the desktop's music
        // is silent at its sink during it, and both come back after it.
        let music = try rig.record()
        defer { music.stop() }
        #expect(DrumDubGame.waitForSound(music), "mpv is heard before the call")
        let call = game.folder.file("call.wav")
        try RecordingRig.tone(call, frequency: 700, seconds: 2)
        let paplay = try ChildProcess(try #require(ToolRunner.which("paplay")), ["--device=phone", "--property=media.role=phone", call.path],
                                      environment: game.pulse.environment)
        defer { paplay.stop() }
        #expect(game.terminal.waitFor("INTERRUPTED by a call"), "\(game.terminal.screen)")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused"), "the call pauses the desktop's music")
        #expect(DrumDubGame.waitForQuiet(music, after: music.frames()), "mpv is silent during the call")
        #expect(game.terminal.waitFor("interruption over"), "\(game.terminal.screen)")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"), "the call's end resumes it")
        #expect(DrumDubGame.waitForSound(music), "mpv is heard again")
        try game.press("q")
        #expect(game.terminal.waitFor("drumdub: bye"))
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Playing", "the game leaves the desktop's music playing")
    }
}
