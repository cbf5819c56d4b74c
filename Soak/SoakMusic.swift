import Foundation
import SoundStage

/// The soak's music: 8 s at 48 kHz, stereo, looping seamlessly. Under an arpeggio (A major,
/// high enough that the pilot's low-pass removes it) runs the steady 97 Hz pilot tone that
/// ``PilotTracker`` follows through the output. Every frequency makes a whole number of
/// periods in 8 s, and each note is windowed inside its beat, so the loop has no seam.
enum SoakMusic {
    static let rate = 48_000
    static let seconds = 8
    static let pilot = 97.0

    static func loop() -> RenderedAudio {
        let notes = [1320.0, 1650, 1980, 2640]
        let beat = rate / 4
        var samples = [Float](repeating: 0, count: rate * seconds * 2)
        for i in 0..<(rate * seconds) {
            let t = Double(i) / Double(rate)
            let inBeat = i % beat
            let note = notes[(i / beat) % notes.count]
            let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(inBeat) / Double(beat - 1))
            let melody = 0.15 * window * sin(2 * .pi * note * t)
            let bed = 0.25 * sin(2 * .pi * pilot * t)
            samples[2 * i] = Float(bed + melody)
            samples[2 * i + 1] = Float(bed + 0.8 * melody)
        }
        return RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .stereo), samples: samples)
    }
}
