import Foundation

/// The room the game is played in, seen from above: ten metres wide (x, left to right on the
/// map) and eight deep (z, top to bottom of the map; OpenAL's forward, -z, is up). The four
/// drums stand around the middle, where the player starts, facing up the map.
struct Room {
    /// One drum: its sound, where it stands, its keys and its level.
    struct Drum {
        let name: String
        /// Its key, on the number row (1...4).
        let number: Character
        /// The letter that marks it on the map (not a key: s walks back).
        let initial: Character
        let position: SIMD3<Float>
        let gain: Float
    }

    static let drums = [
        Drum(name: "snare", number: "1", initial: "S", position: [-2, 0, -2], gain: 0.9),
        Drum(name: "bass", number: "2", initial: "B", position: [2, 0, -2], gain: 1.0),
        Drum(name: "tambourine", number: "3", initial: "T", position: [2, 0, 2], gain: 0.6),
        Drum(name: "maraca", number: "4", initial: "M", position: [-2, 0, 2], gain: 0.5),
    ]

    /// The walls: x in -5...5 m, z in -4...4 m; the player keeps a quarter metre from them.
    static let halfWidth: Float = 5, halfDepth: Float = 4
    static let wallMargin: Float = 0.25
    /// How far one step goes, and how far one turn turns.
    static let stepMetres: Float = 0.5
    static let turnDegrees: Float = 30

    /// The map's size in characters inside its frame: 0.25 m a column, 0.5 m a row (a
    /// terminal cell is about twice as tall as it is wide, so the map is to scale).
    static let mapColumns = 41, mapRows = 17

    /// The map cell (column, row) of a point on the floor.
    static func cell(of position: SIMD3<Float>) -> (column: Int, row: Int) {
        let column = Int((((position.x + halfWidth) / (2 * halfWidth)) * Float(mapColumns - 1)).rounded())
        let row = Int((((position.z + halfDepth) / (2 * halfDepth)) * Float(mapRows - 1)).rounded())
        return (min(max(column, 0), mapColumns - 1), min(max(row, 0), mapRows - 1))
    }

    /// The point on the floor at the centre of a map cell (the inverse of ``cell(of:)``).
    static func position(ofCell column: Int, row: Int) -> SIMD3<Float> {
        [Float(column) / Float(mapColumns - 1) * 2 * halfWidth - halfWidth, 0,
         Float(row) / Float(mapRows - 1) * 2 * halfDepth - halfDepth]
    }
}

/// Where the player stands and which way they face. Yaw is in degrees, 0 facing up the map
/// (-z), growing as the player turns left (counter-clockwise seen from above), as
/// `Listener.setPose(position:yaw:)` takes it (in radians).
struct Pose: Equatable {
    var position: SIMD3<Float> = .zero
    var yawDegrees: Float = 0

    /// The direction faced, on the floor.
    var forward: SIMD3<Float> {
        let yaw = yawDegrees * .pi / 180
        return [-sin(yaw), 0, -cos(yaw)]
    }

    var yawRadians: Float { yawDegrees * .pi / 180 }

    /// Turns by `degrees` (positive is left), keeping the yaw in 0..<360.
    mutating func turn(by degrees: Float) {
        yawDegrees = (yawDegrees + degrees).truncatingRemainder(dividingBy: 360)
        if yawDegrees < 0 { yawDegrees += 360 }
    }

    /// Steps `metres` forward (negative: back), stopping short of the walls.
    mutating func step(_ metres: Float) {
        var next = position + forward * metres
        let maxX = Room.halfWidth - Room.wallMargin, maxZ = Room.halfDepth - Room.wallMargin
        next.x = min(max(next.x, -maxX), maxX)
        next.z = min(max(next.z, -maxZ), maxZ)
        position = next
    }

    /// Turns to face `point` and steps to it, stopping short of the walls.
    mutating func walk(to point: SIMD3<Float>) {
        let way = point - position
        let distance = (way.x * way.x + way.z * way.z).squareRoot()
        guard distance > 0.01 else { return }
        // forward is (-sin yaw, 0, -cos yaw).
        yawDegrees = 0
        turn(by: atan2(-way.x, -way.z) * 180 / .pi)
        step(distance)
    }

    /// The map glyph of the player, an arrow the way they face (eight directions).
    var glyph: Character {
        let glyphs: [Character] = ["^", "\\", "<", "/", "v", "\\", ">", "/"]
        let index = Int((yawDegrees / 45).rounded()) % 8
        return glyphs[index]
    }
}
