import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The user's music given back as a game's process ends, however it ends: mpv with mpv-mpris
/// on a private bus (``MusicRig``) plays, a game pauses it as its engine joins, and when the
/// process is gone mpv plays again. The games: `soundstage session` ending at its time, on
/// SIGINT and on SIGTERM, and a program that only lets its engine go at the end of main
/// (Tests/MusicAtExit). Before the fix, mpv stayed paused after 8 of 24 such runs of the tool:
/// its Play was queued for the bus thread and the process exited before it was written.
@Suite("AudioSession: the user's music given back as the process ends", .serialized)
struct AudioSessionMusicAtExitTests {
    /// How many runs of each way to end: `SOUNDSTAGE_MUSIC_EXIT_RUNS`, 5 by default (20 runs
    /// in all).
    static let runs = Int(ProcessInfo.processInfo.environment["SOUNDSTAGE_MUSIC_EXIT_RUNS"] ?? "") ?? 5

    enum Ending: String, CaseIterable, CustomStringConvertible {
        case toolEnds, toolInterrupted, toolTerminated, programDropsEngine
        var description: String { rawValue }
    }

    @Test("each way a game ends, run again and again: mpv paused while it plays, playing again by the time the process is gone",
          arguments: Ending.allCases)
    func givenBack(ending: Ending) throws {
        try #require(MusicRig.isInstalled, "mpv, mpv-mpris, playerctl, dbus-daemon, sox or oggenc is missing")
        let rig = try MusicRig()
        defer { rig.stop() }
        let song = try rig.song("song", hz: 330, title: "Song", artist: "Band", album: "Album")
        let (_, name) = try rig.mpv([song])
        #expect(rig.waitForPlayerctl(["-p", name, "status"], "Playing"))
        var environment = rig.environment
        environment["ALSOFT_DRIVERS"] = "pulse"
        var failures: [String] = []
        for run in 1...Self.runs {
            let game: ChildProcess
            switch ending {
            case .programDropsEngine:
                game = try ChildProcess(try #require(ToolRunner.product("MusicAtExit"), "MusicAtExit is built beside the tests"), ["1.5"],
                                        environment: environment)
            case .toolEnds, .toolInterrupted, .toolTerminated:
                game = try ChildProcess(try #require(ToolRunner.soundstage),
                                        ["session", "--category", "soloAmbient", "--tone", "1000", "--seconds", ending == .toolEnds ? "1.5" : "30"],
                                        environment: environment)
            }
            defer { game.stop() }
            guard rig.waitForPlayerctl(["-p", name, "status"], "Paused") else {
                failures.append("run \(run): mpv was not paused while the game played: \(game.lines)")
                continue
            }
            if ending == .toolInterrupted { Thread.sleep(forTimeInterval: 0.5); game.signal(SIGINT) }
            if ending == .toolTerminated { Thread.sleep(forTimeInterval: 0.5); game.signal(SIGTERM) }
            guard Poll.until(seconds: 10, every: 0.005, { !game.isRunning }) else {
                failures.append("run \(run): the game did not end: \(game.lines)")
                continue
            }
            // The process is gone: what it sent has reached mpv (a Play written to the bus is
            // mpv's to take in; 0.3 s for mpv to act on it and answer playerctl).
            if !rig.waitForPlayerctl(["-p", name, "status"], "Playing", seconds: 0.3) {
                failures.append("run \(run): mpv still \((try? rig.playerctl(["-p", name, "status"], check: false)) ?? "?") after the game ended: \(game.lines)")
                try rig.playerctl(["-p", name, "play"])
                _ = rig.waitForPlayerctl(["-p", name, "status"], "Playing")
            }
        }
        print("music given back, \(ending): \(Self.runs - failures.count) of \(Self.runs) runs")
        #expect(failures.isEmpty, "\(failures)")
    }
}
