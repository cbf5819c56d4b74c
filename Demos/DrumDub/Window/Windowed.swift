import Foundation
import SoundStage
import Synchronization

/// The game in an SDL2 window, as a game embeds SoundStage: its frame loop (60 a second) reads
/// the window's input, hands the session's and the engine's events to the game, drives the
/// engine (``AudioEngine/Service/manual(tick:)``: the loop calls ``AudioEngine/update()``
/// every frame), puts the listener where the player is drawn, and draws (at once after input,
/// else 30 times a second). Losing focus follows `--focus`; the window closed, Esc, q, Ctrl-C
/// or SIGTERM end it cleanly.
enum Windowed {
    static let frameSeconds = 1.0 / 60
    /// How often the window is drawn when no input came.
    static let drawSeconds = 1.0 / 30

    /// The quit signals (SIGINT, SIGTERM, SIGHUP) seen, read by the loop.
    private static let quitSignal = Atomic<Int32>(0)

    static func run(_ options: Options) throws {
        try play(options)
        print("drumdub: bye")
        fflush(nil)
        // Ended by a signal: say so in the exit status (after the engine and the window closed).
        let signalled = quitSignal.load(ordering: .relaxed)
        if signalled != 0 { exit(128 + signalled) }
    }

    private static func play(_ options: Options) throws {
        // The window first: without a display or SDL2 nothing else is started.
        let window = try SDLWindow(title: "drumdub", width: options.windowSize.width, height: options.windowSize.height)
        defer { window.close() }
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { quitSignal.store(number, ordering: .relaxed) }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        let (engine, game, inbox) = try Interactive.start(options, service: .manual(tick: frameSeconds))
        defer { engine.shutdown() }
        game.say("welcome: click a drum or press 1-4; click the floor to walk there, the wheel turns you")
        print("drumdub: the game is in its window (\(options.windowSize.width) x \(options.windowSize.height), SDL's \(window.driver) driver); Esc, q or closing the window ends it")
        fflush(nil)

        var view = WindowView(width: window.size.width, height: window.size.height)
        var focused = true
        var next = ContinuousClock.now
        var lastDraw = -Double.infinity
        loop: while quitSignal.load(ordering: .relaxed) == 0 {
            let now = engine.currentTime
            let inputs = window.input()
            for input in inputs {
                switch input {
                case .close: break loop
                case .key(let name):
                    guard let action = Action(key: name) else { continue }
                    switch action {
                    case .quit: break loop
                    case .suspend: continue   // Ctrl-Z belongs to the terminal the game was started from
                    default: attempt(game) { try game.perform(action, at: now) }
                    }
                case .click(let x, let y):
                    if let drum = view.drum(at: x, y) {
                        attempt(game) { try game.perform(.bang(drum), at: now) }
                    } else if let point = view.position(at: x, y) {
                        attempt(game) { try game.walk(to: point) }
                    }
                case .wheel(let notches): attempt(game) { try game.perform(notches > 0 ? .turnLeft : .turnRight, at: now) }
                case .focus(let gained):
                    guard gained != focused else { continue }
                    focused = gained
                    attempt(game) { try follow(options.focus, focused: gained, engine: engine, game: game) }
                case .resized: view = WindowView(width: window.size.width, height: window.size.height)
                }
            }
            for event in inbox.take() { game.handle(event, at: now) }
            attempt(game) { try game.tick(at: now) }
            // The frame drives the engine, and the ears follow the player as drawn.
            engine.update()
            attempt(game) { try engine.listener.setPose(position: game.pose.position, yaw: game.pose.yawRadians) }
            // Drawn at once after input (the picture answers a key within the frame), else 30
            // times a second: the meters move smoothly, and a machine without a GPU (SDL's
            // renderer on Mesa's software rasteriser) is spared half the drawing.
            if !inputs.isEmpty || now - lastDraw >= drawSeconds {
                view.draw(game.snapshot(at: now), focused: focused, in: window)
                lastDraw = now
            }
            next += .seconds(frameSeconds)
            let late = ContinuousClock.now - next
            if late > .seconds(frameSeconds) { next = ContinuousClock.now } else if late < .zero { Thread.sleep(forTimeInterval: -seconds(late)) }
        }
    }

    /// The window lost focus or got it back: the sound follows the policy.
    static func follow(_ policy: Options.FocusPolicy, focused: Bool, engine: AudioEngine, game: Game) throws {
        switch policy {
        case .keep: return
        case .duck: try engine.masterBus.fade(to: focused ? 1 : 0.25, duration: 0.2)
        case .pause: focused ? engine.masterBus.resume() : engine.masterBus.pause()
        }
        game.say(focused ? "the window is back in front: the sound as it was" : "the window is in the background: the sound \(policy == .duck ? "ducked" : "paused")")
    }

    /// Runs `body`, showing what it throws as the game's message.
    private static func attempt(_ game: Game, _ body: () throws -> Void) {
        do { try body() } catch { game.say("\(error)", alert: true) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
