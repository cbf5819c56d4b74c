import ArgumentParser
import Foundation
import SoundStage
import Synchronization

/// `soundstage-soak`: SoundStage under a game's load for a long time, offline faster than
/// real time or live on a sound server, checking that resident memory stays flat after the
/// warm-up, that the streamed music never has a gap in the output, and that no OpenAL object
/// is left behind. `scripts/soak.sh` runs both.
@main
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soundstage-soak",
        abstract: "Runs a game-like load for a long time and checks memory, gaps in the music, and OpenAL objects.",
        subcommands: [Offline.self, Live.self, Music.self, SelfTest.self])

    struct Common: ParsableArguments {
        @Option(help: "Minutes of the load.")
        var minutes: Double = 60
        @Option(help: "Minutes of warm-up before memory must stay flat (default: a tenth of the run, at least one).")
        var warmUp: Double?
        @Option(help: "The streamed music: a loop carrying a 97 Hz pilot tone (scripts/soak.sh makes it).")
        var music: String
        @Option(help: "The largest growth of resident memory after the warm-up, in bytes.")
        var memoryLimit: Int = 1_000_000
        @Option(help: "Seconds between moves of the output to another device.")
        var moveEvery: Double = 600
        @Option(help: "The most moves of the output (default: as many as the run has room for).")
        var moves: Int?

        var seconds: Double { minutes * 60 }
        var warmUpSeconds: Double { (warmUp ?? max(1, minutes / 10)) * 60 }
    }

    struct Offline: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Renders the load offline, as fast as it goes.")
        @OptionGroup var common: Common

        func run() throws {
            let format = RenderFormat(sampleRate: 48_000, channels: .stereo)
            let run = SoakRun(name: "offline", common: common)
            try run.go { () -> (AudioEngine, [AudioEngine.Output]) in
                (try AudioEngine(output: .offline(format), service: .manual()), [.offline(format)])
            } drive: { engine, load, progress in
                let block = format.sampleRate / 10
                var tracker = PilotTracker(rate: format.sampleRate)
                var mono = [Float](repeating: 0, count: block)
                var step = 0
                while Double(step) / 10 < common.seconds {
                    try load.advance(to: engine.currentTime)
                    let audio = try engine.render(frames: block)
                    audio.samples.withUnsafeBufferPointer { s in
                        for i in 0..<block { mono[i] = 0.5 * (s[2 * i] + s[2 * i + 1]) }
                    }
                    tracker.feed(mono)
                    step += 1
                    progress(engine.currentTime, [("output", tracker)])
                }
                return [("output", tracker)]
            }
        }
    }

    struct Music: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Writes the soak's music loop as a WAV file (8 s, 48 kHz stereo), for oggenc.")
        @Argument(help: "The WAV file to write.")
        var file: String

        func run() throws {
            try SoakMusic.loop().wavData(.pcm16).write(to: URL(fileURLWithPath: file))
        }
    }

    struct Live: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Plays the load on the sound server, recording each sink's monitor with parec.")
        @OptionGroup var common: Common
        @Option(name: .customLong("sink"), help: "A PulseAudio null sink whose description is its name; give two, and the output moves between them.")
        var sinks: [String] = []

        func run() throws {
            guard !sinks.isEmpty else { throw ValidationError("name a sink (--sink NAME)") }
            let run = SoakRun(name: "live", common: common)
            var recordings: [MonitorRecording] = []
            try run.go { () -> (AudioEngine, [AudioEngine.Output]) in
                let engine = try AudioEngine(output: .named(sinks[0]))
                return (engine, sinks.count > 1 ? sinks.map { .named($0) } : [])
            } drive: { engine, load, progress in
                recordings = try sinks.map { try MonitorRecording(sink: $0, rate: engine.context.frequency) }
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(common.seconds) {
                    try load.advance(to: engine.currentTime)
                    Thread.sleep(forTimeInterval: 0.05)
                    progress((ContinuousClock.now - start).seconds, [])
                }
                load.stop()
                Thread.sleep(forTimeInterval: 0.5)
                return recordings.map { ($0.sink, $0.stop()) }
            }
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// One soak: builds the engine and the load, drives it, samples memory and counts, and
/// judges the run at its end.
struct SoakRun {
    let name: String
    let common: Soak.Common

    /// Seconds after a move when memory is not sampled.
    static let moveSettling = 5.0

    typealias Progress = (Double, [(String, PilotTracker)]) -> Void

    func go(make: () throws -> (AudioEngine, [AudioEngine.Output]),
            drive: (AudioEngine, GameLoad, Progress) throws -> [(String, PilotTracker)]) throws {
        let began = ContinuousClock.now
        let tally = EventCounter()
        var memory = MemoryTrace(warmUpSeconds: common.warmUpSeconds)
        var trackers: [(String, PilotTracker)] = []
        var failures: [String] = []
        var maxSources = 0, maxBuffers = 0, movePeak = 0
        let start = (sources: Diagnostics.sourceCount, buffers: Diagnostics.bufferCount)
        var report: [String] = []
        do {
            let (engine, outputs) = try make()
            let events = engine.events()
            Task.detached {
                for await event in events { tally.counts.withLock { $0.note(event) } }
                tally.ended.signal()
            }
            let load = try GameLoad(engine: engine, music: URL(fileURLWithPath: common.music), outputs: outputs, moveEvery: common.moveEvery, moveLimit: common.moves)
            var nextSample = 0.0, nextLine = 0.0
            trackers = try drive(engine, load) { now, trackers in
                // While a move is under way the old context's voices (about 10 MB of OpenAL
                // Soft's memory) live beside the new one's until the old one goes.
                let moving = load.lastMoveAt.map { now - $0 < SoakRun.moveSettling } ?? false
                if moving, let bytes = ResidentMemory.bytes { movePeak = max(movePeak, bytes) }
                if now >= nextSample, !moving {
                    memory.sample(at: now)
                    maxSources = max(maxSources, Diagnostics.sourceCount)
                    maxBuffers = max(maxBuffers, Diagnostics.bufferCount)
                    nextSample += 10
                }
                if now >= nextLine {
                    let wall = (ContinuousClock.now - began).seconds
                    let counts = engine.voiceCounts
                    let rss = memory.samples.last.map { String(format: "%.1f MB", Double($0.bytes) / 1e6) } ?? "?"
                    let pilot = trackers.map { String(format: "pilot %@: %d faults, largest step %.2f deg", $0.0, $0.1.faultCount, $0.1.largestPhaseStep * 180 / .pi) }
                    print(String(format: "[%@] %@ of %@  %.1fx real time  RSS %@  voices %d (%d real)  sources %d  buffers %d  moves %d  underruns %d  %@",
                                 name, clock(now), clock(common.seconds), now / max(wall, 1e-9), rss, counts.playing, counts.real,
                                 Diagnostics.sourceCount, Diagnostics.bufferCount, load.moves.count, tally.counts.withLock { $0.underruns },
                                 pilot.joined(separator: "; ")))
                    if ProcessInfo.processInfo.environment["SOUNDSTAGE_SOAK_TRACE"] != nil {
                        for (label, tracker) in trackers { for fault in tracker.faults.prefix(8) { print("  \(label): \(fault)") } }
                    }
                    fflush(nil)
                    nextLine += 60
                }
            }
            load.stop()
            report.append("voices started \(load.started), refused \(load.refused); \(engine.voiceCounts)")
            for move in load.moves { report.append("moved: \(move)") }
            for (i, around) in load.sourcesAroundMoves.enumerated() {
                report.append("sources around move \(i + 1): \(around.before) before, \(around.after) a second after")
                if around.after > around.before { failures.append("move \(i + 1) left \(around.after - around.before) more sources") }
            }
            engine.shutdown()
        }
        // The engine is gone, so its event stream ends.
        if tally.ended.wait(timeout: .now() + 10) == .timedOut { failures.append("the engine's event stream did not end: the engine was not freed") }
        // The engine, its players, sounds and voices are gone: so must their OpenAL objects be.
        let end = (sources: Diagnostics.sourceCount, buffers: Diagnostics.bufferCount)
        let wall = (ContinuousClock.now - began).seconds
        report.append(String(format: "%@ of load in %.0f s (%.1fx real time)", clock(common.seconds), wall, common.seconds / wall))
        report.append("OpenAL sources: \(start.sources) before, at most \(maxSources) during, \(end.sources) after; buffers: \(start.buffers) before, at most \(maxBuffers) during, \(end.buffers) after")
        if end.sources != start.sources || end.buffers != start.buffers {
            failures.append("OpenAL objects left: \(end.sources - start.sources) sources, \(end.buffers - start.buffers) buffers")
        }
        if let base = memory.afterWarmUp, let growth = memory.growth, let endGrowth = memory.endGrowth {
            report.append(String(format: "resident memory: %.2f MB after the %@ warm-up, largest growth after it %+d bytes, %+d bytes at the end (%d samples)",
                                 Double(base.bytes) / 1e6, clock(common.warmUpSeconds), growth, endGrowth, memory.samples.count))
            if ProcessInfo.processInfo.environment["SOUNDSTAGE_SOAK_TRACE"] != nil {
                report.append("memory samples (s: MB): " + memory.samples.map { String(format: "%.0f: %.2f", $0.seconds, Double($0.bytes) / 1e6) }.joined(separator: ", "))
            }
            if movePeak > 0 {
                report.append(String(format: "resident memory within %.0f s of a move (two contexts at once): at most %.2f MB", SoakRun.moveSettling, Double(movePeak) / 1e6))
            }
            if growth >= common.memoryLimit { failures.append("resident memory grew \(growth) bytes after the warm-up (limit \(common.memoryLimit))") }
        } else {
            failures.append("no memory samples after the warm-up")
        }
        let events = tally.counts.withLock { $0 }
        report.append("events: \(events.underruns) stream underruns, \(events.serviceErrors) service errors, \(events.routeChanges) route changes, \(events.unavailable) outputs unavailable, \(events.latencyChanges) latency changes, \(events.dropouts) output dropouts the server played")
        if events.underruns > 0 { failures.append("\(events.underruns) stream underruns: \(events.firstProblems)") }
        if events.serviceErrors > 0 { failures.append("\(events.serviceErrors) service errors: \(events.firstProblems)") }
        for (label, tracker) in trackers {
            let heard = Double(tracker.loudBlocks * tracker.blockLength) / Double(tracker.rate)
            report.append(String(format: "music at %@: %.1f s of pilot heard in %.1f s, largest phase step %.3f degrees, smallest dip ratio %.3f, %d faults",
                                 label, heard, tracker.seconds, tracker.largestPhaseStep * 180 / .pi, tracker.smallestDipRatio, tracker.faultCount))
            for fault in tracker.faults.prefix(10) { report.append("  gap at \(label): \(fault)") }
            if tracker.faultCount > 0 { failures.append("\(tracker.faultCount) gaps in the music at \(label)") }
            if heard < 1 { failures.append("no music heard at \(label)") }
        }
        for line in report { print("[\(name)] \(line)") }
        if failures.isEmpty {
            print("[\(name)] PASS")
        } else {
            for failure in failures { print("[\(name)] FAIL: \(failure)") }
            throw ExitCode(1)
        }
    }

    private func clock(_ seconds: Double) -> String {
        String(format: "%d:%02d", Int(seconds) / 60, Int(seconds) % 60)
    }
}

/// The engine's events, counted as they come.
final class EventCounter: Sendable {
    let counts = Mutex(EventTally())
    /// Signalled when the engine's event stream has ended.
    let ended = DispatchSemaphore(value: 0)
}

/// The engine's events, counted.
struct EventTally {
    var underruns = 0, serviceErrors = 0, routeChanges = 0, unavailable = 0, latencyChanges = 0, dropouts = 0
    var firstProblems: [String] = []

    mutating func note(_ event: EngineEvent) {
        switch event {
        case .streamUnderrun: underruns += 1
        case .serviceError: serviceErrors += 1
        case .routeChanged: routeChanges += 1
        case .outputUnavailable: unavailable += 1
        case .latencyChanged: latencyChanges += 1
        case .outputDropout: dropouts += 1
        }
        if case .routeChanged = event { return }
        if firstProblems.count < 5 { firstProblems.append("\(event)") }
    }
}
