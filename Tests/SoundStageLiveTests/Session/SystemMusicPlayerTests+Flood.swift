import Foundation
import Synchronization
import Testing
import SoundStage
import SoundStageTestSupport

extension SystemMusicPlayerTests {
    /// Resident memory of process `pid` in bytes (`/proc/PID/statm`'s second field, in pages).
    static func residentBytes(_ pid: pid_t) -> Int {
        let statm = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8)) ?? ""
        return (statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test("a peer flooding the bus with PlaybackStatus changes (an MPRIS name that answers nothing) beside mpv: a pause reaches mpv within 1 s, and what SoundStage asks the flooder stays bounded (the bus's memory and this process's)")
    func flood() async throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let a = try rig.song("a", hz: 440, title: "Four Forty", artist: "A", album: "Fixtures")
        let mpv = try rig.mpv([a])
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Playing"))
        let music = SystemMusicPlayer(busAddress: rig.busAddress, answerTimeout: .milliseconds(300))
        #expect(await music.ready() == .available)
        let flooder = try MPRISFlood(address: rig.busAddress)
        let busBefore = Self.residentBytes(rig.bus), ownBefore = Self.residentBytes(getpid())
        let sent = Mutex<Result<Int, any Error>?>(nil)
        let seconds = 5.0
        Thread { sent.withLock { $0 = Result { try flooder.flood(seconds: seconds) } } }.start()
        try await Task.sleep(for: .seconds(2))   // the scenario: 2 s into the flood
        let asked = ContinuousClock.now
        var refused: (any Error)?
        do { try await music.perform(.pause, on: mpv.name) } catch { refused = error }
        #expect(refused == nil, "the pause: \(String(describing: refused))")
        #expect(rig.waitForPlayerctl(["-p", mpv.name, "status"], "Paused", seconds: 1), "mpv paused within 1 s of the command")
        let answered = ContinuousClock.now - asked
        #expect(Poll.until(seconds: 10) { sent.withLock { $0 != nil } })
        let count = try sent.withLock { try $0?.get() } ?? 0
        // What the bus and this process hold once the flood is over and the asking has had
        // its timeout (300 ms) to end.
        try await Task.sleep(for: .seconds(1))
        let busGrew = Self.residentBytes(rig.bus) - busBefore, ownGrew = Self.residentBytes(getpid()) - ownBefore
        print("MPRIS flood: \(count) PropertiesChanged in \(seconds) s (\(Int(Double(count) / seconds)) a second); pause carried out in \(answered); the bus grew \(busGrew / 1_000_000) MB, this process \(ownGrew / 1_000_000) MB; players \(music.players.map(\.busName))")
        #expect(count > 10_000, "the flood: \(count) signals")
        #expect(answered < .seconds(1))
        #expect(busGrew < 50_000_000, "the bus's dbus-daemon grew \(busGrew) bytes")
        #expect(ownGrew < 50_000_000, "this process grew \(ownGrew) bytes")
        #expect(!music.players.contains { $0.busName == MPRISFlood.busName }, "the flooder answers nothing: it is not a player SoundStage lists")
    }
}
