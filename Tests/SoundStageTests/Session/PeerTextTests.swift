import Foundation
import Testing
@testable import SoundStageSession

/// Text from peers on the session bus, as SoundStage keeps it: bounded, no control characters.
@Suite("Peer text: at most 4 KB, cut where a character starts, no control characters")
struct PeerTextTests {
    static func read(_ text: String) -> String { text.withCString { PeerText.read($0) } }

    @Test("escape sequences (a title change, an OSC 52 clipboard write, a screen clear), C1 controls, DEL and tabs removed; the rest kept")
    func controlsRemoved() {
        #expect(Self.read("Four\u{1B}]0;owned\u{07} Forty\u{1B}]52;c;SGVsbG8=\u{07}\u{1B}[2J") == "Four]0;owned Forty]52;c;SGVsbG8=[2J")
        #expect(Self.read("a\u{9B}31mb\u{7F}c\td\ne") == "a31mbcde")
        #expect(Self.read("Für Elise — ♪ 日本") == "Für Elise — ♪ 日本")
    }

    @Test("a 100 KB title is kept to 4,096 bytes; a cut inside a character goes back to its start")
    func bounded() {
        #expect(Self.read(String(repeating: "x", count: 100_000)).utf8.count == 4_096)
        // "é" is 2 bytes: 4,095 x and then é would end at 4,097.
        let straddling = String(repeating: "x", count: 4_095) + "é" + "tail"
        #expect(Self.read(straddling) == String(repeating: "x", count: 4_095))
        let joined = PeerText.bounded(String(repeating: "ab, ", count: 2_000) + "日本")
        #expect(joined.utf8.count <= 4_096 && joined.hasPrefix("ab, ab"))
        #expect(PeerText.bounded(String(repeating: "x", count: 4_095) + "日") == String(repeating: "x", count: 4_095))
    }
}
