import ArgumentParser
import Foundation
import SoundStage

struct Music: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the desktop's music players (MPRIS) and what they play; play, pause or skip; follow their events.",
        discussion: """
        With no action: one line per MPRIS player on the session bus (`*` marks the one in charge, \
        the one that most recently started playing), then, with --follow, one line per event as it \
        happens until Ctrl-C or --seconds. An action (play, pause, toggle, stop, next, previous) goes to \
        the player in charge, or to --player (a bus name or a name such as `mpv`).
        """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case play, pause, toggle, stop, next, previous

        var command: MusicCommand {
            switch self {
            case .play: .play
            case .pause: .pause
            case .toggle: .togglePlayPause
            case .stop: .stop
            case .next: .skipToNextItem
            case .previous: .skipToPreviousItem
            }
        }
    }

    @Argument(help: "What to ask the player: \(Action.allCases.map(\.rawValue).joined(separator: ", ")).")
    var action: Action?

    @Option(help: "The player to ask (its bus name, or a name such as mpv); default: the one in charge.")
    var player: String?

    @Flag(help: "After listing the players, print their events as they happen.")
    var follow = false

    @Option(help: "With --follow: stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Option(help: "A D-Bus address to use rather than the user's session bus.")
    var bus: String?

    @Option(help: "How long a player has to answer, in milliseconds.")
    var timeout: Int = 500

    func run() async throws {
        guard timeout > 0 else { fail("--timeout takes milliseconds above 0, got \(timeout)") }
        if let seconds, !(seconds.isFinite && seconds > 0 && seconds <= 86_400) { fail("--seconds takes a time above 0, up to a day, got \(seconds)") }
        let music = SystemMusicPlayer(busAddress: bus, answerTimeout: .milliseconds(timeout))
        // Subscribed first, so that nothing between the listing and the follow is lost.
        let events = music.events()
        let availability = await music.ready()
        if case .unavailable(let reason) = availability { fail("the music players cannot be reached: \(reason)") }
        if let action {
            do {
                try await music.perform(action.command, on: player)
            } catch {
                fail("\(error)")
            }
            let target = player ?? music.currentPlayer?.identity ?? "the player"
            say("\(target): \(action.rawValue) done")
            return
        }
        printPlayers(music)
        guard follow else { return }
        let stop = Stopper()
        for signal in [SIGINT, SIGTERM, SIGHUP] { stop.watch(signal) }
        let start = ContinuousClock.now
        let printer = Task {
            for await event in events {
                let elapsed = ContinuousClock.now - start
                let ms = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) * 1e-15
                FileHandle.standardOutput.write(Data((String(format: "%8.1f ms  ", ms) + "\(event)\n").utf8))
            }
        }
        let deadline = seconds.map { start + .milliseconds(Int($0 * 1_000)) }
        while !stop.asked, deadline.map({ ContinuousClock.now < $0 }) ?? true {
            try? await Task.sleep(for: .milliseconds(20))
        }
        printer.cancel()
    }

    /// One line per player: the one in charge marked, its state, item, position and volume.
    private func printPlayers(_ music: SystemMusicPlayer) {
        let players = music.players
        guard !players.isEmpty else {
            say("no MPRIS player on the session bus")
            return
        }
        let current = music.currentPlayer?.busName
        for p in players {
            var line = (p.busName == current ? "* " : "  ") + p.identity.padding(toLength: max(12, p.identity.count), withPad: " ", startingAt: 0)
            line += "  " + p.playbackState.description.padding(toLength: 8, withPad: " ", startingAt: 0)
            line += "  " + (p.nowPlayingItem.map(\.description) ?? "nothing loaded")
            let time = Self.clock(p.currentPlaybackTime)
            line += "  " + (p.nowPlayingItem?.playbackDuration.map { "\(time) / \(Self.clock($0))" } ?? time)
            if let v = p.volume { line += String(format: "  volume %.2f", v) }
            line += "  (\(p.busName))"
            say(line)
        }
    }

    /// Writes a line on standard output at once (the events' lines are written the same way).
    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    private static func clock(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
