import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// The window resized: the room drawn to the new size, and the mouse finding the drums where
/// they are now drawn.
extension DrumDubWindowTests {
    @Test("resized smaller: the room is drawn to the new size, and a click on the bass where it is now drawn is heard as the bass")
    func resized() throws {
        let rig = try Rig(["--size", "960x600"])
        let (display, pulse, window) = (rig.display, rig.pulse, rig.window)
        try rig.key("p")   // the music paused: what is heard is the drum
        Thread.sleep(forTimeInterval: 0.3)
        let before = try #require(try display.screenshot().find(red: Self.bassAtRest.0, green: Self.bassAtRest.1, blue: Self.bassAtRest.2).centre,
                                  "no bass drum on screen")

        try display.xdotool(["windowsize", "--sync", window, "640", "400"])
        let size = try #require(try display.size(of: window))
        #expect(size.width == 640 && size.height == 400, "the window is \(size.width) x \(size.height)")
        Thread.sleep(forTimeInterval: 0.3)   // a frame or two: drawn at 30 a second at least
        let after = try display.screenshot()
        let bass = try #require(after.find(red: Self.bassAtRest.0, green: Self.bassAtRest.1, blue: Self.bassAtRest.2).centre,
                                "no bass drum on screen after the resize")
        print("drumdub window resized 960x600 -> 640x400: the bass drum's centre from \(before) to \(bass)")
        #expect(bass.x < 640 && bass.y < 400 && (bass.x, bass.y) != (before.x, before.y),
                "the bass drawn inside the smaller window, not where it was: \(before) then \(bass)")

        let recording = try pulse.record("game", latencyMilliseconds: 5)
        defer { recording.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        let thump = try Self.heard(in: recording) { try display.xdotool(["mousemove", "\(bass.x)", "\(bass.y)", "click", "1"]) }
        let high = Self.highShare(thump.samples, at: thump.onset)
        print("drumdub window resized: the click heard \(Double(thump.onset - thump.sent) / 48) ms after it was sent; high share \(high)")
        // The bass drum's thump is low: measured 0.0002 of its energy in the first difference,
        // the snare's 0.03 (`window()`); under 0.003 is the bass.
        #expect(high < 0.003, "the click is heard as the bass, low in its spectrum: high share \(high)")
    }
}
