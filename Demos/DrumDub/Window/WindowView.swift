import Foundation

/// Draws a ``Snapshot`` in the window: the room from above on the left (the floor, a dot a
/// metre, the four drums in their colours with their keys and names, the player as a disc with
/// a line the way they face), and on the right a meter a drum in the drum's colour and the
/// music's, then the music, the room, the output, the session and the last message. A drum
/// struck lights up (its square and its meter), so a test can find it by colour.
struct WindowView {
    let width: Int, height: Int

    /// The room's rectangle in pixels and the pixels a metre.
    var room: (x: Int, y: Int, width: Int, height: Int, pixelsPerMetre: Double) {
        let aspect = Double(Room.halfWidth / Room.halfDepth)
        let top = 44, margin = 16
        let available = (width: Double(width) * 0.58 - Double(margin), height: Double(height - top - margin))
        let roomWidth = min(available.width, available.height * aspect)
        return (margin, top, Int(roomWidth), Int(roomWidth / aspect), roomWidth / Double(2 * Room.halfWidth))
    }

    /// Text scale: 2 (10 x 14 pixel letters) in a window of 800 pixels or more, else 1.
    var scale: Int { width >= 800 ? 2 : 1 }

    static let background = SDLWindow.Colour(18, 18, 24)
    static let floor = SDLWindow.Colour(44, 44, 52)
    static let dot = SDLWindow.Colour(90, 90, 100)
    static let text = SDLWindow.Colour(220, 220, 220)
    static let dim = SDLWindow.Colour(130, 130, 140)
    static let alert = SDLWindow.Colour(255, 90, 90)
    static let player = SDLWindow.Colour(250, 250, 250)
    static let track = SDLWindow.Colour(60, 60, 70)
    /// Each drum's colour at rest (its square on the map) and lit (struck, and its meter).
    static let drumColours: [(rest: SDLWindow.Colour, lit: SDLWindow.Colour)] = [
        (SDLWindow.Colour(150, 40, 40), SDLWindow.Colour(255, 70, 70)),     // snare
        (SDLWindow.Colour(40, 70, 160), SDLWindow.Colour(80, 140, 255)),    // bass
        (SDLWindow.Colour(150, 130, 30), SDLWindow.Colour(255, 225, 60)),   // tambourine
        (SDLWindow.Colour(40, 130, 60), SDLWindow.Colour(80, 235, 110)),    // maraca
    ]
    static let musicColour = SDLWindow.Colour(190, 110, 240)
    /// A drum's square on the map, in metres.
    static let drumSize: Float = 0.9

    /// The pixel of a point on the floor.
    func pixel(of position: SIMD3<Float>) -> (x: Int, y: Int) {
        let r = room
        return (r.x + Int((Double(position.x + Room.halfWidth) * r.pixelsPerMetre).rounded()),
                r.y + Int((Double(position.z + Room.halfDepth) * r.pixelsPerMetre).rounded()))
    }

    /// The point on the floor at a pixel, nil outside the room.
    func position(at x: Int, _ y: Int) -> SIMD3<Float>? {
        let r = room
        guard x >= r.x, x < r.x + r.width, y >= r.y, y < r.y + r.height else { return nil }
        return [Float(Double(x - r.x) / r.pixelsPerMetre) - Room.halfWidth, 0,
                Float(Double(y - r.y) / r.pixelsPerMetre) - Room.halfDepth]
    }

    /// The drum whose square is at a pixel (a little larger than drawn, for the mouse).
    func drum(at x: Int, _ y: Int) -> Int? {
        guard let point = position(at: x, y) else { return nil }
        return Room.drums.firstIndex { abs($0.position.x - point.x) <= Self.drumSize * 0.7 && abs($0.position.z - point.z) <= Self.drumSize * 0.7 }
    }

    func draw(_ s: Snapshot, focused: Bool, in window: SDLWindow) {
        window.clear(Self.background)
        let scale = self.scale
        PixelFont.draw("drumdub - four drums around you, played through SoundStage", x: 16, y: 14, scale: scale, colour: Self.text, maxWidth: width - 32, in: window)
        drawRoom(s, in: window)
        let r = room
        var x = r.x + r.width + 24, y = r.y
        let panel = width - x - 16
        for (i, drum) in Room.drums.enumerated() {
            meter("\(drum.number) \(drum.name)" + (s.struck[i] ? " *" : ""), level: s.drumLevels[i], colour: Self.drumColours[i].lit,
                  x: x, y: y, width: panel, in: window)
            y += 20 * scale
        }
        meter("music", level: s.musicLevel, colour: Self.musicColour, x: x, y: y, width: panel, in: window)
        y += 28 * scale
        for line in [s.music, s.room, s.groove] {
            PixelFont.draw(line, x: x, y: y, scale: 1, colour: Self.text, maxWidth: panel, in: window)
            y += 12
        }
        y += 12
        let keys = ["1-4 or a click: a drum", "arrows, w a s d, the wheel: move", "a click on the floor: walk there",
                    "h HRTF  r reverb  p music  +- volume", "Esc or q: quit"]
        for line in keys {
            PixelFont.draw(line, x: x, y: y, scale: 1, colour: Self.dim, maxWidth: panel, in: window)
            y += 12
        }
        // The status under the room, the message last.
        x = r.x
        y = min(height - 60, r.y + r.height + 12)
        for line in ["output  \(s.device)", "session \(s.session)" + (focused ? "" : ", window in the background")] {
            PixelFont.draw(line, x: x, y: y, scale: 1, colour: Self.dim, maxWidth: width - 32, in: window)
            y += 12
        }
        PixelFont.draw(s.message, x: x, y: y + 4, scale: 1, colour: s.isAlert ? Self.alert : Self.text, maxWidth: width - 32, in: window)
        window.present()
    }

    private func drawRoom(_ s: Snapshot, in window: SDLWindow) {
        let r = room
        window.fill(x: r.x, y: r.y, width: r.width, height: r.height, Self.floor)
        let dotSize = max(2, Int(r.pixelsPerMetre / 20))
        for metreX in stride(from: -Room.halfWidth + 1, to: Room.halfWidth, by: 1) {
            for metreZ in stride(from: -Room.halfDepth + 1, to: Room.halfDepth, by: 1) {
                let p = pixel(of: [metreX, 0, metreZ])
                window.fill(x: p.x - dotSize / 2, y: p.y - dotSize / 2, width: dotSize, height: dotSize, Self.dot)
            }
        }
        let side = Int(Double(Self.drumSize) * r.pixelsPerMetre)
        for (i, drum) in Room.drums.enumerated() {
            let p = pixel(of: drum.position)
            let colours = Self.drumColours[i]
            window.fill(x: p.x - side / 2, y: p.y - side / 2, width: side, height: side, s.struck[i] ? colours.lit : colours.rest)
            let label = "\(drum.number) \(drum.name)"
            PixelFont.draw(label, x: p.x - PixelFont.width(of: label, scale: 1) / 2, y: p.y + side / 2 + 4, scale: 1, colour: Self.text, in: window)
        }
        // The player: a disc (drawn as stacked rows) and a line the way they face.
        let me = pixel(of: s.pose.position)
        let radius = max(4, Int(0.25 * r.pixelsPerMetre))
        for dy in -radius...radius {
            let half = Int((Double(radius * radius - dy * dy)).squareRoot())
            window.fill(x: me.x - half, y: me.y + dy, width: 2 * half + 1, height: 1, Self.player)
        }
        let tip = pixel(of: s.pose.position + s.pose.forward * 0.7)
        for offset in -1...1 {
            window.line(from: (me.x + offset, me.y), to: (tip.x + offset, tip.y), Self.player)
            window.line(from: (me.x, me.y + offset), to: (tip.x, tip.y + offset), Self.player)
        }
    }

    /// A labelled meter: -60...0 dBFS across `width` less the label's room.
    private func meter(_ label: String, level: Float, colour: SDLWindow.Colour, x: Int, y: Int, width: Int, in window: SDLWindow) {
        let scale = self.scale
        PixelFont.draw(label, x: x, y: y, scale: scale, colour: Self.text, maxWidth: width / 2, in: window)
        let barX = x + width / 2, barWidth = width - width / 2, barHeight = 7 * scale
        window.fill(x: barX, y: y, width: barWidth, height: barHeight, Self.track)
        let fraction = Double(max(0, min(1, (level - Screen.meterFloor) / -Screen.meterFloor)))
        window.fill(x: barX, y: y, width: Int(fraction * Double(barWidth)), height: barHeight, colour)
    }
}
