import Foundation
import SoundStage

/// What the screen shows, read from the game once a frame.
struct Snapshot {
    var pose = Pose()
    /// Meter levels in dBFS (peak, held and falling): one per drum, the music, the master.
    var drumLevels: [Float] = Array(repeating: -160, count: Room.drums.count)
    /// The drums struck by a key in the last ``Game/flashSeconds``: a `*` beside their meter.
    var struck: [Bool] = Array(repeating: false, count: Room.drums.count)
    var musicLevel: Float = -160
    var masterLevel: Float = -160
    var music = ""
    var room = ""
    var groove = ""
    var device = ""
    var session = ""
    var route = ""
    var realVoices = 0, virtualVoices = 0
    /// The last thing the game has to say; `isAlert` for an interruption or a lost device.
    var message = ""
    var isAlert = false
    /// What the game plays on without (``Game/notice``), dim beside the session.
    var notice = ""
}

/// Draws a ``Snapshot`` as the game's 80 x 24 screen: the room's map on the left, meters,
/// music and keys on the right, the status and the last message at the bottom.
enum Screen {
    static let columns = 80, rows = 24
    /// The meters show -60...0 dBFS.
    static let meterFloor: Float = -60
    static let meterWidth = 16

    static func draw(_ s: Snapshot) -> Canvas {
        var canvas = Canvas(columns: columns, rows: rows)
        canvas.put("drumdub", column: 0, row: 0, style: .title)
        canvas.put("- four drums around you, played through SoundStage", column: 8, row: 0)
        drawMap(s.pose, into: &canvas)
        drawLevels(s, into: &canvas)
        canvas.frame(column: 44, row: 9, width: 36, height: 5, title: "music and room")
        canvas.put(s.music, column: 46, row: 10)
        canvas.put(s.room, column: 46, row: 11)
        canvas.put(s.groove, column: 46, row: 12)
        canvas.frame(column: 44, row: 14, width: 36, height: 6, title: "keys")
        let keys = ["1 2 3 4  bang a drum", "arrows or w a s d  move, turn", "h HRTF  r reverb  p music  +- vol",
                    "g rec  l loop  i interrupt  n next", "Ctrl-Z suspend  q quit"]
        // Five lines in a box of four: the frame's bottom row holds the last.
        for (i, line) in keys.prefix(4).enumerated() { canvas.put(line, column: 46, row: 15 + i) }
        canvas.put(" \(keys[4]) ", column: 46, row: 19, style: .dim)
        canvas.put("output  \(s.device)", column: 0, row: 20)
        let session = "session \(s.session)"
        canvas.put(session, column: 0, row: 21)
        if !s.notice.isEmpty { canvas.put("| \(s.notice)", column: session.count + 1, row: 21, style: .dim) }
        let voices = "voices  \(s.realVoices) real, \(s.virtualVoices) virtual"
        canvas.put(voices, column: 0, row: 22)
        canvas.put("| route \(s.route)", column: voices.count + 1, row: 22)
        canvas.put(s.message, column: 0, row: 23, style: s.isAlert ? .alert : .normal)
        return canvas
    }

    private static func drawMap(_ pose: Pose, into canvas: inout Canvas) {
        let facing = Int(pose.yawDegrees.rounded()) % 360
        let title = String(format: "room: you at %.1f, %.1f m, facing %d", pose.position.x, pose.position.z, facing)
        canvas.frame(column: 0, row: 1, width: Room.mapColumns + 2, height: Room.mapRows + 2, title: title)
        // The floor: a dot every metre.
        for row in 0..<Room.mapRows where row % 2 == 0 {
            for column in stride(from: 0, to: Room.mapColumns, by: 4) {
                canvas.put(".", column: column + 1, row: row + 2, style: .dim)
            }
        }
        for drum in Room.drums {
            let cell = Room.cell(of: drum.position)
            canvas.put(String(drum.initial), column: cell.column + 1, row: cell.row + 2, style: .drum)
            // Its key and name on the row below (the floor's dots are on every other row).
            let label = "\(drum.number):\(drum.name)"
            canvas.put(label, column: cell.column + 1 - label.count / 2, row: cell.row + 3, style: .dim)
        }
        let me = Room.cell(of: pose.position)
        canvas.put(String(pose.glyph), column: me.column + 1, row: me.row + 2, style: .player)
    }

    private static func drawLevels(_ s: Snapshot, into canvas: inout Canvas) {
        canvas.frame(column: 44, row: 1, width: 36, height: 8, title: "levels (dBFS)")
        var rows: [(String, Float)] = Room.drums.enumerated().map { ("\($1.number) \($1.name)", s.drumLevels[$0]) }
        rows.append(("  music", s.musicLevel))
        rows.append(("  master", s.masterLevel))
        for (i, (label, level)) in rows.enumerated() {
            let row = 2 + i
            canvas.put(label, column: 46, row: row)
            if i < s.struck.count, s.struck[i] { canvas.put("*", column: 57, row: row, style: .alert) }
            let filled = max(0, min(meterWidth, Int(((level - meterFloor) / -meterFloor * Float(meterWidth)).rounded())))
            for cell in 0..<meterWidth {
                let cellLevel = meterFloor + Float(cell + 1) * -meterFloor / Float(meterWidth)
                let style: Canvas.Style = cellLevel > -6 ? .meterHigh : cellLevel > -20 ? .meterMid : .meterLow
                canvas.put(cell < filled ? "#" : "-", column: 59 + cell, row: row, style: cell < filled ? style : .dim)
            }
            canvas.put(level > meterFloor ? String(format: "%3d", Int(level.rounded())) : " --", column: 76, row: row)
        }
    }
}
