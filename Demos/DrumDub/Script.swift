import Foundation
import SoundStage

/// A timed script of key presses (`drumdub --script FILE`): one press a line, "SECONDS KEY",
/// keys named as ``Action/init(key:)`` reads them; "end SECONDS" sets the length; `#` starts
/// a comment.
struct Script {
    struct Press {
        let seconds: Double
        let key: String
        let action: Action
        let line: Int
    }

    let presses: [Press]
    /// Where the render ends, in seconds.
    let end: Double

    /// Time after the last key press when the script does not say `end`.
    static let defaultTail = 2.0
    static let longest = 3600.0
    /// The shortest script: 10 ms.
    static let shortest = 0.01

    static func load(_ path: String) throws -> Script {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SoundStageError(.fileAccess, operation: "drumdub --script", object: path, reason: "cannot read it (\(error.localizedDescription))")
        }
        return try parse(text, name: path)
    }

    static func parse(_ text: String, name: String) throws -> Script {
        var presses: [Press] = []
        var end: Double?, endLine = 0
        // Any line break (a CRLF is one Character, so splitting on "\n" alone would miss it).
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            func bad(_ reason: String) -> SoundStageError {
                SoundStageError(.invalidArgument, operation: "drumdub --script", object: "\(name) line \(line)", reason: reason)
            }
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !fields.isEmpty else { continue }
            guard fields.count == 2 else { throw bad("expected \"SECONDS KEY\" or \"end SECONDS\", got \"\(content.trimmingCharacters(in: .whitespaces))\"") }
            if fields[0] == "end" {
                guard end == nil else { throw bad("a second end; a script has one") }
                guard let seconds = Double(fields[1]), seconds >= shortest, seconds <= longest else {
                    throw bad("end takes seconds in \(shortest)...\(Int(longest))")
                }
                end = seconds
                endLine = line
                continue
            }
            guard let seconds = Double(fields[0]), seconds >= 0, seconds <= longest else { throw bad("the time must be seconds in 0...\(Int(longest)), got \(fields[0])") }
            if let last = presses.last, seconds < last.seconds { throw bad("the times must not go back (\(seconds) s after \(last.seconds) s)") }
            guard let action = Action(key: fields[1]) else { throw bad("no key \"\(fields[1])\" (drumdub --help lists them)") }
            if action == .suspend { throw bad("ctrl-z suspends a terminal; a script has none") }
            presses.append(Press(seconds: seconds, key: fields[1], action: action, line: line))
        }
        let length = end ?? ((presses.last?.seconds ?? 0) + defaultTail)
        if let last = presses.last, last.seconds > length {
            throw SoundStageError(.invalidArgument, operation: "drumdub --script", object: "\(name) line \(last.line)",
                                  reason: "a key at \(last.seconds) s comes after the end (\(length) s, line \(endLine))")
        }
        return Script(presses: presses, end: length)
    }
}
