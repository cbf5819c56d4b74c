// The API target: each input is a program of public API calls on an offline engine (players,
// voices, buses, effects, ducking, interruptions, HRTF, renders, scheduling at times and
// frames, crossfades and starts on a beat, tempos, latency switches), one call a byte and its
// arguments from the bytes after it, arguments in and out of range, and now and then at the
// edges of Double and Int (±1e300, the largest finite, subnormals, Int.max). Run under OpenAL Soft's
// error traps (scripts/fuzz.sh sets them): a call either works or throws a SoundStageError
// that names its object and a reason; nothing crashes, OpenAL never sees a bad value, and
// LeakSanitizer finds nothing left when the engine goes.
import Foundation
import SoundStage

/// The bytes of one input, read as the program's calls and arguments (zeros once used up).
struct FuzzBytes {
    private let bytes: [UInt8]
    private var index = 0
    init(_ data: Data) { bytes = Array(data) }

    var isEmpty: Bool { index >= bytes.count }
    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }
    /// An integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(byte()) % (range.count) }
    /// An integer in `range`, or now and then one at the edges of Int (a count, a frame).
    mutating func wideInt(_ range: ClosedRange<Int>) -> Int {
        let b = byte()
        guard b >= 248 else { return range.lowerBound + Int(b) % range.count }
        return [Int.max, Int.min, Int.max / 2, -1, 1 << 40, Int(Int32.max) + 1, -(1 << 40), 0][Int(b - 248)]
    }
    /// A number across `range` in 240 steps, or now and then one out of every range: NaN, the
    /// infinities, ±1e30, ±1e300 (±infinity as a Float), the largest finite, the smallest
    /// subnormal, -0 and 1e18.
    mutating func float(_ range: ClosedRange<Float>) -> Float { Float(double(Double(range.lowerBound)...Double(range.upperBound))) }
    /// As ``float(_:)``, with the extremes of Double.
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        let b = byte()
        guard b >= 240 else { return range.lowerBound + (range.upperBound - range.lowerBound) * Double(b) / 239 }
        let extremes: [Double] = [.nan, .infinity, -.infinity, 1e30, -1e30, 1e300, -1e300, .greatestFiniteMagnitude,
                                  -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, -0.0, 1e18, -1e18,
                                  Double(Float.greatestFiniteMagnitude), Double(Int.max)]
        return extremes[Int(b - 240)]
    }
    mutating func position() -> SIMD3<Float> { [float(-20...20), float(-5...5), float(-20...20)] }
    /// A transition point: now, the next beat or bar, or a time near now or at Double's edges.
    mutating func transition(_ engine: AudioEngine) -> TransitionPoint {
        switch byte() % 4 {
        case 0: .now
        case 1: .nextBeat
        case 2: .nextBar
        default: .atTime(engine.currentTime + double(-0.5...0.5))
        }
    }
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...(items.count - 1))] }
}

/// A WAV file's bytes, made once, for streamed sounds: an array, not `Data`, as
/// LeakSanitizer cannot follow `Data`'s storage from a global and would report it.
let fuzzStreamBytes: [UInt8] = {
    let samples = (0..<9_600).map { Float(sin(Double($0) * 0.05)) * 0.5 }
    return Array(RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono, sampleType: .float32), samples: samples).wavData(.pcm16))
}()

func fuzzAPI(_ data: Data) {
    var b = FuzzBytes(data)
    let format = RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)
    let engine: AudioEngine
    do { engine = try AudioEngine(output: .offline(format), service: .manual()) } catch { preconditionFailure("no offline engine: \(error)") }
    defer { engine.shutdown() }
    var sounds: [Sound] = []
    do {
        sounds.append(try Sound(engine: engine, waveform: .sine, frequency: 440, duration: 0.2))
        sounds.append(try Sound(engine: engine, waveform: .square, frequency: 100, duration: 0.02))
        sounds.append(try Sound(engine: engine, streamingData: Data(fuzzStreamBytes), name: "fuzz-stream.wav"))
    } catch { preconditionFailure("sounds: \(error)") }
    var players: [Player] = [], voices: [Voice] = []
    var buses = [engine.masterBus, engine.musicBus, engine.effectsBus, engine.uiBus, engine.dialogBus]
    var calls = 0
    let trace = ProcessInfo.processInfo.environment["SOUNDSTAGE_FUZZ_TRACE"] != nil
    while !b.isEmpty, calls < 256 {
        calls += 1
        let call = b.byte() % 36
        if trace { print("call \(call): players \(players.count), voices \(voices.count), buses \(buses.count)") }
        do {
            switch call {
            case 0: if players.count < 12, let sound = b.pick(sounds) { players.append(engine.makePlayer(sound)) }
            case 1: try b.pick(players)?.play()
            case 2: b.pick(players)?.pause()
            case 3: b.pick(players)?.stop()
            case 4: try b.pick(players)?.seek(to: b.double(-0.1...0.3))
            case 5: try b.pick(players)?.setVolume(b.float(-0.2...1.2))
            case 6: try b.pick(players)?.setRate(b.float(0...2.5))
            case 7: b.pick(players)?.numberOfLoops = b.wideInt(-2...3)
            case 8: b.pick(players)?.position = b.byte() % 4 == 0 ? nil : b.position()
            case 9: try b.pick(players)?.fade(to: b.float(-0.2...1.2), duration: b.double(-0.1...0.3), stopAtEnd: b.byte() % 2 == 0)
            case 10: try b.pick(players)?.setPan(b.float(-1.5...1.5))
            case 11:
                // A Range cannot be made backwards (or of NaN): those become no region.
                let (start, end) = (b.double(-0.05...0.25), b.double(0...0.3))
                try b.pick(players)?.setLoopRegion(b.byte() % 3 == 0 || !(start <= end) ? nil : start..<end)
            case 12:
                if let sound = b.pick(sounds) {
                    let voice = try engine.play(sound, at: b.byte() % 3 == 0 ? nil : b.position(), volume: b.float(-0.1...1.1),
                                                pitch: b.float(0...3), priority: b.wideInt(-2...260), loops: b.wideInt(-2...2), bus: b.pick(buses))
                    if voices.count < 64 { voices.append(voice) }
                }
            case 13: _ = b.pick(voices)?.stop()
            case 14: if let voice = b.pick(voices) { _ = b.byte() % 2 == 0 ? voice.pause() : voice.resume() }
            case 15: try b.pick(voices)?.setPosition(b.byte() % 4 == 0 ? nil : b.position())
            case 16: try b.pick(voices)?.setVolume(b.float(-0.1...1.1))
            case 17: try b.pick(voices)?.setOcclusion(b.float(-0.2...1.2), obstruction: b.float(-0.2...1.2))
            case 18: if buses.count < 16 { buses.append(try engine.makeBus(named: ["a", "b", "c", "", "music"][b.int(0...4)], parent: b.pick(buses))) }
            case 19: try b.pick(buses)?.setVolume(b.float(-0.2...1.2))
            case 20:
                if let bus = b.pick(buses) {
                    switch b.byte() % 4 {
                    case 0: bus.isMuted.toggle()
                    case 1: bus.pause()
                    case 2: bus.resume()
                    default: bus.isMeteringEnabled.toggle()
                    }
                }
            case 21:
                let effect: EffectSettings?
                switch b.byte() % 4 {
                case 0: effect = nil
                case 1: effect = .reverb(Reverb(preset: ReverbPreset.allCases[b.int(0...(ReverbPreset.allCases.count - 1))]))
                case 2: effect = .echo(Echo(delay: b.float(-0.1...0.3)))
                default: var reverb = Reverb(); reverb.decayTime = b.float(0...25); effect = .reverb(reverb)
                }
                try b.pick(buses)?.setEffect(effect, level: b.float(-0.2...1.2))
            case 22:
                if let trigger = b.pick(buses), let target = b.pick(buses) {
                    try engine.addDucking(DuckingRule(trigger: trigger, target: target, depthDB: b.float(-5...70),
                                                      attackSeconds: b.double(-0.1...1), releaseSeconds: b.double(-0.1...2)))
                }
            case 23: b.byte() % 2 == 0 ? engine.beginInterruption() : engine.endInterruption(resume: b.byte() % 2 == 0)
            case 24: try engine.switchHRTF(b.byte() % 2 == 0 ? .on : .off)
            case 25: _ = try engine.render(frames: b.byte() % 8 == 0 ? b.wideInt(-2...250) : b.int(-2...250) * 20)
            case 26: engine.stopVoices()
            case 27: try b.pick(buses)?.fade(to: b.float(-0.2...1.2), duration: b.double(-0.1...0.5))
            // Scheduling, transitions and tempo: times near now, and at the edges of Double.
            case 28: try b.pick(players)?.play(atTime: engine.currentTime + b.double(-0.5...0.5))
            case 29:
                let chosen = players.filter { _ in b.byte() % 2 == 0 }
                try engine.play(chosen, atTime: b.byte() % 3 == 0 ? nil : engine.currentTime + b.double(-0.5...0.5))
            case 30: try engine.play(players.filter { _ in b.byte() % 2 == 0 }, atFrame: b.byte() % 8 == 0 ? b.wideInt(0...200) : b.int(0...200) * 240)
            case 31:
                if let a = b.pick(players), let other = b.pick(players) {
                    try a.crossfade(to: other, duration: b.double(-0.1...0.5), curve: b.byte() % 2 == 0 ? .linear : .equalPower, on: b.transition(engine))
                }
            case 32: if let a = b.pick(players), let other = b.pick(players) { try a.play(on: b.transition(engine), of: other) }
            case 33:
                try b.pick(players)?.setTempo(b.byte() % 4 == 0 ? nil : MusicalTempo(beatsPerMinute: b.double(-10...400),
                                                                                    beatsPerBar: b.wideInt(-1...8), firstBeat: b.double(-1...2)))
            case 34: try b.pick(players)?.seek(to: b.double(-1e3...1e3))
            default: try engine.context.switchLatency(to: LatencyMode.allCases[b.int(0...3)])
            }
        } catch let error as SoundStageError {
            precondition(!error.object.isEmpty && !error.reason.isEmpty && !error.operation.isEmpty, "an error that names nothing: \(error)")
        } catch {
            preconditionFailure("untyped error from call \(call): \(error)")
        }
    }
    do { _ = try engine.render(frames: 2_400) } catch { preconditionFailure("the last render failed: \(error)") }
}
