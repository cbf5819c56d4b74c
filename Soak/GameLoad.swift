import Foundation
import SoundStage

/// A game's sound, for as long as the soak runs: a streamed music loop on the music bus
/// (faded down and up every 30 s, ducked by dialog every 20 s), 200 voices starting and
/// ending around a listener who walks a circle, 20 of them moving loops, and the output moved
/// to another device every 10 minutes (or as the soak says). Driven by engine time, so the same load runs offline
/// and live; its choices come from a seeded generator, so an offline run repeats exactly.
final class GameLoad {
    /// How many voices play at once.
    static let voiceCount = 200
    /// How many of them are moving loops.
    static let moverCount = 20
    static let fadeEvery = 30.0
    static let dialogEvery = 20.0

    let engine: AudioEngine
    let music: Player
    let dialogBus: Bus
    private let shots: [Sound]
    private let hum: Sound
    private let line: Sound
    private var oneShots: [Voice] = []
    private var movers: [(voice: Voice, ends: Double, angle: Float, radius: Float, speed: Float)] = []
    private var random: SeededGenerator
    private var nextFade = GameLoad.fadeEvery
    private var nextDialog = 5.0
    private let moveEvery: Double
    private let moveLimit: Int?
    private var nextMove: Double
    private var fadedDown = false
    private var lastNow = 0.0
    /// Where the output moves, in turn (for offline: loopback devices in the same format).
    private let outputs: [AudioEngine.Output]
    private var outputIndex = 0

    private(set) var started = 0
    private(set) var refused = 0
    private(set) var moves: [RouteChange] = []
    /// Engine time of the last move.
    private(set) var lastMoveAt: Double?
    /// Live OpenAL sources just before and one second after each move.
    private(set) var sourcesAroundMoves: [(before: Int, after: Int)] = []
    private var sourcesBeforeMove: Int?
    private var checkSourcesAt: Double?

    init(engine: AudioEngine, music url: URL, outputs: [AudioEngine.Output], moveEvery: Double = 600, moveLimit: Int? = nil,
         seed: UInt64 = 2026) throws {
        self.engine = engine
        self.moveEvery = moveEvery
        self.moveLimit = moveLimit
        nextMove = moveEvery
        self.outputs = outputs
        random = SeededGenerator(seed: seed)
        try engine.configureVoices(VoiceConfiguration(realVoices: 64))
        let rate = 48_000
        func tone(_ name: String, seconds: Double, _ f: (Double) -> Double) throws -> Sound {
            let n = Int(seconds * Double(rate))
            let samples = (0..<n).map { i -> Float in
                let t = Double(i) / Double(rate)
                let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
                return Float(window * f(t))
            }
            let audio = RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .mono), samples: samples)
            return try Sound(engine: engine, data: audio.wavData(.float32), name: name)
        }
        shots = try zip([660.0, 990, 1320, 1760, 2640, 3520], [0.3, 0.6, 1.0, 1.5, 2.5, 4.0]).map { f, d in
            try tone("shot-\(Int(f)).wav", seconds: d) { t in 0.5 * sin(2 * .pi * f * t) }
        }
        // A loop of whole periods, unwindowed, so it loops without a click.
        let humSamples = (0..<rate).map { Float(0.4 * sin(2 * Double.pi * 880 * Double($0) / Double(rate))) }
        hum = try Sound(engine: engine, data: RenderedAudio(format: RenderFormat(sampleRate: rate, channels: .mono), samples: humSamples).wavData(.float32),
                        name: "hum.wav")
        line = try tone("dialog.wav", seconds: 3) { t in 0.4 * sin(2 * .pi * (1500 * t + 40 * sin(2 * .pi * 3 * t))) }

        music = engine.makePlayer(try Sound(engine: engine, streamingContentsOf: url))
        music.numberOfLoops = -1
        // A gap moves the pilot's phase when the stream resumes where it stopped.
        music.underrunPolicy = .resume
        try music.setBus(engine.musicBus)
        dialogBus = engine.dialogBus
        try engine.addDucking(DuckingRule(trigger: dialogBus, target: engine.musicBus, depthDB: 9, attackSeconds: 0.6, releaseSeconds: 1))
        try music.play()
    }

    /// Voices playing now (real and virtual).
    var playingVoices: Int { engine.voiceCounts.playing }

    /// Does what the game does up to engine time `now`.
    func advance(to now: Double) throws {
        let step = Float(now - lastNow)
        lastNow = now
        try walk(now)
        oneShots.removeAll { !$0.isValid }
        for i in movers.indices.reversed() where movers[i].ends <= now || !movers[i].voice.isValid {
            movers[i].voice.stop()
            movers.remove(at: i)
        }
        while movers.count < Self.moverCount {
            let radius = Float(random.uniform(3, 25)), angle = Float(random.uniform(0, 2 * .pi))
            if let voice = start(hum, at: [radius * cos(angle), 1, radius * sin(angle)], loops: -1) {
                movers.append((voice, now + random.uniform(10, 40), angle, radius, Float(random.uniform(-0.5, 0.5))))
            } else {
                break
            }
        }
        for i in movers.indices {
            movers[i].angle += movers[i].speed * step
            let m = movers[i]
            try? m.voice.setPosition([m.radius * cos(m.angle), 1, m.radius * sin(m.angle)])
        }
        // At most 40 starts a step, so the first second ramps up as a game's would.
        var starts = 0
        while oneShots.count + movers.count < Self.voiceCount, starts < 40 {
            let sound = shots[Int(random.next() % UInt64(shots.count))]
            let position: SIMD3<Float> = [Float(random.uniform(-20, 20)), Float(random.uniform(0, 3)), Float(random.uniform(-20, 20))]
            guard let voice = start(sound, at: position, loops: 0) else { break }
            oneShots.append(voice)
            starts += 1
        }
        if now >= nextFade {
            fadedDown.toggle()
            try music.fade(to: fadedDown ? 0.5 : 1, duration: 2)
            nextFade += Self.fadeEvery
        }
        if now >= nextDialog {
            do {
                try engine.play(line, volume: 0.6, priority: 255, bus: dialogBus)
            } catch {
                throw SoakFailure("the dialog line was refused: \(error)")
            }
            nextDialog += Self.dialogEvery
        }
        if let at = checkSourcesAt, now >= at, let before = sourcesBeforeMove {
            sourcesAroundMoves.append((before, Diagnostics.sourceCount))
            checkSourcesAt = nil
        }
        if now >= nextMove, !outputs.isEmpty, moves.count < moveLimit ?? .max {
            sourcesBeforeMove = Diagnostics.sourceCount
            outputIndex = (outputIndex + 1) % outputs.count
            moves.append(try engine.switchOutput(to: outputs[outputIndex]))

            checkSourcesAt = now + 1
            lastMoveAt = now
            nextMove += moveEvery
        }
    }

    /// The listener walks a 5 m circle once a minute, facing along it.
    private func walk(_ now: Double) throws {
        let angle = Float(2 * Double.pi * now / 60)
        try engine.context.listener.setPose(position: [5 * cos(angle), 0, 5 * sin(angle)], yaw: -angle)
    }

    private func start(_ sound: Sound, at position: SIMD3<Float>?, loops: Int, bus: Bus? = nil, volume: Float? = nil) -> Voice? {
        do {
            let voice = try engine.play(sound, at: position, volume: volume ?? Float(random.uniform(0.1, 0.4)),
                                        pitch: Float(random.uniform(0.9, 1.1)), priority: Int(random.next() % 129) + 64,
                                        loops: loops, bus: bus)
            started += 1
            return voice
        } catch {
            refused += 1
            return nil
        }
    }

    /// Stops every voice and the music.
    func stop() {
        engine.stopVoices()
        music.stop()
        oneShots = []
        movers = []
    }
}

/// Why the soak failed.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension SeededGenerator {
    /// A value drawn uniformly from `low..<high`.
    mutating func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low..<high, using: &self) }
}
