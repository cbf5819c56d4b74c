// soundstage-bench: SoundStage against raw OpenAL C (the CBaseline target) on the same work,
// in the same run, as ratios. Build and run with `make bench` (release mode).
//
//   soundstage-bench [--runs N] [--quick] [--only mix|engine|voices|effects|decode]     the table
//   soundstage-bench --workload NAME          one small fixed workload, for callgrind
import CBaseline
import Foundation
import SoundStage

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let quick = arguments.contains("--quick")
let runs = Int(option("--runs") ?? "") ?? (quick ? 3 : 5)
/// One group of the table: mix, engine, voices, effects or decode.
let only = option("--only")

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Seconds `body` took, its result released only after the clock stopped: the C baselines
/// read their clocks before they free what they decoded or delete their buffer, so the
/// Swift side times the same work (a 106 MB decode's release is tens of milliseconds).
func timedKeeping<T>(_ body: () throws -> T) rethrows -> Double {
    let start = now()
    let result = try body()
    let seconds = now() - start
    withExtendedLifetime(result) {}
    return seconds
}

func sineBuffer(_ context: AudioContext) throws -> AudioBuffer {
    let samples = (0..<48_000).map { 0.25 * sinf(2 * .pi * 440 * Float($0) / 48_000) }
    return try AudioBuffer(context: context, samples: samples, sampleRate: 48_000)
}

func loopback(hrtf: Bool, sources: Int) throws -> AudioContext {
    let device = try AudioDevice.openLoopback(format: RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32))
    return try AudioContext(device: device, attributes: ContextAttributes(monoSources: sources, stereoSources: 0, hrtf: hrtf ? .on : .off))
}

/// Seconds to render `frames` frames of `voices` looping positioned voices, SoundStage; with
/// `reverb`, each sends through both of its two sends to one EAX reverb slot (the second
/// through a lowpass), as `cbase_mix_reverb` does.
func swiftMix(voices: Int, frames: Int, block: Int, hrtf: Bool, reverb: Bool = false) throws -> Double {
    let context = try loopback(hrtf: hrtf, sources: voices)
    let buffer = try sineBuffer(context)
    var effects: (slot: EffectSlot, filter: AudioFilter)?
    if reverb {
        var settings = Reverb()
        settings.decayTime = 1.49
        settings.gain = 0.3162
        let slot = try EffectSlot(context: context)
        try slot.setEffect(try AudioEffect(context: context, .reverb(settings)))
        effects = (slot, try AudioFilter(context: context, .lowpass(gainHF: 0.5)))
    }
    let sources = try (0..<voices).map { i -> AudioSource in
        let angle = 2 * Float.pi * Float(i) / Float(voices)
        let source = try AudioSource(context: context)
        try source.setBuffer(buffer)
        try source.set(.isLooping, to: true)
        try source.set(.position, to: [4 * cosf(angle), 0, 4 * sinf(angle)])
        if let effects {
            try source.setSend(0, to: effects.slot)
            try source.setSend(1, to: effects.slot, filter: effects.filter)
        }
        return source
    }
    try AudioSource.play(sources)
    var out = [Float](repeating: 0, count: 2 * block)
    // Keep the voices alive while rendering: in release builds Swift may otherwise end the
    // array's lifetime after its last use above, and a released source stops playing.
    return try withExtendedLifetime(sources) {
        let start = now()
        var done = 0
        while done < frames {
            try out.withUnsafeMutableBytes { try context.device.render(into: $0, frames: block) }
            done += block
        }
        return now() - start
    }
}

/// Seconds spent in the position setters alone, SoundStage: one `set` per change, or all of a
/// frame's changes in one `AudioContext.update` batch.
func swiftSetters(count: Int, frames: Int, batched: Bool = false, bulk: Bool = false) throws -> Double {
    let context = try loopback(hrtf: false, sources: count)
    let buffer = try sineBuffer(context)
    let sources = try (0..<count).map { _ -> AudioSource in
        let source = try AudioSource(context: context)
        try source.setBuffer(buffer)
        try source.set(.isLooping, to: true)
        return source
    }
    try AudioSource.play(sources)
    var out = [Float](repeating: 0, count: 2 * 64)
    var positions = [SIMD3<Float>](repeating: .zero, count: count)
    var spent = 0.0
    for f in 0..<frames {
        let start = now()
        if bulk {
            // The game's new positions for the frame, then one call for all of them.
            for i in 0..<count { positions[i] = SIMD3(Float(i % 17), 0.5, -Float(f % 23)) }
            try context.update { batch in try batch.set(.position, of: sources, to: positions) }
        } else if batched {
            try context.update { batch in
                for (i, source) in sources.enumerated() {
                    try batch.set(.position, of: source, to: SIMD3(Float(i % 17), 0.5, -Float(f % 23)))
                }
            }
        } else {
            for (i, source) in sources.enumerated() {
                try source.set(.position, to: SIMD3(Float(i % 17), 0.5, -Float(f % 23)))
            }
        }
        spent += now() - start
        try out.withUnsafeMutableBytes { try context.device.render(into: $0, frames: 64) }
    }
    return spent
}

/// Frames from play() to the first non-zero rendered sample, SoundStage.
func swiftPlayLatency(block: Int) throws -> Int {
    let context = try loopback(hrtf: false, sources: 4)
    let source = try AudioSource(context: context)
    try source.setBuffer(try sineBuffer(context))
    try source.set(.position, to: [0, 0, -1])
    _ = try context.device.render(frames: block)
    try source.play()
    var rendered = 0
    while rendered < 48_000 {
        let audio = try context.device.render(frames: block)
        if let i = audio.samples.firstIndex(where: { $0 != 0 }) { return rendered + i / 2 }
        rendered += block
    }
    return -1
}

/// Frames from Player.play() to the first non-zero rendered sample, through an offline
/// AudioEngine whose service tick is one block.
func swiftPlayerLatency(block: Int) throws -> Int {
    let engine = try AudioEngine(output: .offline(RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)),
                                 attributes: ContextAttributes(hrtf: .off), service: .manual(tick: Double(block) / 48_000))
    defer { engine.shutdown() }
    let player = engine.makePlayer(Sound(buffer: try sineBuffer(engine.context)))
    try player.prepareToPlay()
    _ = try engine.render(frames: block)
    try player.play()
    var rendered = 0
    while rendered < 48_000 {
        let audio = try engine.render(frames: block)
        if let i = audio.samples.firstIndex(where: { $0 != 0 }) { return rendered + i / 2 }
        rendered += block
    }
    return -1
}

/// The four drum sounds of the demo.
let drumPaths = ["snare", "bass", "tambourine", "maraca"].map { "assets/drums/\($0).wav" }

/// Seconds to start an offline engine and load the four drums, each with a prepared player.
func swiftEngineStart() throws -> Double {
    let start = now()
    let engine = try AudioEngine(output: .offline(RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)),
                                 attributes: ContextAttributes(hrtf: .off), service: .manual())
    let players = try drumPaths.map { path -> Player in
        let player = engine.makePlayer(try Sound(engine: engine, contentsOf: URL(fileURLWithPath: path)))
        try player.prepareToPlay()
        return player
    }
    let seconds = now() - start
    withExtendedLifetime(players) {}
    engine.shutdown()
    return seconds
}

/// The same in C: loopback device and context, four WAVs read and uploaded, four sources.
func cEngineStart() -> Double {
    var pointers = drumPaths.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
            cbase_engine_start($0, Int32(buffer.count))
        }
    }
}

/// Seconds to move an offline engine with `players` playing looping players over `sounds`
/// loaded sounds of `frames` mono float frames each to a new loopback device.
func swiftMove(players count: Int, sounds soundCount: Int, frames: Int) throws -> Double {
    let format = RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)
    let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(monoSources: count, stereoSources: 0, hrtf: .off),
                                 service: .manual())
    let sounds = try (0..<soundCount).map { b -> Sound in
        let samples = (0..<frames).map { 0.25 * sinf(2 * .pi * Float(220 + b) * Float($0) / 48_000) }
        return Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: 48_000))
    }
    let players = try (0..<count).map { i -> Player in
        let angle = 2 * Float.pi * Float(i) / Float(count)
        let player = engine.makePlayer(sounds[i % soundCount])
        player.numberOfLoops = -1
        player.position = [4 * cosf(angle), 0, 4 * sinf(angle)]
        player.volume = 0.5
        try player.prepareToPlay()
        return player
    }
    try engine.play(players)
    _ = try engine.render(frames: 4_800)
    let start = now()
    try engine.switchOutput(to: .offline(format))
    let elapsed = now() - start
    withExtendedLifetime((players, sounds)) {}
    return elapsed
}

/// The audible gap when the device in use goes away (`--gap`): a private PulseAudio server
/// with two null sinks, an engine on the default one playing a tone, the sink unloaded.
/// From `pactl unload-module` to the engine playing on the other sink (polled every 0.5 ms),
/// plus the new device's output latency: the time no sound of the game reaches a sink, at
/// most. Runs before anything else touches OpenAL, which picks its backend once a process.
func measureGap(runs: Int) throws {
    let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-gap-\(getpid())")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    setenv("XDG_RUNTIME_DIR", runtime.path, 1)
    setenv("ALSOFT_DRIVERS", "pulse", 1)
    func shell(_ command: String) -> String {
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "" }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    _ = shell("pulseaudio -D -n --exit-idle-time=-1 --load=module-native-protocol-unix >/dev/null 2>&1")
    defer { _ = shell("pulseaudio --kill"); try? FileManager.default.removeItem(at: runtime) }
    for _ in 0..<100 where shell("pactl info >/dev/null 2>&1 && echo up") != "up" { usleep(50_000) }
    var detected: [Double] = [], upper: [Double] = [], latencies: [Double] = [], roundTrips: [Double] = []
    for run in 0..<runs {
        let first = shell("pactl load-module module-null-sink sink_name=first\(run)")
        let second = shell("pactl load-module module-null-sink sink_name=second\(run)")
        _ = shell("pactl set-default-sink first\(run)")
        let engine = try AudioEngine()
        let player = engine.makePlayer(try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 1))
        player.numberOfLoops = -1
        player.outputLossPolicy = .keepPlaying
        try player.play()
        usleep(500_000)
        let old = engine.device
        let t0 = now()
        _ = shell("pactl unload-module \(first)")
        let t1 = now()
        while engine.device === old && now() - t0 < 5 { usleep(500) }
        let t2 = now()
        // OpenAL Soft's pulse backend reads a latency of about 1 ms just after a start; it
        // settles within a second or so.
        usleep(1_500_000)
        let latency = player.audioSource?.get(.offsetWithLatency).latency ?? 0
        let p0 = now()
        _ = shell("pactl info >/dev/null")
        roundTrips.append((now() - p0) * 1_000)
        detected.append((t2 - t1) * 1_000)
        upper.append((t2 - t0 + latency) * 1_000)
        latencies.append(latency * 1_000)
        engine.shutdown()
        withExtendedLifetime(engine) {}
        _ = shell("pactl unload-module \(second)")
    }
    print("Device loss on PulseAudio (\(runs) runs, median (min-max)):")
    print("| figure | ms |")
    print("|---|---|")
    print("| pactl unload-module returned -> the engine plays on the other sink | \(spread(detected)) |")
    print("| a pactl command's own round trip (sh + pactl info), part of the next row | \(spread(roundTrips)) |")
    print("| new device's output latency, 1.5 s after the move | \(spread(latencies)) |")
    print("| audible gap, at most: unload started -> new sink, plus its latency (goal <= 200 ms) | \(spread(upper)) |")
}

if arguments.contains("--gap") {
    try measureGap(runs: runs)
    exit(0)
}

/// The voice tick: `voices` looping emitters moving every frame, `real` of them real. Each
/// tick moves them all (one setPositions call; with `inPlace`, one moveVoices call that moves
/// each by its step where it is, as the C loop does; with `reversed` too, from the last slot to
/// the first) and runs the engine's service tick. Returns the median seconds of a tick over
/// `ticks`.
func swiftVoiceTick(voices count: Int, real: Int, ticks: Int, inPlace: Bool = false, reversed: Bool = false) throws -> Double {
    let engine = try AudioEngine(output: .offline(RenderFormat()), attributes: ContextAttributes(monoSources: real + real / 4 + 1, hrtf: .off),
                                 service: .manual())
    defer { engine.shutdown() }
    try engine.configureVoices(VoiceConfiguration(realVoices: real, maxVoices: max(count, 16_384)))
    let sound = Sound(buffer: try sineBuffer(engine.context))
    var seed: UInt32 = 1
    func next() -> Float {
        seed = seed &* 1_103_515_245 &+ 12_345
        return Float(seed % 20_000) / 100 - 100
    }
    var moves: [(Voice, SIMD3<Float>)] = []
    for _ in 0..<count {
        let p = SIMD3<Float>(next(), 0, next())
        moves.append((try engine.play(sound, at: p, loops: -1), p))
    }
    // A game's emitters need not be in the order of their slots (a slot is reused as voices
    // end): `reversed` moves them from the last slot to the first.
    let voices = reversed ? moves.reversed().map(\.0) : moves.map(\.0)
    var times: [Double] = []
    for _ in 0..<ticks {
        let start = now()
        if inPlace {
            engine.moveVoices { positions in
                for voice in voices { positions.move(voice, by: [0.01, 0, 0]) }
            }
        } else {
            for k in moves.indices { moves[k].1.x += 0.01 }
            engine.setPositions(moves)
        }
        engine.update()
        times.append(now() - start)
    }
    return median(times)
}

/// Seconds to render `frames` of a full pool of `real` looping voices through the engine
/// (ticks every 10 ms included).
func swiftPoolMix(real: Int, frames: Int) throws -> Double {
    let engine = try AudioEngine(output: .offline(RenderFormat()), attributes: ContextAttributes(monoSources: real + real / 4 + 1, hrtf: .off),
                                 service: .manual())
    defer { engine.shutdown() }
    try engine.configureVoices(VoiceConfiguration(realVoices: real))
    let sound = Sound(buffer: try sineBuffer(engine.context))
    for i in 0..<real {
        let angle = 2 * Float.pi * Float(i) / Float(real)
        try engine.play(sound, at: [4 * cosf(angle), 0, 4 * sinf(angle)], loops: -1)
    }
    _ = try engine.render(frames: 480)
    let start = now()
    var done = 0
    while done < frames {
        _ = try engine.render(frames: 4_800)
        done += 4_800
    }
    return now() - start
}

// MARK: - Callgrind workloads: small, fixed, one process each.

if let workload = option("--workload") {
    let tickVoices = Int(option("--voices") ?? "") ?? 10_000, ticks = Int(option("--ticks") ?? "") ?? 20
    switch workload {
    case "setters-swift": _ = try swiftSetters(count: 256, frames: 200)
    case "setters-batch-swift": _ = try swiftSetters(count: 256, frames: 200, batched: true)
    case "setters-bulk-swift": _ = try swiftSetters(count: 256, frames: 200, bulk: true)
    case "setters-c": _ = cbase_setters(256, 200)
    case "setters-deferred-c": _ = cbase_setters_deferred(256, 200)
    case "mix-swift": _ = try swiftMix(voices: 64, frames: 4_800, block: 480, hrtf: false)
    case "mix-c": _ = cbase_mix(64, 4_800, 480, 0)
    case "decode-swift": _ = try SoundFile.decode(contentsOf: URL(fileURLWithPath: ".build/bench-assets/five-minutes.ogg"))
    case "decode-c": _ = cbase_decode_vorbis(".build/bench-assets/five-minutes.ogg")
    case "wav-swift":
        let context = try loopback(hrtf: false, sources: 4)
        let t = now()
        _ = try AudioBuffer(context: context, contentsOf: URL(fileURLWithPath: ".build/bench-assets/hundred-mb.wav"))
        print(String(format: "%.1f ms", (now() - t) * 1_000))
    case "wav-c": print(String(format: "%.1f ms", cbase_load_wav(".build/bench-assets/hundred-mb.wav") * 1_000))
    case "engine-swift":
        // The service loop's own cost: 64 players looping a 100 ms sound (queued plays),
        // one second rendered in 10 ms ticks.
        let engine = try AudioEngine(output: .offline(RenderFormat()), attributes: ContextAttributes(monoSources: 64, hrtf: .off), service: .manual())
        let sound = Sound(buffer: try AudioBuffer(context: engine.context, samples: [Float](repeating: 0.01, count: 4_800), sampleRate: 48_000))
        let players = (0..<64).map { _ in engine.makePlayer(sound) }
        for player in players { player.numberOfLoops = 1_000 }
        try engine.play(players)
        _ = try engine.render(frames: 48_000)
        engine.shutdown()
    case "volume-swift":
        // A playing player's volume written 100,000 times (`--writes N`; 0 gives the set-up
        // alone, to subtract).
        let engine = try AudioEngine(output: .offline(RenderFormat()), attributes: ContextAttributes(hrtf: .off), service: .manual())
        let player = engine.makePlayer(Sound(buffer: try AudioBuffer(context: engine.context, samples: [Float](repeating: 0.01, count: 4_800), sampleRate: 48_000)))
        player.numberOfLoops = -1
        try player.play()
        for i in 0..<(Int(option("--writes") ?? "") ?? 100_000) { try player.setVolume(i & 1 == 1 ? 0.25 : 0.5) }
        engine.shutdown()
    case "volume-c": _ = cbase_volume_writes(Int32(option("--writes") ?? "") ?? 100_000)
    // 10,000 voices played (`--voices N`), then 20 ticks (`--ticks N`: the tick's own count
    // is the difference between two counts).
    case "voices-swift": _ = try swiftVoiceTick(voices: tickVoices, real: 64, ticks: ticks)
    case "voices-inplace-swift": _ = try swiftVoiceTick(voices: tickVoices, real: 64, ticks: ticks, inPlace: true)
    case "voices-c": _ = cbase_voice_tick(Int32(tickVoices), 64, Int32(ticks))
    case "voices-moves-c": _ = cbase_voice_tick_moves(Int32(tickVoices), 64, Int32(ticks), 1)
    // One second of a full pool (`--frames N`), and the seconds it took.
    case "pool-swift": print(try swiftPoolMix(real: 192, frames: Int(option("--frames") ?? "") ?? 48_000))
    case "pool-c": print(cbase_mix(192, Int32(option("--frames") ?? "") ?? 48_000, 480, 0))
    case "none": break   // process start-up only, subtracted from the others
    default:
        FileHandle.standardError.write(Data("unknown workload \(workload); use setters-swift, setters-batch-swift, setters-bulk-swift, setters-c, mix-swift, mix-c, voices-swift, voices-inplace-swift, voices-c, voices-moves-c, volume-swift, volume-c, pool-swift, pool-c (--frames N), decode-swift, decode-c, wav-swift, wav-c or engine-swift (after one full run made the files)\n".utf8))
        exit(2)
    }
    exit(0)
}

// MARK: - The table

struct Figure {
    let name: String
    let unit: String
    let swift: [Double]
    let c: [Double]
    /// SoundStage over C: for throughput higher is better, for costs lower is better.
    let ratio: (Double, Double) -> Double
    let goal: String
    let met: (Double) -> Bool
}

func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
func fmt(_ v: Double) -> String { v >= 100 ? String(format: "%.0f", v) : v >= 10 ? String(format: "%.1f", v) : String(format: "%.2f", v) }
func spread(_ v: [Double]) -> String { "\(fmt(median(v))) (\(fmt(v.min()!))-\(fmt(v.max()!)))" }

/// Runs the Swift and C measurements `runs` times each, interleaved.
func measure(_ swift: () throws -> Double, _ c: () -> Double) throws -> ([Double], [Double]) {
    var s: [Double] = [], k: [Double] = []
    for _ in 0..<runs {
        s.append(try swift())
        k.append(try succeeded(c()))
    }
    return (s, k)
}

/// A C baseline's figure; a negative one is its failure.
func succeeded(_ value: Double) throws -> Double {
    guard value >= 0 else { throw SoundStageError(.invalidState, operation: "C baseline", object: "benchmark", reason: "the C baseline failed") }
    return value
}

var figures: [Figure] = []
let mixSeconds = quick ? 0.5 : 2.0
for (voices, hrtf) in only == nil || only == "mix" ? [(256, false), (4096, false), (256, true), (4096, true)] : [] {
    // Audio seconds rendered: less for the heavy cases so each run stays around a second.
    let audio = voices == 4096 ? (hrtf ? mixSeconds / 8 : mixSeconds / 2) : mixSeconds
    let frames = Int(audio * 48_000) / 1_024 * 1_024
    let (s, c) = try measure({ Double(frames) / 48_000 / (try swiftMix(voices: voices, frames: frames, block: 1_024, hrtf: hrtf)) },
                             { let t = cbase_mix(Int32(voices), Int32(frames), 1_024, hrtf ? 1 : 0); return t < 0 ? t : Double(frames) / 48_000 / t })
    figures.append(Figure(name: "mix \(voices) voices, HRTF \(hrtf ? "on" : "off")", unit: "x real time", swift: s, c: c,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
}
if only == nil || only == "engine" {
    let count = 256, frames = quick ? 500 : 2_000
    let calls = Double(count * frames)
    let (s, c) = try measure({ try swiftSetters(count: count, frames: frames) / calls * 1e9 },
                             { let t = cbase_setters(Int32(count), Int32(frames)); return t < 0 ? t : t / calls * 1e9 })
    figures.append(Figure(name: "position setter, 256 sources, one set() each", unit: "ns per call", swift: s, c: c,
                          ratio: { $0 / $1 }, goal: "<= 1.2", met: { $0 <= 1.2 }))
    // A batch defers its changes so the mixer sees them together (alDeferUpdatesSOFT /
    // alProcessUpdatesSOFT): compared with C doing the same, and with plain C for reference.
    let deferredC = { let t = cbase_setters_deferred(Int32(count), Int32(frames)); return t < 0 ? t : t / calls * 1e9 }
    let (b, c2) = try measure({ try swiftSetters(count: count, frames: frames, batched: true) / calls * 1e9 }, deferredC)
    figures.append(Figure(name: "position setter, 256 sources, one update batch a frame (C defers too)", unit: "ns per call", swift: b, c: c2,
                          ratio: { $0 / $1 }, goal: "<= 1.1", met: { $0 <= 1.1 }))
    figures.append(Figure(name: "position setter, 256 sources, one update batch a frame, against C without deferring", unit: "ns per call", swift: b, c: c,
                          ratio: { $0 / $1 }, goal: "(reference)", met: { _ in true }))
    let (k, c3) = try measure({ try swiftSetters(count: count, frames: frames, bulk: true) / calls * 1e9 }, deferredC)
    figures.append(Figure(name: "position setter, 256 sources, all in one batch.set(_:of:to:) a frame (C defers too)", unit: "ns per source", swift: k, c: c3,
                          ratio: { $0 / $1 }, goal: "<= 1.05", met: { $0 <= 1.05 }))
}
if only == nil || only == "engine" {
    let block = 1_024
    let (s, c) = try measure({ Double(try swiftPlayLatency(block: block)) }, { Double(cbase_play_latency(Int32(block))) })
    figures.append(Figure(name: "play() to first sample (block \(block))", unit: "frames", swift: s, c: c,
                          ratio: { $0 - $1 }, goal: "<= +\(block) frames", met: { $0 <= Double(block) }))
}

if only == nil || only == "engine" {
    let block = 1_024
    let (s, c) = try measure({ Double(try swiftPlayerLatency(block: block)) }, { Double(cbase_play_latency(Int32(block))) })
    figures.append(Figure(name: "Player.play() through the engine to first sample (block and tick \(block))", unit: "frames", swift: s, c: c,
                          ratio: { $0 - $1 }, goal: "<= +\(block) frames", met: { $0 <= Double(block) }))
    guard FileManager.default.fileExists(atPath: drumPaths[0]) else {
        FileHandle.standardError.write(Data("run soundstage-bench from the package folder: it loads assets/drums\n".utf8))
        exit(2)
    }
    let (e, ce) = try measure({ try swiftEngineStart() * 1_000 }, { let t = cEngineStart(); return t < 0 ? t : t * 1_000 })
    figures.append(Figure(name: "engine start + 4 drum sounds loaded, players prepared (SoundStage ms is the goal)", unit: "ms", swift: e, c: ce,
                          ratio: { $0 / $1 }, goal: "SoundStage <= 50 ms", met: { _ in median(e) <= 50 }))
}

if only == nil || only == "engine" {
    // 64 sounds of 40,960 float frames: 10 MiB of samples.
    let (s, c) = try measure({ try swiftMove(players: 256, sounds: 64, frames: 40_960) * 1_000 },
                             { let t = cbase_move(256, 64, 40_960); return t < 0 ? t : t * 1_000 })
    figures.append(Figure(name: "move an engine to a new device: 256 playing players, 64 buffers (10 MB) (SoundStage ms is the goal)", unit: "ms",
                          swift: s, c: c, ratio: { $0 / $1 }, goal: "SoundStage <= 50 ms", met: { _ in median(s) <= 50 }))
}

if only == nil || only == "voices" {
    // The voice tick: 64 real voices, every voice moved every frame; cost linear in voices.
    let ticks = quick ? 50 : 200
    let sizes = [1_000, 10_000, 100_000]
    /// One line of the voice tick: each run times SoundStage and C at 1,000, 10,000 and
    /// 100,000 voices back to back (`swift` and `c` take the voices and the ticks, and return
    /// ms), so that a host whose speed drifts from run to run moves the three sizes together.
    /// Linear: each voice past 10,000 costs what each from 1,000 to 10,000 did, within 25 %;
    /// the figure is the median of each run's own. C's is printed beside it: where the C loop
    /// is not linear either, the data outgrew a cache, not the code. `reference`, another loop
    /// (C, or SoundStage's moved in another order), is timed at 100,000 voices in the same runs.
    typealias TickLine = (s: [Int: [Double]], c: [Int: [Double]], line: Double, cLine: Double, reference: [Double])
    func tickLine(_ swift: (Int, Int) throws -> Double, _ c: (Int, Int) -> Double, reference: ((Int, Int) throws -> Double)? = nil) throws -> TickLine {
        var s: [Int: [Double]] = [:], k: [Int: [Double]] = [:], r: [Double] = []
        for _ in 0..<runs {
            for voices in sizes {
                let n = voices == 100_000 ? max(10, ticks / 10) : ticks
                s[voices, default: []].append(try swift(voices, n))
                k[voices, default: []].append(try succeeded(c(voices, n)))
                if voices == 100_000, let reference { r.append(try succeeded(reference(voices, n))) }
            }
        }
        func line(_ m: [Int: [Double]]) -> Double {
            let small = m[1_000]!, middle = m[10_000]!, large = m[100_000]!
            return median((0..<runs).map { (r: Int) -> Double in
                let late: Double = (large[r] - middle[r]) / 90_000, early: Double = (middle[r] - small[r]) / 9_000
                // A run whose 10,000 voices took no longer than its 1,000 shows no line: not met.
                return early > 0 ? late / early : .infinity
            })
        }
        return (s, k, line(s), line(k), r)
    }
    func lineGoal(_ t: TickLine) -> String {
        "linear: per voice past 10,000 within 25 % of 1,000-10,000 (\(String(format: "%.2f", t.line)); C \(String(format: "%.2f", t.cLine)))"
    }
    // With `setPositions`, against the C loop given the same array of moves (the game's
    // 32-byte moves, each checked and written to a position lane the scoring reads): the
    // array is the API's, and C that gets one does the same work.
    // The C loop that moves in place, in ms.
    let plainC = { (voices: Int, ticks: Int) -> Double in let t = cbase_voice_tick(Int32(voices), 64, Int32(ticks)); return t < 0 ? t : t * 1_000 }
    let moving = try tickLine({ try swiftVoiceTick(voices: $0, real: 64, ticks: $1) * 1_000 },
                              { let t = cbase_voice_tick_moves(Int32($0), 64, Int32($1), 1); return t < 0 ? t : t * 1_000 }, reference: plainC)
    // Moved in place (moveVoices), as the C loop moves them; and, at 100,000 voices, from the
    // last slot to the first.
    let inPlace = try tickLine({ try swiftVoiceTick(voices: $0, real: 64, ticks: $1, inPlace: true) * 1_000 }, plainC,
                               reference: { try swiftVoiceTick(voices: $0, real: 64, ticks: $1, inPlace: true, reversed: true) * 1_000 })
    for voices in sizes {
        let s = moving.s[voices]!, c = moving.c[voices]!
        var goal = "within 1.5x of C", met = median(s) <= 1.5 * median(c)
        if voices == 10_000 {
            goal += "; SoundStage <= 0.5 ms"
            met = met && median(s) <= 0.5
        } else if voices == 100_000 {
            goal += "; " + lineGoal(moving)
            met = met && moving.line <= 1.25
        }
        figures.append(Figure(name: "voice tick, \(voices) voices moving (setPositions; C given the same array of moves), 64 real (SoundStage ms per tick)",
                              unit: "ms", swift: s, c: c, ratio: { $0 / $1 }, goal: goal, met: { _ in met }))
    }
    // For reference: the game's array of moves and `setPositions` against the C loop that has
    // none (the issue's first measure), timed in the same runs.
    figures.append(Figure(name: "voice tick, 100000 voices moving (setPositions), against the C loop moving in place", unit: "ms",
                          swift: moving.s[100_000]!, c: moving.reference, ratio: { $0 / $1 }, goal: "(reference)", met: { _ in true }))
    for voices in sizes {
        let s = inPlace.s[voices]!, c = inPlace.c[voices]!
        var goal = "within 1.5x of C", met = median(s) <= 1.5 * median(c)
        if voices == 100_000 {
            goal += "; " + lineGoal(inPlace)
            met = met && inPlace.line <= 1.25
        }
        figures.append(Figure(name: "voice tick, \(voices) voices moved in place (moveVoices), 64 real (SoundStage ms per tick)", unit: "ms",
                              swift: s, c: c, ratio: { $0 / $1 }, goal: goal, met: { _ in met }))
    }
    // The game's voices moved from the last slot to the first, beside the C loop (whose order
    // is its own arrays'), timed in the same runs.
    let reversed = inPlace.reference, plain = inPlace.c[100_000]!
    figures.append(Figure(name: "voice tick, 100000 voices moved in place from the last slot to the first (moveVoices), 64 real (SoundStage ms per tick)",
                          unit: "ms", swift: reversed, c: plain, ratio: { $0 / $1 }, goal: "within 1.5x of C",
                          met: { _ in median(reversed) <= 1.5 * median(plain) }))
    let real = 192, frames = Int((quick ? 0.5 : 2.0) * 48_000) / 4_800 * 4_800
    let (s, c) = try measure({ Double(frames) / 48_000 / (try swiftPoolMix(real: real, frames: frames)) },
                             { let t = cbase_mix(Int32(real), Int32(frames), 480, 0); return t < 0 ? t : Double(frames) / 48_000 / t })
    figures.append(Figure(name: "mix a full pool: \(real) real voices through the engine, ticks included", unit: "x real time", swift: s, c: c,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
}

if only == nil || only == "effects" {
    // 256 voices, one reverb slot, two sends each.
    let frames = Int((quick ? 0.25 : 1.0) * 48_000) / 1_024 * 1_024
    let (s, c) = try measure({ Double(frames) / 48_000 / (try swiftMix(voices: 256, frames: frames, block: 1_024, hrtf: false, reverb: true)) },
                             { let t = cbase_mix_reverb(256, Int32(frames), 1_024); return t < 0 ? t : Double(frames) / 48_000 / t })
    figures.append(Figure(name: "mix 256 voices with one reverb slot, two sends each", unit: "x real time", swift: s, c: c,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
}

// MARK: - Decoding

/// Makes (once) the decoding benchmark's files in .build/bench-assets: a 5-minute stereo
/// Ogg Vorbis file, the same 5 minutes as 16-bit FLAC, Opus and MP3, and a 100 MB stereo
/// 16-bit WAV.
func benchAssets() throws -> (ogg: URL, flac: URL, opus: URL, mp3: URL, wav: URL) {
    let folder = URL(fileURLWithPath: ".build/bench-assets")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let ogg = folder.appendingPathComponent("five-minutes.ogg"), wav = folder.appendingPathComponent("hundred-mb.wav")
    let flac = folder.appendingPathComponent("five-minutes.flac")
    let opus = folder.appendingPathComponent("five-minutes.opus"), mp3 = folder.appendingPathComponent("five-minutes.mp3")
    func run(_ command: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw SoundStageError(.invalidState, operation: command, object: "benchmark", reason: "failed") }
    }
    if ![ogg, flac, opus, mp3].allSatisfy({ FileManager.default.fileExists(atPath: $0.path) }) {
        let src = folder.appendingPathComponent("five-minutes.wav").path
        try run("sox -n -r 44100 -c 2 -b 16 \(src) synth 300 pinknoise sine 220-880 gain -6 && oggenc -Q -q 5 -o \(ogg.path) \(src)"
                + " && flac -s -f -o \(flac.path) \(src) && opusenc --quiet \(src) \(opus.path) && lame --quiet -b 192 \(src) \(mp3.path) && rm \(src)")
    }
    if !FileManager.default.fileExists(atPath: wav.path) {
        // 25,000,000 frames x 4 bytes = 100 MB of samples.
        try run("sox -n -r 48000 -c 2 -b 16 \(wav.path) synth 25000000s sine 440 sine 660 gain -6")
    }
    return (ogg, flac, opus, mp3, wav)
}

/// Wall-clock seconds of a shell command.
func timeCommand(_ command: String) -> Double {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    let start = now()
    guard (try? p.run()) != nil else { return -1 }
    p.waitUntilExit()
    return p.terminationStatus == 0 ? now() - start : -1
}

if !arguments.contains("--no-decode") && (only == nil || only == "decode") {
    let (ogg, flac, opus, mp3, wav) = try benchAssets()
    let audioSeconds = 300.0
    let (s, o) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: ogg) }) },
                             { let t = timeCommand("oggdec -Q -o /dev/null '\(ogg.path)'"); return t < 0 ? t : audioSeconds / t })
    figures.append(Figure(name: "decode 5-min stereo Ogg Vorbis, against oggdec", unit: "x real time", swift: s, c: o,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
    let (s2, c2) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: ogg) }) },
                               { let t = cbase_decode_vorbis(ogg.path); return t < 0 ? t : audioSeconds / t })
    figures.append(Figure(name: "decode 5-min stereo Ogg Vorbis, against C ov_read_float", unit: "x real time", swift: s2, c: c2,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
    let (s4, f4) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: flac) }) },
                               { let t = timeCommand("flac -s -d -c -f '\(flac.path)' > /dev/null"); return t < 0 ? t : audioSeconds / t })
    figures.append(Figure(name: "decode 5-min stereo FLAC, against flac -d", unit: "x real time", swift: s4, c: f4,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
    let (s5, c5) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: flac) }) },
                               { let t = cbase_decode_flac(flac.path); return t < 0 ? t : audioSeconds / t })
    figures.append(Figure(name: "decode 5-min stereo FLAC, against a C libFLAC loop", unit: "x real time", swift: s5, c: c5,
                          ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
    for (label, file, command, c) in [("Opus", opus, "opusdec --quiet --float '\(opus.path)' /dev/null", cbase_decode_opus),
                                     ("MP3", mp3, "mpg123 -q -e f32 -s '\(mp3.path)' > /dev/null", cbase_decode_mp3)] {
        let (s, r) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: file) }) },
                                 { let t = timeCommand(command); return t < 0 ? t : audioSeconds / t })
        figures.append(Figure(name: "decode 5-min stereo \(label), against \(command.split(separator: " ").first!)", unit: "x real time", swift: s, c: r,
                              ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
        let (s2, c2) = try measure({ audioSeconds / (try timedKeeping { try SoundFile.decode(contentsOf: file) }) },
                                   { let t = c(file.path); return t < 0 ? t : audioSeconds / t })
        figures.append(Figure(name: "decode 5-min stereo \(label), against a C loop", unit: "x real time", swift: s2, c: c2,
                              ratio: { $0 / $1 }, goal: ">= 0.95", met: { $0 >= 0.95 }))
    }
    let context = try loopback(hrtf: false, sources: 4)
    let size = Double((try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0)
    let (s3, c3) = try measure({ size / (try timedKeeping { try AudioBuffer(context: context, contentsOf: wav) }) / 1e9 },
                               { let t = cbase_load_wav(wav.path); return t < 0 ? t : size / t / 1e9 })
    figures.append(Figure(name: "load 100 MB PCM16 WAV into a buffer (SoundStage GB/s is the goal)", unit: "GB/s", swift: s3, c: c3,
                          ratio: { $0 / $1 }, goal: "SoundStage >= 1 GB/s", met: { _ in median(s3) >= 1 }))
}

let processor = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
print("SoundStage benchmarks, \(runs) runs each, median (min-max); \(ProcessInfo.processInfo.activeProcessorCount) cores, \(processor)")
print("")
print("| figure | unit | SoundStage | raw C | ratio | goal | met |")
print("|---|---|---|---|---|---|---|")
for f in figures {
    let r = f.ratio(median(f.swift), median(f.c))
    let ratioText = f.goal.hasPrefix("<= +") ? String(format: "%+.0f", r) : String(format: "%.2f", r)
    print("| \(f.name) | \(f.unit) | \(spread(f.swift)) | \(spread(f.c)) | \(ratioText) | \(f.goal) | \(f.met(r) ? "yes" : "no") |")
}
