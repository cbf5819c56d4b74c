import Foundation

/// Follows the music's pilot tone through the output, block by block, to find any gap in the
/// streamed music: the soak's music carries a steady tone (97 Hz: a whole number of periods
/// in every second, so its loop is seamless, and no period divides a gap shorter than 1 s).
///
/// The output is low-passed (fourth-order Butterworth at 150 Hz, so the voices, all above
/// 600 Hz, fall away), then each 40 ms block is fitted with a cosine and sine at the pilot's
/// frequency and a constant, in absolute sample time. A continuous tone keeps one phase from
/// block to block whatever its level does; a stream that stops and resumes where it stopped
/// moves the phase (1 ms is 35 degrees), and one that skips ahead to keep time leaves a dip in
/// the level, or silent blocks, between loud ones.
struct PilotTracker {
    /// What counts as a gap.
    struct Limits {
        /// The largest phase step between blocks, in radians, taken as continuous.
        var phaseStep = 0.1
        /// A block this much quieter than both its neighbours is a dip.
        var dipRatio = 0.85
        /// Below this amplitude a block has no pilot.
        var floor = 0.002
    }

    /// One block's fit.
    struct Block {
        let index: Int
        let amplitude: Double
        let phase: Double
    }

    /// A place where the pilot was not continuous.
    struct Fault: CustomStringConvertible {
        let block: Int
        let seconds: Double
        let what: String
        var description: String { String(format: "%.3f s: %@", seconds, what) }
    }

    let rate: Int
    let frequency: Double
    let limits: Limits
    let blockLength: Int
    private var lowpass: [Biquad]
    private var pending: [Double] = []
    private var blocksSeen = 0
    private let cosTable: [Double], sinTable: [Double]
    private let inverse: [[Double]]

    private var previous: Block?
    private var beforePrevious: Block?
    /// Silent blocks since the last loud one: a gap only if the pilot comes back.
    private var silentRun: [Block] = []
    /// What the last ``edgeBlocks`` loud blocks showed, held until more loud blocks follow:
    /// where the output ends or moves away, the pilot's last blocks are its release.
    private var held: [Observation] = []

    /// One block's findings, counted once loud blocks follow it.
    private struct Observation {
        let block: Int
        var phaseStep: Double?
        var dipRatio: Double?
        var faults: [Fault] = []
    }
    static let edgeBlocks = 3

    /// The first 100 faults.
    private(set) var faults: [Fault] = []
    /// Every fault.
    private(set) var faultCount = 0
    /// The largest phase step between loud blocks, in radians (the pilot's onset and release
    /// left out, as for faults).
    private(set) var largestPhaseStep = 0.0
    /// The smallest ratio of a block to the quieter of its neighbours.
    private(set) var smallestDipRatio = Double.infinity
    /// Blocks with the pilot: the first ``edgeBlocks`` are its onset (the filter settling,
    /// OpenAL's start ramp), not checked.
    private(set) var loudBlocks = 0
    private(set) var firstLoud: Int?
    private(set) var lastLoud: Int?

    init(rate: Int, frequency: Double = 97, limits: Limits = Limits()) {
        self.rate = rate
        self.frequency = frequency
        self.limits = limits
        blockLength = rate / 25
        lowpass = Biquad.butterworthLowpass(order4At: 150, rate: Double(rate))
        let w = 2 * Double.pi * frequency / Double(rate)
        cosTable = (0..<blockLength).map { cos(w * Double($0)) }
        sinTable = (0..<blockLength).map { sin(w * Double($0)) }
        // The normal equations of the fit (cos, sin, 1) over one block, inverted once.
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<blockLength {
            let v = [cosTable[i], sinTable[i], 1.0]
            for r in 0..<3 { for c in 0..<3 { m[r][c] += v[r] * v[c] } }
        }
        inverse = Self.inverted(m)
    }

    /// Seconds of output seen.
    var seconds: Double { Double(blocksSeen * blockLength + pending.count) / Double(rate) }

    /// Takes the next samples of the output (mono).
    mutating func feed<C: Collection>(_ samples: C) where C.Element == Float {
        pending.reserveCapacity(blockLength)
        for s in samples {
            var x = Double(s)
            for i in lowpass.indices { x = lowpass[i].process(x) }
            pending.append(x)
            if pending.count == blockLength {
                take(fit(pending))
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    private mutating func fit(_ x: [Double]) -> Block {
        var p = [0.0, 0.0, 0.0]
        for i in 0..<blockLength {
            p[0] += x[i] * cosTable[i]
            p[1] += x[i] * sinTable[i]
            p[2] += x[i]
        }
        let a = inverse[0][0] * p[0] + inverse[0][1] * p[1] + inverse[0][2] * p[2]
        let b = inverse[1][0] * p[0] + inverse[1][1] * p[1] + inverse[1][2] * p[2]
        // a cos(w i) + b sin(w i) = A cos(w i - phi), phi = atan2(b, a); in absolute time
        // (n = n0 + i, n0 the block's first sample) A cos(w n - (phi + w n0)): the tone's
        // phase is phi + w n0.
        let n0 = Double(blocksSeen * blockLength)
        let w = 2 * Double.pi * frequency / Double(rate)
        let phase = Self.wrapped(atan2(b, a) + (w * n0).truncatingRemainder(dividingBy: 2 * .pi))
        defer { blocksSeen += 1 }
        return Block(index: blocksSeen, amplitude: (a * a + b * b).squareRoot(), phase: phase)
    }

    private mutating func take(_ block: Block) {
        // The filter's start is not output: skip the first block.
        guard block.index > 0 else { return }
        guard block.amplitude >= limits.floor else {
            if previous != nil { silentRun.append(block) }
            return
        }
        loudBlocks += 1
        if firstLoud == nil { firstLoud = block.index }
        lastLoud = block.index
        // What was seen edgeBlocks loud blocks ago was not the pilot's release.
        while let first = held.first, first.block <= block.index - Self.edgeBlocks {
            if let step = first.phaseStep { largestPhaseStep = max(largestPhaseStep, step) }
            if let ratio = first.dipRatio { smallestDipRatio = min(smallestDipRatio, ratio) }
            for fault in first.faults where faults.count < 100 { faults.append(fault) }
            faultCount += first.faults.count
            held.removeFirst()
        }
        var seen = Observation(block: block.index)
        defer { held.append(seen) }
        if loudBlocks <= Self.edgeBlocks {
            // The pilot's onset.
        } else if let first = silentRun.first, let last = silentRun.last {
            seen.faults.append(fault(first.index, "no pilot for \(String(format: "%.0f", Double((last.index - first.index + 1) * blockLength) * 1000 / Double(rate))) ms, then it came back"))
            silentRun = []
            beforePrevious = nil
        } else if let previous {
            let step = abs(Self.wrapped(block.phase - previous.phase))
            seen.phaseStep = step
            if step > limits.phaseStep {
                seen.faults.append(fault(block.index, String(format: "the pilot's phase jumped %.1f degrees (%.2f ms of the tone)",
                                                             step * 180 / .pi, step / (2 * .pi * frequency) * 1000)))
            }
            if let before = beforePrevious {
                let ratio = previous.amplitude / min(before.amplitude, block.amplitude)
                seen.dipRatio = ratio
                if ratio < limits.dipRatio {
                    seen.faults.append(fault(previous.index, String(format: "a dip to %.0f %% of its neighbours", ratio * 100)))
                }
            }
        }
        beforePrevious = previous
        previous = block
    }

    private func fault(_ index: Int, _ what: String) -> Fault {
        Fault(block: index, seconds: Double(index * blockLength) / Double(rate), what: what)
    }

    static func wrapped(_ x: Double) -> Double {
        var y = x.truncatingRemainder(dividingBy: 2 * .pi)
        if y > .pi { y -= 2 * .pi }
        if y < -.pi { y += 2 * .pi }
        return y
    }

    private static func inverted(_ m: [[Double]]) -> [[Double]] {
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        var r = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                let (a, b) = ((j + 1) % 3, (j + 2) % 3)
                let (c, d) = ((i + 1) % 3, (i + 2) % 3)
                r[i][j] = (m[a][c] * m[b][d] - m[a][d] * m[b][c]) / det
            }
        }
        return r
    }
}

/// A second-order IIR section (direct form I).
struct Biquad {
    var b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return y
    }

    /// A fourth-order Butterworth low-pass as two sections (Q 0.5412 and 1.3066).
    static func butterworthLowpass(order4At cutoff: Double, rate: Double) -> [Biquad] {
        [0.541_196_1, 1.306_563].map { q in
            let w = 2 * Double.pi * cutoff / rate
            let alpha = sin(w) / (2 * q), c = cos(w), a0 = 1 + alpha
            return Biquad(b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
        }
    }
}
