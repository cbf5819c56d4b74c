import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The game ended every way a user ends a windowed game: the close button, Ctrl-C or SIGTERM
/// from where it was started (Esc and q: ``window()`` and ``focus(policy:)``). Each ends
/// through the game's own way out (it says bye), with the exit status a shell expects, and
/// the window gone.
extension DrumDubWindowTests {
    @Test("the close button (WM_DELETE_WINDOW), Ctrl-C (SIGINT) and SIGTERM: the game says bye, its window goes, exit 0, 130, 143",
          arguments: ["close", "SIGINT", "SIGTERM"])
    func ended(by way: String) throws {
        let rig = try Rig([])
        let (display, game, window) = (rig.display, rig.game, rig.window)
        #expect(game.waitForLine(containing: "the game is in its window") != nil, "\(game.lines)")
        // The music playing: the game's stream is on the server.
        #expect(Poll.until(seconds: 10) { ((try? rig.streams()) ?? 0) >= 1 }, "the game's stream is not on the server")
        switch way {
        case "close": try display.pressCloseButton(of: window)
        case "SIGINT": game.signal(SIGINT)
        default: game.signal(SIGTERM)
        }
        #expect(game.waitForLine(containing: "drumdub: bye") != nil, "\(game.lines)")
        let expected = ["close": "exit 0", "SIGINT": "exit 130", "SIGTERM": "exit 143"][way]!
        #expect(rig.ending() == expected, "ended by \(way): \(game.ending), not \(expected); \(game.lines.suffix(3))")
        #expect(try display.window(named: "drumdub", seconds: 0.5) == nil, "the window is gone")
    }
}
