import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

extension DrumDubGameTests {
    @Test("with a desktop music player (mpv, MPRIS) the game plays along with it: its line on screen, p, n and i drive it, its own loop silent")
    func desktopMusic() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let b = try rig.song("b", hz: 660, title: "Six Sixty", artist: "A", album: "Fixtures")
        let mpv = try rig.mpv([a, b])
        let game = try DrumDubGame(environment: ["DBUS_SESSION_BUS_ADDRESS": rig.busAddress])
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
        try game.press("q")
        #expect(game.terminal.waitFor("drumdub: bye"))
        #expect(try rig.playerctl(["-p", mpv.name, "status"]) == "Playing", "the game leaves the desktop's music playing")
    }
}
