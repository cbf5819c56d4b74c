/// A screen's worth of text with a style per cell: what the game draws into, shown by the
/// terminal (ncurses) or written out as text (`--screen`, the README's screenshot).
struct Canvas {
    enum Style: Int, CaseIterable {
        case normal, title, drum, player, meterLow, meterMid, meterHigh, alert, dim
    }

    let columns: Int, rows: Int
    private(set) var characters: [[Character]]
    private(set) var styles: [[Style]]

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        characters = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: .normal, count: columns), count: rows)
    }

    /// Writes `text` from (column, row), clipped at the edge.
    mutating func put(_ text: String, column: Int, row: Int, style: Style = .normal) {
        guard (0..<rows).contains(row) else { return }
        var c = column
        for character in text {
            if (0..<columns).contains(c) {
                characters[row][c] = character
                styles[row][c] = style
            }
            c += 1
        }
    }

    /// A frame of `-`, `|` and `+` around the box with top-left corner (column, row).
    mutating func frame(column: Int, row: Int, width: Int, height: Int, title: String) {
        let horizontal = "+" + String(repeating: "-", count: width - 2) + "+"
        put(horizontal, column: column, row: row)
        put(horizontal, column: column, row: row + height - 1)
        for r in (row + 1)..<(row + height - 1) {
            put("|", column: column, row: r)
            put("|", column: column + width - 1, row: r)
        }
        put(" \(title) ", column: column + 2, row: row, style: .title)
    }

    /// The text, one line a row, trailing spaces trimmed.
    var text: String {
        characters.map { line in
            var s = String(line)
            while s.last == " " { s.removeLast() }
            return s
        }.joined(separator: "\n") + "\n"
    }

    /// The runs of one style along a row, for the terminal to draw with one attribute each.
    func runs(ofRow row: Int) -> [(column: Int, text: String, style: Style)] {
        var result: [(Int, String, Style)] = []
        var start = 0
        for c in 1...columns where c == columns || styles[row][c] != styles[row][start] {
            result.append((start, String(characters[row][start..<c]), styles[row][start]))
            start = c
        }
        return result
    }
}
