import Foundation
import SoundStage

/// A test signal that says where it is: a maximal-length sequence of ±0.5 (x^18 + x^7 + 1,
/// 262,143 frames, seamless when looped), any 18 frames of which name their position. What a
/// recording heard of it is found to the frame by the signs alone, through a mixer's gain, a
/// sound server's 16-bit sink and a fade-in, so a recording of a sink shows exactly which
/// stretches of the sound it played.
package struct SequenceLocator {
    package static let order = 18
    package static let period = (1 << order) - 1

    /// The sequence's bits, one a frame.
    package let bits: [Bool]
    /// The position at which each 18-bit state (the next 18 bits, first in the high bit)
    /// begins; -1 for the state of all zeros, which a maximal sequence never holds.
    private let positions: [Int32]

    package init() {
        var bits = [Bool](repeating: false, count: Self.period + Self.order)
        for k in 0..<Self.order { bits[k] = k == 0 }
        for n in Self.order..<bits.count { bits[n] = bits[n - Self.order] != bits[n - Self.order + 7] }
        var positions = [Int32](repeating: -1, count: 1 << Self.order)
        var state = 0
        for k in 0..<Self.order { state = state << 1 | (bits[k] ? 1 : 0) }
        let mask = (1 << Self.order) - 1
        for n in 0..<Self.period {
            precondition(positions[state] < 0, "x^18 + x^7 + 1 repeats a state: not a maximal sequence")
            positions[state] = Int32(n)
            state = (state << 1 | (bits[n + Self.order] ? 1 : 0)) & mask
        }
        self.bits = Array(bits.prefix(Self.period))
        self.positions = positions
    }

    /// The signal (frames `frames` of it, by default all), mono 16-bit at `rate`, as a WAV
    /// file's bytes.
    package func wav(rate: Int, frames: Range<Int>? = nil) -> Data {
        let samples = bits[frames ?? 0..<Self.period].map { Float($0 ? 0.5 : -0.5) }
        return RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .mono), samples: samples).wavData(.pcm16)
    }

    /// One run of a recording that plays the signal without a break: recording frames
    /// `start..<end`, the first of which is frame `position` of the signal.
    package struct Stretch {
        package var start: Int
        package var end: Int
        package var position: Int
        /// The signal's frame after the last one heard.
        package var endPosition: Int { position + end - start }
    }

    /// Every stretch of at least `minimum` frames in `recording`: sample for sample, each
    /// frame's sign is the signal's (silence, exact zeros, breaks a stretch, and so does a
    /// jump to another place in the signal).
    package func stretches(in recording: [Float], minimum: Int = 256) -> [Stretch] {
        var found: [Stretch] = []
        recording.withUnsafeBufferPointer { r in
            var t = 0
            while t + 64 <= r.count {
                var state = 0, silent = false
                for k in 0..<Self.order {
                    if r[t + k] == 0 { silent = true; break }
                    state = state << 1 | (r[t + k] > 0 ? 1 : 0)
                }
                guard !silent, positions[state] >= 0, matches(r, from: t, at: Int(positions[state]), count: 64) else {
                    t += 1
                    continue
                }
                var start = t, position = Int(positions[state])
                while start > 0, r[start - 1] != 0, (r[start - 1] > 0) == bit(position - 1) {
                    start -= 1
                    position -= 1
                }
                var end = t
                while end < r.count, r[end] != 0, (r[end] > 0) == bit(position + end - start) { end += 1 }
                if end - start >= minimum {
                    found.append(Stretch(start: start, end: end, position: (position % Self.period + Self.period) % Self.period))
                }
                t = end
            }
        }
        return found
    }

    private func bit(_ position: Int) -> Bool { bits[(position % Self.period + Self.period) % Self.period] }

    private func matches(_ r: UnsafeBufferPointer<Float>, from t: Int, at position: Int, count: Int) -> Bool {
        for k in 0..<count where r[t + k] == 0 || (r[t + k] > 0) != bit(position + k) { return false }
        return true
    }

    /// The signal as it was heard, stretches that go on where the one before stopped taken
    /// as one (a recording broken by silence, an underrun, in the middle of what played):
    /// each run's first signal frame and how many frames it holds.
    package static func runs(_ stretches: [Stretch]) -> [(position: Int, frames: Int)] {
        var runs: [(position: Int, frames: Int)] = []
        for s in stretches {
            if let last = runs.last, distance(from: last.position + last.frames, to: s.position) == 0 {
                runs[runs.count - 1].frames += s.end - s.start
            } else {
                runs.append((s.position, s.end - s.start))
            }
        }
        return runs
    }

    /// `b - a` in frames of the signal, the shorter way round its loop.
    package static func distance(from a: Int, to b: Int) -> Int {
        var d = (b - a) % period
        if d > period / 2 { d -= period } else if d < -period / 2 { d += period }
        return d
    }
}
