import ArgumentParser
import Foundation
import SoundStage

/// Shows that the pilot tracker finds what it is there to find, before a soak trusts it:
/// synthetic outputs with the pilot faded and ducked under loud voices, clean and with gaps of
/// each kind. `scripts/soak.sh` runs it first.
struct SelfTest: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Checks that the gap finder finds gaps and nothing else.")

    func run() throws {
        let rate = 48_000
        var failures: [String] = []
        let cases: [(String, Gap?)] = [
            ("clean", nil),
            ("1 ms lost, resumed where it stopped", Gap(at: 7.3, seconds: 0.001, keepsTime: false)),
            ("5 ms lost, resumed where it stopped", Gap(at: 3.71, seconds: 0.005, keepsTime: false)),
            ("10 ms silent, on the clock", Gap(at: 5.02, seconds: 0.010, keepsTime: true)),
            ("300 ms silent, on the clock", Gap(at: 2.5, seconds: 0.3, keepsTime: true)),
        ]
        for (name, gap) in cases {
            var tracker = PilotTracker(rate: rate)
            tracker.feed(Self.output(rate: rate, seconds: 10, gap: gap))
            let found = tracker.faultCount
            let line = String(format: "self-test %@: %d faults, largest phase step %.2f degrees, smallest dip ratio %.3f%@", name, found,
                              tracker.largestPhaseStep * 180 / .pi, tracker.smallestDipRatio,
                              tracker.faults.first.map { " (first: \($0))" } ?? "")
            print(line)
            if (gap == nil) != (found == 0) { failures.append(line) }
            if let gap, let first = tracker.faults.first, abs(first.seconds - gap.at) > 0.1 {
                failures.append("\(name): found at \(first.seconds) s, made at \(gap.at) s")
            }
        }
        if !failures.isEmpty {
            for failure in failures { print("self-test FAIL: \(failure)") }
            throw ExitCode(1)
        }
        print("self-test PASS")
    }

    struct Gap {
        let at: Double
        let seconds: Double
        /// Silence that keeps the clock (the tone after it on time), or a pause that resumes
        /// where it stopped (the tone after it late by the gap).
        let keepsTime: Bool
    }

    /// Ten seconds like the soak's output: the pilot (0.25) faded to half and back and ducked
    /// 9 dB, with 60 windowed tones between 600 Hz and 3.5 kHz at once, louder than it.
    static func output(rate: Int, seconds: Double, gap: Gap?) -> [Float] {
        let n = Int(seconds * Double(rate))
        var random = SeededGenerator(seed: 7)
        var out = [Float](repeating: 0, count: n)
        var musicTime = 0.0
        let gapStart = gap.map { Int($0.at * Double(rate)) } ?? n
        let gapEnd = gap.map { gapStart + Int($0.seconds * Double(rate)) } ?? n
        for i in 0..<n {
            let t = Double(i) / Double(rate)
            if i >= gapStart && i < gapEnd {
                if gap?.keepsTime == true { musicTime += 1 / Double(rate) }
                continue
            }
            // A 2 s fade to 0.5 at 1 s, ducking 9 dB over 0.6 s from 6 s.
            let fade = t < 1 ? 1 : t < 3 ? 1 - 0.25 * (t - 1) : 0.5
            let duck = t < 6 ? 1 : pow(10, -9 / 20 * min(1, (t - 6) / 0.6))
            out[i] = Float(0.25 * fade * duck * sin(2 * .pi * SoakMusic.pilot * musicTime))
            musicTime += 1 / Double(rate)
        }
        for _ in 0..<600 {
            let f = random.uniform(600, 3_500), length = Int(random.uniform(0.1, 1.5) * Double(rate))
            let start = Int(random.uniform(0, Double(n - length))), gain = random.uniform(0.05, 0.3)
            for k in 0..<length {
                let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / Double(length - 1))
                out[start + k] += Float(gain * window * sin(2 * .pi * f * Double(k) / Double(rate)))
            }
        }
        return out
    }
}
