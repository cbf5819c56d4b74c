import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Walking and turning by the mouse and keys: a click on the floor moves the player there, the
/// wheel and the arrows turn them, on screen and for the ears (the listener follows the player
/// as drawn).
extension DrumDubWindowTests {
    @Test("a click on the floor walks the player there: drawn there, and the ears go too (the snare nearby louder against the bass by the distances, within 2.5 dB)")
    func walked() throws {
        let rig = try Rig(["--size", "960x600"])
        let (display, pulse) = (rig.display, rig.pulse)
        try rig.key("p")   // the music paused: what is heard is the drums
        let recording = try pulse.record("game", latencyMilliseconds: 5)
        defer { recording.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let screen = try display.screenshot()
        let colours = (snare: (UInt8(150), UInt8(40), UInt8(40)), bass: Self.bassAtRest, player: (UInt8(250), UInt8(250), UInt8(250)))
        let snare = try #require(screen.find(red: colours.snare.0, green: colours.snare.1, blue: colours.snare.2).centre, "no snare on screen")
        let bass = try #require(screen.find(red: colours.bass.0, green: colours.bass.1, blue: colours.bass.2).centre, "no bass drum on screen")
        // The snare stands at x -2 m, the bass at +2 m, both at z -2 m (Room.drums).
        let pixelsPerMetre = Double(bass.x - snare.x) / 4

        /// The level (dB) of 150 ms of the drum struck by `key`, from its onset at the sink.
        func strike(_ key: String) throws -> Double {
            let struck = try Self.heard(in: recording) { try rig.key(key) }
            Thread.sleep(forTimeInterval: 0.3)
            return Measure.dB(Array(struck.samples[struck.onset..<min(struck.samples.count, struck.onset + 7_200)]))
        }
        let centred = (snare: try strike("1"), bass: try strike("2"))

        // 1.5 m to the snare's left: 1.5 m from it, 5.5 m from the bass.
        let target = (x: snare.x - Int(1.5 * pixelsPerMetre), y: snare.y)
        try display.xdotool(["mousemove", "\(target.x)", "\(target.y)", "click", "1"])
        Thread.sleep(forTimeInterval: 0.3)
        let player = try #require(try display.screenshot().find(red: colours.player.0, green: colours.player.1, blue: colours.player.2).centre,
                                  "no player on screen")
        let off = Double(abs(player.x - target.x) + abs(player.y - target.y)) / pixelsPerMetre
        #expect(off < 0.3, "the player drawn at \(player), \(off) m from the click at \(target)")
        let walked = (snare: try strike("1"), bass: try strike("2"))
        let gained = (walked.snare - walked.bass) - (centred.snare - centred.bass)
        print("drumdub window walked: snare \(centred.snare) dB, bass \(centred.bass) dB in the middle; snare \(walked.snare) dB, bass \(walked.bass) dB beside the snare: the snare \(gained) dB louder against the bass")
        #expect(walked.snare > centred.snare && walked.bass < centred.bass, "nearer the snare, further from the bass: \(centred) then \(walked)")
        // In the middle both stand 2.83 m away; beside the snare 1.5 m and 5.5 m: by inverse
        // distance, 20 log10(5.5 / 1.5) = 11.3 dB (measured 11.2).
        let expected = 20 * log10(5.5 / 1.5)
        #expect(abs(gained - expected) < 2.5, "beside the snare it is \(gained) dB louder against the bass than in the middle, not \(expected)")
    }

    @Test("turning: three wheel notches up turn the player 90 degrees left, and the snare, front left, is heard on the right; three right-arrow keys turn them back")
    func turned() throws {
        let rig = try Rig([])
        let (display, pulse, window) = (rig.display, rig.pulse, rig.window)
        try rig.key("p")   // the music paused: what is heard is the snare
        let recording = try pulse.record("game", channels: 2, latencyMilliseconds: 5)
        defer { recording.stop() }
        Thread.sleep(forTimeInterval: 0.5)

        /// The snare struck: its left channel's level over its right's, in dB, over 150 ms
        /// from its onset.
        func snareLeftOverRight() throws -> Double {
            let from = recording.frames(channels: 2)
            try rig.key("1")
            _ = recording.waitForFrames(from + 28_800, channels: 2)
            let samples = recording.samples
            let onset = try #require((from..<samples.count / 2).first { max(abs(samples[2 * $0]), abs(samples[2 * $0 + 1])) > 0.01 },
                                     "no sound at the sink after the snare's key")
            let frames = onset..<min(samples.count / 2, onset + 7_200)
            Thread.sleep(forTimeInterval: 0.3)
            return Measure.dB(frames.map { samples[2 * $0] }) - Measure.dB(frames.map { samples[2 * $0 + 1] })
        }
        let facingUp = try snareLeftOverRight()
        // Room.turnDegrees is 30: three notches face the player left (down the room's x).
        try display.xdotool(["mousemove", "--window", window, "20", "20", "click", "--repeat", "3", "--delay", "50", "4"])
        Thread.sleep(forTimeInterval: 0.2)
        let facingLeft = try snareLeftOverRight()
        for _ in 0..<3 { try rig.key("Right") }
        Thread.sleep(forTimeInterval: 0.2)
        let facingUpAgain = try snareLeftOverRight()
        print("drumdub window turned: the snare left over right \(facingUp) dB facing up, \(facingLeft) dB turned 90 degrees left, \(facingUpAgain) dB turned back")
        // Measured: +22.5 dB, -22.5 dB, +22.5 dB.
        #expect(facingUp > 15, "facing up the room, the snare (front left) is louder on the left: \(facingUp) dB")
        #expect(facingLeft < -15, "turned left, the snare (now front right) is louder on the right: \(facingLeft) dB")
        #expect(abs(facingUpAgain - facingUp) < 1.5, "turned back, as before: \(facingUpAgain) dB against \(facingUp)")
    }
}
