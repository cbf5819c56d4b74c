import Foundation

/// drumdub's screen as text (`--screen`, or tmux's `capture-pane`), read back: where the map
/// shows the drums and the player, and the meters' bars. The geometry is the game's: a map
/// of 41 x 17 cells inside a frame at the top left, 0.25 m a column and 0.5 m a row, for a
/// room from -5 to 5 m in x and -4 to 4 m in z.
package struct DrumDubScreen {
    package let lines: [String]

    package init(_ text: String) { lines = text.components(separatedBy: "\n") }

    /// The map cell (column, row inside the frame) of `glyph`, nil if the map does not show it.
    package func cell(of glyphs: Set<Character>) -> (column: Int, row: Int)? {
        for row in 0..<17 where lines.count > row + 2 {
            let line = Array(lines[row + 2])
            for column in 0..<41 where line.count > column + 1 && glyphs.contains(line[column + 1]) { return (column, row) }
        }
        return nil
    }

    /// A cell's place on the floor in metres (x, z).
    package static func floor(_ cell: (column: Int, row: Int)) -> (x: Double, z: Double) {
        (Double(cell.column) / 40 * 10 - 5, Double(cell.row) / 16 * 8 - 4)
    }

    /// The player's facing from its arrow, as a direction on the floor (x, z): up the map is -z.
    package var facing: (x: Double, z: Double)? {
        guard let cell = cell(of: ["^", "v", "<", ">"]) else { return nil }
        switch Array(lines[cell.row + 2])[cell.column + 1] {
        case "^": return (0, -1)
        case "v": return (0, 1)
        case "<": return (-1, 0)
        default: return (1, 0)
        }
    }

    /// Which side the map puts the drum with initial `initial` on, for the player as drawn:
    /// +1 right, -1 left (the cross product of facing and the way to the drum).
    package func side(of initial: Character) -> Int? {
        guard let drum = cell(of: [initial]), let me = cell(of: ["^", "v", "<", ">"]), let f = facing else { return nil }
        let (dx, dz) = (Self.floor(drum).x - Self.floor(me).x, Self.floor(drum).z - Self.floor(me).z)
        // Right of facing (fx, fz) on this floor (x right, z down the map) is (-fz, fx).
        let right = dx * -f.z + dz * f.x
        return right > 0 ? 1 : right < 0 ? -1 : 0
    }

    /// The number of lit cells (`#`) in the meter of the row labelled `label`.
    package func meterCells(_ label: String) -> Int? {
        guard let line = lines.first(where: { $0.contains(" \(label) ") }) else { return nil }
        return line.split(separator: "|").first(where: { $0.contains(label) }).map { $0.filter { $0 == "#" }.count }
    }
}
