import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// The default output switched back and forth under a playing game (`soundstage session` in a
/// child), on a private PulseAudio server with two sinks, both recorded: what is heard across
/// each move, located to the frame in the recordings, and what stays open on the server.
@Suite("Following the default output: nothing skipped or heard twice, one device and one stream left", .serialized,
       .enabled(if: AudioSessionServerTests.enabled, "PulseAudio is not installed"))
struct AudioEngineDefaultMoveTests {
    static let rate = 44_100
    /// Moves per run: A -> B -> A -> B -> A -> B.
    static let moves = 5

    /// What a run heard: each move's content skipped (negative: heard twice) in frames of
    /// the sound, and the gap in seconds between the old sink's last frame and the new one's
    /// first; and the streams the child had open on the server at the end.
    struct Run {
        var skips: [Int] = []
        var gaps: [Double] = []
        var streams = 0
        /// For each move, where each sink's recording had the sound (for a failure to show
        /// whether a skip is content the old sink did not record, or content not played).
        var moves: [String] = []
    }

    /// Plays the sequence signal through `soundstage session` with `options` while the
    /// default output moves ``moves`` times, `interval` seconds apart, the first once sink A
    /// has played `heard` seconds of it.
    static func run(_ options: [String], heard: Double = 1, interval: Double = 1.2, server: PrivatePulse.Kind = .pulseaudio) async throws -> Run {
        try #require(server.isInstalled, "\(server) is not installed")
        // PipeWire runs its graph at 48 kHz whatever rate a null sink is made with, so a
        // recording of a 44.1 kHz sink is resampled and the sequence no longer found to the
        // sample: there, everything is at 48 kHz.
        let rate = server == .pipewire ? 48_000 : Self.rate
        let pulse = try PrivatePulse(server)
        defer { pulse.stop() }
        for sink in ["A", "B"] {
            let made = try pulse.pactl(["load-module", "module-null-sink", "sink_name=\(sink)", "rate=\(rate)"])
            try #require(made.status == 0, "\(made.stderr)")
        }
        try pulse.setDefaultSink("A")
        let keepers = try ["A", "B"].map { try pulse.keepRunning($0) }
        defer { keepers.forEach { $0.stop() } }
        let recorders = try ["A", "B"].map { try pulse.recordPinned($0, rate: rate) }
        defer { recorders.forEach { $0.stop() } }
        let folder = try TemporaryFolder()
        let locator = SequenceLocator()
        try locator.wav(rate: rate).write(to: folder.file("sequence.wav"))
        let child = try pulse.session(["--file", folder.file("sequence.wav").path] + options)
        defer { child.stop() }
        // Waits suspend rather than block: a blocked thread is one of the test runner's few.
        try #require(try await child.nextLine(containing: "playing sequence.wav") != nil, "\(child.lines)")
        // Until the sink has played some of it: a new stream starts a while after its device
        // opens (0.3 to 1.7 s measured).
        let started = ContinuousClock.now
        // The recording's last moments only: the whole of it grows, and a debug build reads
        // it slowly. What the sink played of it in those moments counts, in stretches: a
        // PipeWire null sink on a loaded machine misses whole cycles (exact zeros in the
        // recording, for every client alike), and the moves are what is tested here, not
        // the server's cycles before them.
        let window = Int((heard + 0.5) * Double(rate))
        while true {
            let found = locator.stretches(in: Array(recorders[0].samples.suffix(window)), minimum: 64)
            if found.reduce(0, { $0 + $1.end - $1.start }) >= Int(heard * Double(rate)) { break }
            try #require(ContinuousClock.now - started < .seconds(10), """
                the sound is not heard on sink A in 10 s: \(recorders[0].frames()) frames recorded there, \
                the last \(window) of peak \(recorders[0].samples.suffix(window).reduce(Float(0)) { max($0, abs($1)) }), \
                holding stretches \(found.map { $0.end - $0.start }) frames long (\(heard) s of it wanted); \
                the default sink \((try? pulse.defaultSink()) ?? "?"), streams \
                \(((try? pulse.pactl(["list", "short", "sink-inputs"]).stdout) ?? "?").split(separator: "\n")); \
                the game printed \(child.lines.suffix(8))
                """)
            try await Task.sleep(for: .milliseconds(100))
        }
        var moved = 0
        for k in 0..<moves {
            // Once the server says the default moved (a server that does not is its failure,
            // not the game's), the game has 10 s to follow.
            try pulse.setDefaultSink(k % 2 == 0 ? "B" : "A")
            let line = try await child.nextLine(containing: "engine: routeChanged(defaultChanged", after: moved)
            let now = line == nil ? try pulse.defaultSink() : ""
            try #require(line != nil, "move \(k + 1) (the server's default now \(now)) was not followed: \(child.lines.suffix(8))")
            moved = line!.index + 1
            try await Task.sleep(for: .seconds(interval))
        }
        var run = Run()
        let inputs = try pulse.pactl(["list", "sink-inputs"]).stdout
        run.streams = inputs.components(separatedBy: "application.name = \"soundstage\"").count - 1
        child.stop()
        recorders.forEach { $0.stop() }

        // Every stretch either sink heard, dated by when its recording's blocks came, then
        // taken as visits: the sound on one sink from a move to the next. A break inside a
        // visit (an underrun on a loaded machine) is no move; a move is where the sink changes.
        typealias Heard = (sink: Int, stretch: SequenceLocator.Stretch, from: ContinuousClock.Instant, to: ContinuousClock.Instant)
        var heard: [Heard] = []
        for (sink, recorder) in recorders.enumerated() {
            let samples = recorder.samples, arrivals = recorder.arrivals
            func instant(_ frame: Int) -> ContinuousClock.Instant {
                let block = arrivals.first { $0.end / 4 > frame } ?? arrivals.last!
                return block.at - .seconds(Double(block.end / 4 - frame) / Double(rate))
            }
            heard += locator.stretches(in: samples).map { (sink, $0, instant($0.start), instant($0.end)) }
        }
        heard.sort { $0.from < $1.from }
        var visits: [(first: Heard, last: Heard)] = []
        for h in heard {
            if let current = visits.last, current.last.sink == h.sink { visits[visits.count - 1].last = h } else { visits.append((h, h)) }
        }
        try #require(visits.count == moves + 1, "\(moves + 1) visits of the sound, one sink in turn: \(heard.map { ($0.sink, $0.stretch) })")
        for (old, new) in zip(visits, visits.dropFirst()) {
            run.skips.append(SequenceLocator.distance(from: old.last.stretch.endPosition, to: new.first.stretch.position))
            run.gaps.append((new.first.from - old.last.to) / .seconds(1))
            let oldSamples = recorders[old.last.sink].samples
            let after = oldSamples[min(oldSamples.count, old.last.stretch.end)...]
            let zeros = after.prefix { $0 == 0 }.count
            run.moves.append("sink \(old.last.sink) heard signal frames to \(old.last.stretch.endPosition) (recording frame \(old.last.stretch.end), "
                             + "its last stretch \(old.last.stretch.end - old.last.stretch.start) long, then \(zeros) exact zeros of \(after.count) frames left); "
                             + "sink \(new.first.sink) from \(new.first.stretch.position) (recording frame \(new.first.stretch.start))")
        }
        return run
    }

    @Test("five moves of a streamed player, a loaded player, a streamed voice and a loaded voice",
          arguments: [[], ["--loaded"], ["--voice"], ["--voice", "--loaded"]])
    func moves(options: [String]) async throws {
        let run = try await Self.run(options)
        let ms = run.skips.map { Double($0) * 1000 / Double(Self.rate) }
        print("AudioEngineDefaultMoveTests \(options): skipped \(ms.map { String(format: "%.2f", $0) }) ms, gaps \(run.gaps.map { String(format: "%.0f", $0 * 1000) }) ms")
        // 2 ms: 88 frames at 44.1 kHz. (The locator finds every move 1 frame short: the first
        // frame of a fade-in is silent.)
        #expect(run.skips.allSatisfy { abs($0) <= 88 }, "skipped (negative: repeated) \(run.skips) frames across the moves: \(run.moves)")
        #expect(run.gaps.allSatisfy { $0 <= 0.2 }, "gaps \(run.gaps) s")
        #expect(run.streams == 1, "exactly one stream of the game's on the server after the moves, found \(run.streams)")
    }
}

extension AudioEngineDefaultMoveTests {
    @Test("moves 0.3 s apart, the first as soon as the sound is heard: nothing skipped or heard twice either")
    func quickMoves() async throws {
        let run = try await Self.run([], heard: 0.01, interval: 0.3)
        let ms = run.skips.map { Double($0) * 1000 / Double(Self.rate) }
        print("AudioEngineDefaultMoveTests quick: skipped \(ms.map { String(format: "%.2f", $0) }) ms, gaps \(run.gaps.map { String(format: "%.0f", $0 * 1000) }) ms")
        #expect(run.skips.allSatisfy { abs($0) <= 88 }, "skipped (negative: repeated) \(run.skips) frames across the moves: \(run.moves)")
        #expect(run.gaps.allSatisfy { $0 <= 0.2 }, "gaps \(run.gaps) s")
        #expect(run.streams == 1, "exactly one stream of the game's on the server after the moves, found \(run.streams)")
    }
}

extension AudioEngineDefaultMoveTests {
    @Test("on PipeWire too: five moves of a streamed player and of a loaded voice, nothing skipped or heard twice",
          arguments: [[], ["--voice", "--loaded"]])
    func movesOnPipeWire(options: [String]) async throws {
        let run = try await Self.run(options, server: .pipewire)
        let ms = run.skips.map { Double($0) * 1000 / 48_000 }
        print("AudioEngineDefaultMoveTests PipeWire \(options): skipped \(ms.map { String(format: "%.2f", $0) }) ms, gaps \(run.gaps.map { String(format: "%.0f", $0 * 1000) }) ms")
        // 2 ms: 96 frames at 48 kHz.
        #expect(run.skips.allSatisfy { abs($0) <= 96 }, "skipped (negative: repeated) \(run.skips) frames across the moves: \(run.moves)")
        #expect(run.gaps.allSatisfy { $0 <= 0.2 }, "gaps \(run.gaps) s")
        #expect(run.streams == 1, "exactly one stream of the game's on the server after the moves, found \(run.streams)")
    }
}
