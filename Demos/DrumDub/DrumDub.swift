import Foundation
import SoundStage

/// drumdub: four drums (snare, bass, tambourine, maraca) placed around the player in a room,
/// played from the keyboard in a full-screen terminal game, with background music, meters, a
/// room reverb, HRTF, a groove recorder and the audio session's interruptions and route
/// changes handled as the DrumDub app they come from does. `drumdub --help` says the rest.
///
/// - the game: ``Interactive`` (the loop), ``Game`` (what the keys do), ``Screen`` (what is
///   shown), ``CursesTerminal`` (ncurses);
/// - `--script FILE`: ``ScriptRun``, the game played offline from timed key presses;
/// - `--render OUT.wav`: ``FixedGroove``, the fixed demo groove rendered offline;
/// - `--window`: ``Windowed``, the game in an SDL2 window (``WindowView`` draws it).
///
/// Exit status: 0 done, 1 error, 2 bad arguments, 3 no output device, 4 not a terminal, 5 no
/// window.
@main
struct DrumDub {
    static func main() {
        let options: Options
        do { options = try Options.parse(Array(CommandLine.arguments.dropFirst())) } catch {
            fail("\(error)\n(drumdub --help lists the options)", status: 2)
        }
        if options.help {
            print(Options.usage)
            return
        }
        do {
            if let script = options.script {
                try ScriptRun.run(options, script: script)
            } else if let path = options.render {
                try FixedGroove.render(options, to: path)
            } else if options.window {
                try Windowed.run(options)
            } else {
                try Interactive.run(options)
            }
        } catch let error as SDLWindow.Unavailable {
            fail("\(error); the terminal game needs none: drumdub", status: 5)
        } catch let error as CursesTerminal.NotATerminal {
            fail("\(error)", status: 4)
        } catch let error as CursesTerminal.UnknownTerminal {
            fail("\(error)", status: 4)
        } catch let error as SoundStageError where error.code == .noOutputDevice {
            fail("no output device here (no sound server or sound card answered); render the game instead: drumdub --script assets/grooves/demo.txt --render drumdub.wav", status: 3)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("drumdub: \(message)\n".utf8))
        exit(status)
    }
}
