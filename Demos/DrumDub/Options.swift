import SoundStage

/// drumdub's command line.
struct Options {
    var seconds = 16.0
    var hrtf = false
    /// The output's latency mode: `.low`, the lowest this game holds on an idle machine (at
    /// `.lowest` it stepped back within 3 s, and the music came back disturbed after Ctrl-Z:
    /// BENCHMARKS.md, 2026-11-27), unless asked otherwise.
    var latency: LatencyMode = .low
    var render: String?
    var assets: String?
    var script: String?
    var screen: String?
    var log: String?
    var help = false
    /// `--window`: the game in an SDL2 window rather than the terminal.
    var window = false
    /// What the window does when it loses focus (`--focus`).
    var focus: FocusPolicy = .duck
    /// The window's size in pixels (`--size WxH`).
    var windowSize = (width: 960, height: 600)

    /// What the game's sound does while its window is in the background, as games offer.
    enum FocusPolicy: String, CaseIterable {
        /// Plays on as it was.
        case keep
        /// Plays on, 12 dB softer (the master bus faded to a quarter).
        case duck
        /// Pauses (the master bus: every voice and player keeps its playhead).
        case pause
    }

    struct BadArgument: Error, CustomStringConvertible { let description: String }

    static func parse(_ args: [String]) throws -> Options {
        var options = Options()
        var i = 0
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BadArgument(description: "\(args[i - 1]) needs a value") }
            return args[i]
        }
        /// The option's value, one of `T`'s names.
        func choice<T: RawRepresentable & CaseIterable>() throws -> T where T.RawValue == String {
            let option = args[i], name = try value()
            guard let chosen = T(rawValue: name) else {
                throw BadArgument(description: "\(option) takes \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \(name)")
            }
            return chosen
        }
        while i < args.count {
            switch args[i] {
            case "--seconds":
                guard let s = Double(try value()), s > 0, s <= 3600 else { throw BadArgument(description: "--seconds takes a number in (0, 3600]") }
                options.seconds = s
            case "--hrtf": options.hrtf = true
            case "--latency": options.latency = try choice()
            case "--render", "-o": options.render = try value()
            case "--assets": options.assets = try value()
            case "--script": options.script = try value()
            case "--screen": options.screen = try value()
            case "--log": options.log = try value()
            case "--help", "-h": options.help = true
            case "--window": options.window = true
            case "--focus": options.focus = try choice()
            case "--size":
                let text = try value()
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (480...7680).contains(parts[0]), (300...4320).contains(parts[1]) else {
                    throw BadArgument(description: "--size takes WIDTHxHEIGHT in pixels, at least 480x300, not \(text)")
                }
                options.windowSize = (parts[0], parts[1])
            default: throw BadArgument(description: "unknown argument \(args[i])")
            }
            i += 1
        }
        if options.screen != nil && options.script == nil { throw BadArgument(description: "--screen goes with --script") }
        if options.script != nil && (args.contains("--seconds") || options.log != nil) {
            throw BadArgument(description: "--seconds and --log do not go with --script (the script says how long; nothing is logged)")
        }
        if !options.window && (args.contains("--focus") || args.contains("--size")) { throw BadArgument(description: "--focus and --size go with --window") }
        if options.window && (options.script != nil || options.render != nil) { throw BadArgument(description: "--window is the game; --script and --render play offline") }
        if options.render != nil && options.script == nil && options.log != nil { throw BadArgument(description: "--log goes with the game, not --render") }
        return options
    }

    static let usage = """
        drumdub: four drums placed around you in a room, played through SoundStage.

        usage: drumdub [--hrtf] [--latency MODE]
                                        play the game in this terminal (80 x 24 or larger)
               drumdub --window [--focus keep|duck|pause] [--size WxH] [--hrtf] [--latency MODE]
                                        play the game in a window (SDL2): click a drum to bang
                                        it, the floor to walk there, the wheel to turn
               drumdub --script FILE [--render OUT.wav] [--screen OUT.txt]
                                        play FILE's timed key presses offline and write the
                                        sound (beside FILE, as .wav, by default),
                                        deterministically
               drumdub --render OUT.wav [--seconds N] [--hrtf]
                                        render the fixed demo groove offline: the kit circles
                                        you as you turn
               drumdub --help

        options:
          --assets DIR    the assets folder (drums/*.wav and music/loop.ogg); found from
                          the working directory or the executable by default
          --hrtf          start with HRTF on (binaural, for headphones)
          --latency MODE  the output's latency: lowest, low (the default), balanced or safe;
                          the game steps back to a safer one when the machine does not hold it
          --focus POLICY  the window in the background: keep playing, duck (12 dB softer,
                          the default) or pause
          --size WxH      the window's size in pixels, 960x600 by default
          --seconds N     the fixed groove's length in seconds (--render), 16 by default
          --screen FILE   with --script: write the game's screen at the end as text
          --log FILE      the game: where standard error goes while the screen is up (what
                          OpenAL Soft and libpulse print); a temporary file by default

        keys:
        \(Action.help.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        a script: one key press a line, "SECONDS KEY", with the keys above by name (1, S, w,
        up, down, left, right, space, p, +, -, g, l, i, q) or a drum's name (snare); "end SECONDS" sets its length (2 s
        after the last key by default); # starts a comment. As in the game, the music starts
        at 0. Example: assets/grooves/demo.txt.

        exit status: 0 done, 1 error, 2 bad arguments, 3 no output device (render instead:
        drumdub --script FILE), 4 not a terminal (the game needs one; render instead), 5 no window
        (no display, or no SDL2: the terminal game is `drumdub`).
        """
}
