import Foundation
import Testing
import SoundStageTestSupport

extension AudioSessionDuckingTests {
    /// A record as a forger would write it for `music`'s stream on `pulse`: the server's address
    /// and cookie (`pactl info` shows it to anyone on the server), the stream's index and its
    /// volume now as the lowered one, and 0x7FFFFFFF (about +90 dB) as its volume from before.
    static func forgedRecord(_ pulse: PrivatePulse, music: OtherApplication.Stream) throws -> Data {
        let info = try pulse.pactl(["info"]).stdout
        let cookie = try #require(info.firstMatch(of: /Cookie: ([0-9a-f]{4}):([0-9a-f]{4})/), "\(info)")
        let record: [String: Any] = [
            "pid": 1, "server": pulse.environment["PULSE_SERVER"]!, "cookie": (UInt32(cookie.1, radix: 16)! << 16) | UInt32(cookie.2, radix: 16)!,
            "streams": [["index": music.index, "application": "music", "restoreID": "sink-input-by-application-name:music",
                         "original": music.volume.map { _ in 0x7FFF_FFFF }, "lowered": music.volume, "confirmed": true]],
        ]
        return try JSONSerialization.data(withJSONObject: record)
    }

    @Test("without XDG_RUNTIME_DIR, the temporary folder's records folder made first by another user (uid 65534, mode 0777) with a forged record in it: the session says so, leaves the record, and the music's volume stays",
          .enabled(if: getuid() == 0, "needs root to give a folder to another user"))
    func plantedRecordIgnored() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let temporary = pulse.runtime.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let folder = temporary.appendingPathComponent("soundstage-\(getuid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let planted = folder.appendingPathComponent("ducked-forged.json")
        try Self.forgedRecord(pulse, music: try #require(music.stream)).write(to: planted)
        #expect(chmod(folder.path, 0o777) == 0 && chown(folder.path, 65_534, 65_534) == 0 && chown(planted.path, 65_534, 65_534) == 0)
        let game = try pulse.session(["--seconds", "1"], environment: ["XDG_RUNTIME_DIR": "", "TMPDIR": temporary.path])
        defer { game.stop() }
        #expect(game.waitForLine(containing: "watcherUnavailable(ducking records") != nil, "\(game.lines)")
        #expect(Poll.until(seconds: 5) { !game.isRunning })
        #expect(FileManager.default.fileExists(atPath: planted.path), "the planted record is left where it was")
        #expect(music.stream?.volume == original, "\(String(describing: music.stream)), \(original) before")
    }

    @Test("a record in this user's own folder that claims a volume from before of 0x7FFFFFFF (about +90 dB): the stream comes back at 100 %, not above")
    func recordHeldTo100Percent() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try Self.server(.pulseaudio)
        defer { pulse.stop() }
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let folder = pulse.runtime.appendingPathComponent("soundstage")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try Self.forgedRecord(pulse, music: try #require(music.stream)).write(to: folder.appendingPathComponent("ducked-forged.json"))
        let game = try pulse.session(["--seconds", "1"])
        defer { game.stop() }
        #expect(music.waitForVolume(0x10000), "at 100 %: \(String(describing: music.stream)), \(original) before")
        #expect(Poll.until(seconds: 5) { !game.isRunning })
        #expect(music.stream?.volume.allSatisfy { $0 <= 0x10000 } == true, "\(String(describing: music.stream))")
    }
}
