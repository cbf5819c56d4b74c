import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

extension SystemMusicPlayerTests {
    @Test("a track titled with escape sequences (a terminal title change, an OSC 52 clipboard write, a screen clear) and 10 KB long: soundstage music prints it without a control character, the title kept to 4 KB")
    func hostileTitle() throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let tool = try #require(ToolRunner.soundstage)
        let rig = try MusicRig()
        defer { rig.stop() }
        let title = "Owned\u{1B}]0;pwned\u{07}\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{1B}[2J" + String(repeating: "x", count: 10_000)
        let song = try rig.song("hostile", hz: 440, title: title, artist: "Mallory", album: "Escapes")
        _ = try rig.mpv([song])
        #expect(rig.waitForPlayerctl(["metadata", "xesam:artist"], "Mallory"), "mpv announced the track")
        let listed = try ToolRunner.run(tool, ["music", "--bus", rig.busAddress])
        #expect(listed.status == 0, "\(listed.stderr)")
        let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("Owned") }, "\(listed.stdout.prefix(500))")
        #expect(!listed.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                "no control character printed: \(listed.stdout.debugDescription.prefix(300))")
        #expect(line.contains("Owned]0;pwned]52;c;cm0gLXJmIH4=[2J"), "\(line.prefix(200))")
        #expect(line.utf8.count < 4_096 + 200, "the title kept to 4 KB: a line of \(line.utf8.count) bytes")
    }
}
