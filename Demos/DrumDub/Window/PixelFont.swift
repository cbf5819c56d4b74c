import CSDL2

/// The window's text: capitals, digits and the punctuation the game prints, 5 x 7 pixels
/// each, drawn as squares of `scale` pixels (SDL2 draws no text of its own, and the demo
/// takes no font library). Lower case is drawn as capitals; what has no glyph, as a space.
enum PixelFont {
    static let width = 5, height = 7
    /// A glyph's advance, in font pixels (one of space between letters).
    static let advance = 6

    /// The pixels of each glyph, a row a string, `#` lit.
    static let glyphs: [Character: [String]] = [
        "A": [" ### ", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "B": ["#### ", "#   #", "#   #", "#### ", "#   #", "#   #", "#### "],
        "C": [" ### ", "#   #", "#    ", "#    ", "#    ", "#   #", " ### "],
        "D": ["#### ", "#   #", "#   #", "#   #", "#   #", "#   #", "#### "],
        "E": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"],
        "F": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#    "],
        "G": [" ### ", "#   #", "#    ", "# ###", "#   #", "#   #", " ####"],
        "H": ["#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"],
        "I": [" ### ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "J": ["  ###", "   # ", "   # ", "   # ", "   # ", "#  # ", " ##  "],
        "K": ["#   #", "#  # ", "# #  ", "##   ", "# #  ", "#  # ", "#   #"],
        "L": ["#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"],
        "M": ["#   #", "## ##", "# # #", "# # #", "#   #", "#   #", "#   #"],
        "N": ["#   #", "##  #", "# # #", "#  ##", "#   #", "#   #", "#   #"],
        "O": [" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "P": ["#### ", "#   #", "#   #", "#### ", "#    ", "#    ", "#    "],
        "Q": [" ### ", "#   #", "#   #", "#   #", "# # #", "#  # ", " ## #"],
        "R": ["#### ", "#   #", "#   #", "#### ", "# #  ", "#  # ", "#   #"],
        "S": [" ####", "#    ", "#    ", " ### ", "    #", "    #", "#### "],
        "T": ["#####", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "],
        "U": ["#   #", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "],
        "V": ["#   #", "#   #", "#   #", "#   #", "#   #", " # # ", "  #  "],
        "W": ["#   #", "#   #", "#   #", "# # #", "# # #", "# # #", " # # "],
        "X": ["#   #", "#   #", " # # ", "  #  ", " # # ", "#   #", "#   #"],
        "Y": ["#   #", "#   #", " # # ", "  #  ", "  #  ", "  #  ", "  #  "],
        "Z": ["#####", "    #", "   # ", "  #  ", " #   ", "#    ", "#####"],
        "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
        "3": ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "],
        "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
        "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
        "6": ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
        "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
        "9": [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "],
        ".": ["     ", "     ", "     ", "     ", "     ", " ##  ", " ##  "],
        ",": ["     ", "     ", "     ", "     ", " ##  ", "  #  ", " #   "],
        ":": ["     ", " ##  ", " ##  ", "     ", " ##  ", " ##  ", "     "],
        ";": ["     ", " ##  ", " ##  ", "     ", " ##  ", "  #  ", " #   "],
        "-": ["     ", "     ", "     ", "#####", "     ", "     ", "     "],
        "+": ["     ", "  #  ", "  #  ", "#####", "  #  ", "  #  ", "     "],
        "*": ["     ", "# # #", " ### ", "#####", " ### ", "# # #", "     "],
        "/": ["    #", "    #", "   # ", "  #  ", " #   ", "#    ", "#    "],
        "%": ["##   ", "##  #", "   # ", "  #  ", " #   ", "#  ##", "   ##"],
        "(": ["   # ", "  #  ", " #   ", " #   ", " #   ", "  #  ", "   # "],
        ")": [" #   ", "  #  ", "   # ", "   # ", "   # ", "  #  ", " #   "],
        "'": ["  #  ", "  #  ", " #   ", "     ", "     ", "     ", "     "],
        "!": ["  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "     ", "  #  "],
        "?": [" ### ", "#   #", "    #", "   # ", "  #  ", "     ", "  #  "],
        "=": ["     ", "     ", "#####", "     ", "#####", "     ", "     "],
        "<": ["   # ", "  #  ", " #   ", "#    ", " #   ", "  #  ", "   # "],
        ">": [" #   ", "  #  ", "   # ", "    #", "   # ", "  #  ", " #   "],
        "|": ["  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "],
        "_": ["     ", "     ", "     ", "     ", "     ", "     ", "#####"],
    ]

    /// Each glyph's lit pixels as runs along its rows: (column, row, length), made once.
    static let runs: [Character: [(column: Int, row: Int, length: Int)]] = glyphs.mapValues { rows in
        var runs: [(column: Int, row: Int, length: Int)] = []
        for (row, line) in rows.enumerated() {
            var start: Int?
            for (column, cell) in (Array(line) + [" "]).enumerated() {
                if cell == "#", start == nil { start = column }
                if cell != "#", let from = start {
                    runs.append((from, row, column - from))
                    start = nil
                }
            }
        }
        return runs
    }

    /// Draws `text` with its top left at (`x`, `y`), each font pixel `scale` pixels square,
    /// up to `maxWidth` pixels wide (the rest is cut): its runs of pixels in one call.
    static func draw(_ text: String, x: Int, y: Int, scale: Int, colour: SDLWindow.Colour, maxWidth: Int = .max, in window: SDLWindow) {
        var rects: [SDL_Rect] = []
        var left = x
        for character in text.uppercased() {
            guard left - x + width * scale <= maxWidth else { break }
            for run in runs[character] ?? [] {
                rects.append(SDL_Rect(x: Int32(left + run.column * scale), y: Int32(y + run.row * scale), w: Int32(run.length * scale), h: Int32(scale)))
            }
            left += advance * scale
        }
        window.fill(rects, colour)
    }

    /// How wide `text` is drawn at `scale`, in pixels.
    static func width(of text: String, scale: Int) -> Int { max(0, text.count * advance * scale - scale) }
}
