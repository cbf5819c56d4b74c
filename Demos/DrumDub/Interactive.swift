import CTerminalGuard
import Foundation
import SoundStage

/// The game in the terminal: the engine plays on the default output at a low latency, stepping
/// back to a safer one when the machine does not hold it, the loop reads keys (waiting 10 ms at most), hands the session's and the
/// engine's events to the game, plays the groove's due hits and redraws up to 100 times a
/// second, and at once after a key.
enum Interactive {
    /// How often the screen is drawn: every turn of the loop (it waits 10 ms at most for a
    /// key), so a meter shows a drum within a tick of the engine mixing it. Curses sends only
    /// the cells that changed.
    static let frameSeconds = 1.0 / 100

    static func run(_ options: Options) throws {
        guard isatty(0) == 1, isatty(1) == 1 else { throw CursesTerminal.NotATerminal() }
        let (engine, game, inbox) = try start(options, service: .thread())
        defer { engine.shutdown() }
        game.say(game.desktop?.currentPlayer.map { "welcome: drumming along with \($0.identity); bang the drums with 1-4" }
                 ?? "welcome: bang the drums with 1-4, walk with the arrows (the keys are on the right)")

        let terminal = try CursesTerminal(log: options.log)
        let log = terminal.log
        defer { terminal.close() }
        var lastDraw = -Double.infinity
        var quitSignal: Int32 = 0
        loop: while true {
            quitSignal = dd_guard_take_quit_signal()
            if quitSignal != 0 { break }
            let key = terminal.readKey()
            let now = engine.currentTime
            if let key {
                if CursesTerminal.isResize(key) {
                    lastDraw = -.infinity
                } else if let action = CursesTerminal.action(for: key) {
                    switch action {
                    case .quit: break loop
                    case .suspend: suspend(terminal)
                    default:
                        do { try game.perform(action, at: now) } catch { game.say("\(error)", alert: true) }
                    }
                }
            }
            for event in inbox.take() {
                game.handle(event, at: now)
                // Stopped from outside (kill -TSTP) and continued: the screen needs painting again.
                if case .session(.interruptionEnded) = event { terminal.repaint() }
            }
            do { try game.tick(at: now) } catch { game.say("\(error)", alert: true) }
            // A key is drawn at once, not at the next frame: the screen answers it as soon as
            // the drum sounds.
            if key != nil || now - lastDraw >= frameSeconds {
                terminal.show(Screen.draw(game.snapshot(at: now)))
                lastDraw = now
            }
        }
        terminal.close()
        var info = stat()
        let logged = lstat(log, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        if logged > 0 {
            print("drumdub: what the audio libraries said while the game ran is in \(log)")
        } else if options.log == nil {
            try? FileManager.default.removeItem(atPath: log)
        }
        print("drumdub: bye")
        // Ended by a signal (kill -TERM, a closed terminal): say so in the exit status.
        if quitSignal != 0 { exit(128 + quitSignal) }
    }

    /// What the terminal game and the window share as they start: the session (playback,
    /// mixing with the user's music), the engine on the default output at the mode asked, the
    /// game, and the inbox the session's and the engine's events reach the loop by. With a
    /// music player on the session bus the drums play along with it; without one, the game
    /// plays its own loop. The caller shuts the engine down.
    static func start(_ options: Options, service: AudioEngine.Service) throws -> (AudioEngine, Game, Inbox) {
        let assets = try Assets.find(options.assets)
        // Sound that is the point of the app: calls interrupt it, a lost output pauses it. The
        // drums play over the user's own music, so the desktop's player is left playing.
        try AudioSession.shared.setCategory(.playback, options: .mixWithOthers)
        // The session's delegate before the engine joins it: what the session says as it starts
        // watching (no system bus here, say) comes then, and would otherwise be missed.
        let inbox = Inbox()
        AudioSession.shared.delegate = inbox
        // A drum game is judged on how soon a drum sounds: a low latency (`--latency`, `.low` by
        // default), and the engine steps back to a safer mode when the machine does not hold it.
        let engine = try QuietOpen.run {
            try AudioEngine(attributes: ContextAttributes(hrtf: options.hrtf ? .on : .off, latency: options.latency), service: service)
        }
        do {
            inbox.listen(to: engine)
            let game = try Game(engine: engine, assets: assets)
            // The desktop's music: with a player on the session bus, the drums play along with
            // it (p, n and +- drive it). Its first look at the bus takes milliseconds; a bus
            // that does not answer is not waited on past 1 s.
            let desktop = SystemMusicPlayer.shared
            let deadline = ContinuousClock.now + .seconds(1)
            while case .connecting = desktop.availability, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if desktop.currentPlayer != nil { game.desktop = desktop }
            try game.start()
            return (engine, game, inbox)
        } catch {
            engine.shutdown()
            throw error
        }
    }

    /// Ctrl-Z: the terminal is given back, and the process stops itself with SIGTSTP, which
    /// the audio session catches: it pauses the output (an interruption) before the process
    /// stops, and resumes it on `fg` (SIGCONT). The game's screen comes back after.
    static func suspend(_ terminal: CursesTerminal) {
        terminal.leave()
        FileHandle.standardOutput.write(Data("drumdub: suspended, the audio paused; fg brings the game back\n".utf8))
        // The whole process group, as the terminal's Ctrl-Z would: under a wrapper script
        // (scripts/demo.sh) the shell then sees its job stopped and gives the prompt back.
        kill(0, SIGTSTP)
        // Until the session has seen the stop and the continue (or, where SIGTSTP is ignored,
        // with no job control, for a moment).
        let session = AudioSession.shared
        let began = ContinuousClock.now
        while !session.interruptions.contains(.processSuspended), ContinuousClock.now - began < .seconds(1) {
            Thread.sleep(forTimeInterval: 0.005)
        }
        while session.interruptions.contains(.processSuspended) { Thread.sleep(forTimeInterval: 0.005) }
        terminal.repaint()
    }
}
