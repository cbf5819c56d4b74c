import Foundation
import Testing
@testable import SoundStageEngine
@testable import SoundStageCore

/// The output's underruns told from its clock, and the latency modes' mapping. (On real servers,
/// with a stalled process, in the live tier: `LatencyModeTests`.)
@Suite("Latency modes and the output's underruns")
struct OutputUnderrunWatchTests {
    /// Readings every 10 ms for `seconds`: the device's clock moving in `period` steps behind
    /// the wall clock, skewed by `ppm`, with `gaps` (at, length) lost.
    static func run(_ watch: inout OutputUnderrunWatch, seconds: Double, period: Double, ppm: Double = 0,
                    gaps: [(at: Double, length: Double)] = []) -> [Double] {
        var seen: [Double] = []
        var t = 0.0
        while t < seconds {
            let lost = gaps.filter { $0.at <= t }.map(\.length).reduce(0, +)
            let played = (t - lost) * (1 + ppm * 1e-6)
            let device = (played / period).rounded(.down) * period   // mixed a period at a time
            if watch.observe(wall: t, device: device, slack: period) { seen.append(t) }
            t += 0.01
        }
        return seen
    }

    @Test("a steady output shows none: a period's steps, 100 ppm of clock skew over 10 minutes")
    func steady() {
        var watch = OutputUnderrunWatch()
        #expect(Self.run(&watch, seconds: 600, period: 0.021, ppm: 100).isEmpty)
        var fine = OutputUnderrunWatch()
        #expect(Self.run(&fine, seconds: 60, period: 0.00125, ppm: -100).isEmpty)
    }

    @Test("each gap longer than a period and the margin is one underrun, counted in its window")
    func gaps() {
        var watch = OutputUnderrunWatch()
        let seen = Self.run(&watch, seconds: 30, period: 0.005, gaps: [(5, 0.15), (5.5, 0.05), (20, 0.02), (25, 0.003)])
        #expect(seen.count == 3, "\(seen)")
        #expect(abs(seen[0] - 5) < 0.02 && abs(seen[1] - 5.5) < 0.02 && abs(seen[2] - 20) < 0.02, "\(seen)")
        #expect(watch.count(within: 10, before: 10) == 2)
        #expect(watch.count(within: 10, before: 29) == 1)
        watch.restart(at: 30)
        #expect(watch.count(within: 100, before: 30) == 0)
    }

    @Test("a dropout the server heard counts once: not again where the clocks showed it, not as the stream made again starts (until its clock moved and settled, 3 s where it is not watched, 1 s at least)")
    func heardDropouts() {
        var watch = OutputUnderrunWatch()
        // Made again at 10 s, its clock not watched: 3 s of its start.
        watch.restart(at: 10)
        watch.serverHeard(seconds: 0.005)
        #expect(watch.takeHeard(at: 12.9) == [.init(seconds: 0.005, counted: false, streamRemade: true)])
        watch.serverHeard(seconds: 0.004)
        #expect(watch.takeHeard(at: 13.1) == [.init(seconds: 0.004, counted: true, streamRemade: false)])
        #expect(watch.count(within: 10, before: 14) == 1)
        // Made again at 20 s, its clock watched: it moves at once, settles a second later.
        watch.restart(at: 20)
        var t = 20.0, device = 20.0 - 0.021
        var seen: [Double] = []
        func play(until end: Double, gap: ClosedRange<Double>? = nil) {
            while t < end {
                if !(gap?.contains(t) ?? false) { device += 0.01 }
                if watch.observe(wall: t, device: device, slack: 0.021) { seen.append(t) }
                t += 0.01
            }
        }
        play(until: 20.9)
        watch.serverHeard(seconds: 0.003)
        #expect(watch.takeHeard(at: 20.9) == [.init(seconds: 0.003, counted: false, streamRemade: true)])
        play(until: 21.2)
        watch.serverHeard(seconds: 0.003)
        #expect(watch.takeHeard(at: 21.2) == [.init(seconds: 0.003, counted: true, streamRemade: false)])
        // The clocks see a 50 ms gap at 25 s; the server's report of it comes after.
        play(until: 25.5, gap: 25...25.045)
        #expect(seen.count == 1, "\(seen)")
        watch.serverHeard(seconds: 0.05)
        watch.serverHeard(seconds: 0.003)
        #expect(watch.takeHeard(at: 25.5) == [.init(seconds: 0.05, counted: false, streamRemade: false),
                                              .init(seconds: 0.003, counted: true, streamRemade: false)])
        #expect(watch.count(within: 10, before: 26) == 3)
        // Not finite, not positive: nothing heard.
        for bad in [Double.nan, .infinity, 0, -1] { watch.serverHeard(seconds: bad) }
        #expect(watch.takeHeard(at: 26).isEmpty)
    }

    @Test("a device clock that stands still through a gap (the mixer starved, a stream made again) is one underrun, not one a tick")
    func standstill() {
        var watch = OutputUnderrunWatch()
        var seen: [Double] = []
        var t = 0.0, device = 0.0
        while t < 20 {
            // Held still from 5 to 5.5 s, then on from where it stood.
            if !(t >= 5 && t < 5.5) { device += 0.01 }
            if watch.observe(wall: t, device: device, slack: 0.005) { seen.append(t) }
            t += 0.01
        }
        #expect(seen.count == 1, "\(seen)")
    }

    @Test("modes from the lowest to the safest: each asks more of the server than the last, and steps back to the next")
    func modes() {
        let asked = LatencyMode.allCases.map(\.requestedMilliseconds)
        #expect(asked == asked.sorted() && Set(asked).count == asked.count, "\(asked)")
        #expect(LatencyMode.allCases.sorted() == LatencyMode.allCases)
        var chain: [LatencyMode] = [.lowest]
        while let next = chain.last?.safer { chain.append(next) }
        #expect(chain == LatencyMode.allCases)
    }

    @Test("periods OpenAL Soft 1.19.1's reverb mixes in: under 128 frames only multiples of 4; the modes' own give them at 44.1 and 48 kHz on PulseAudio")
    func wholePeriods() {
        #expect([44, 48, 88, 132, 128, 129, 255, 661, 1_024].allSatisfy(AudioContext.periodHoldsReverb))
        #expect(![22, 33, 55, 110, 121, 127].contains(where: AudioContext.periodHoldsReverb))
        // PulseAudio's period: a quarter of the buffer asked, in whole frames (measured with
        // ALSOFT_LOGLEVEL=3 for 3 to 16 ms at 44.1 kHz: 33, 44, 55, ... 176 frames).
        for rate in [44_100, 48_000] {
            for mode in LatencyMode.allCases {
                let period = rate * mode.requestedMilliseconds / 1_000 / 4
                #expect(AudioContext.periodHoldsReverb(period), "\(mode) at \(rate) Hz: \(period) frames")
            }
        }
    }

    @Test("asked again near the mode's milliseconds first, then with the safer modes', never 0 ms")
    func asksAgain() {
        let asks = AudioContext.periodAsks(after: .lowest)
        #expect(asks.map(\.milliseconds) == [3, 5, 2, 6, 1, 7, 12, 60, 120], "\(asks)")
        #expect(asks.map(\.mode) == Array(repeating: .lowest, count: 6) + [.low, .balanced, .safe])
        #expect(AudioContext.periodAsks(after: .safe).map(\.mode) == Array(repeating: .safe, count: 6))
    }

    @Test("in place of the process's own PULSE_LATENCY_MSEC: the milliseconds nearest it first, then the modes' above them, never 0 ms")
    func asksNearTheProcesss() {
        #expect(AudioContext.periodAsks(near: 10) == [9, 11, 8, 12, 7, 13, 60, 120])
        #expect(AudioContext.periodAsks(near: 2) == [1, 3, 4, 5, 12, 60, 120])
        #expect(AudioContext.periodAsks(near: 500) == [499, 501, 498, 502, 497, 503])
    }

    @Test("the process's PULSE_LATENCY_MSEC is checked only in 1...60000 ms: Int.max, 0, negative, not a number are left to libpulse")
    func processValueBounded() {
        #expect(PulseLatency.milliseconds(parsing: "10") == 10 && PulseLatency.milliseconds(parsing: "60000") == 60_000)
        for value in ["\(Int.max)", "60001", "0", "-5", "1e3", "", "ten", "99999999999999999999999"] {
            #expect(PulseLatency.milliseconds(parsing: value) == nil, "\(value)")
        }
    }

    @Test("the mode is asked of libpulse only for the call that makes the stream: PULSE_LATENCY_MSEC empty before and after")
    func askedOnlyDuringTheCall() throws {
        try #require(PulseLatency.setByProcess == nil, "this process set PULSE_LATENCY_MSEC itself")
        _ = OpenAL.configuration   // prepares the variable, as the first OpenAL call does
        let during = PulseLatency.asking(LatencyMode.low.requestedMilliseconds) { getenv(PulseLatency.variable).map { String(cString: $0) } }
        #expect(during == "12")
        #expect(getenv(PulseLatency.variable).map { String(cString: $0) } == "")
        let none = PulseLatency.asking(nil) { getenv(PulseLatency.variable).map { String(cString: $0) } }
        #expect(none == "")
    }
}
