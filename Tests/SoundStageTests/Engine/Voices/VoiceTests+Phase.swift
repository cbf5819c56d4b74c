import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// A voice that was virtual comes back where a voice that never was would be, whatever its
/// pitch, its sound's rate, the output's rate, how long it lived and how long it was away:
/// a property, checked on seeded random cases, each against its own reference render.
@Suite("Voices keep phase: back from virtual within a frame of a voice that never left, at any pitch and rate")
struct VoicePhaseTests {
    /// One case: a sound, how it is played, and when it is away.
    struct Case: CustomStringConvertible {
        var seed: UInt64
        var outputRate: Int
        var soundRate: Int
        var soundFrames: Int
        var pitch: Float
        var streamed: Bool
        /// -1 loops forever; otherwise enough plays to outlast the render.
        var loops: Int
        /// The engine's tick in seconds.
        var tick: Double
        /// Output frames played before it goes away, and how many it is away.
        var lifeFrames: Int
        var awayFrames: Int
        /// How it is made virtual: its bus muted, or walking out of range.
        var byMute: Bool
        /// Whether it goes away and comes back between two ticks rather than on one.
        var offTick: Bool
        /// A pitch it changes to halfway through its life (between two ticks or on one).
        var newPitch: Float?
        /// Muted voices keep time whatever their options: some say wait while virtual.
        var waitsWhenVirtual: Bool

        var description: String {
            "seed \(seed): \(streamed ? "streamed" : "loaded") \(soundFrames) frames at \(soundRate) Hz on \(outputRate) Hz, pitch \(pitch), "
                + (newPitch.map { "then \($0) halfway, " } ?? "")
                + "loops \(loops), tick \(tick) s, away after \(lifeFrames) frames for \(awayFrames) (\(byMute ? "muted" : "out of range")"
                + "\(offTick ? ", between ticks" : "")\(waitsWhenVirtual ? ", whenVirtual .pause" : ""))"
        }

        /// A case drawn from `seed`; `maxLife` bounds its life in seconds.
        init(seed: UInt64, maxLife: Double) {
            var g = SeededGenerator(seed: seed)
            self.seed = seed
            outputRate = [22_050, 44_100, 48_000, 96_000].randomElement(using: &g)!
            soundRate = [8_000, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000, 88_200, 96_000].randomElement(using: &g)!
            soundFrames = Int.random(in: 200..<(200 + 3 * soundRate), using: &g)
            pitch = Float.random(in: 0.25...4, using: &g)
            streamed = Bool.random(using: &g)
            tick = [0.005, 0.01, 0.02].randomElement(using: &g)!
            // Mostly short lives, some long: the square of a uniform draw.
            let life = Double.random(in: 0..<1, using: &g)
            lifeFrames = Int(life * life * maxLife * Double(outputRate))
            awayFrames = Int(tick * Double(outputRate)) + Int.random(in: 0..<outputRate, using: &g)
            // At pitch 4 at most, with some seconds to spare.
            let framesHeard = Double(lifeFrames + awayFrames + 4 * outputRate) * Double(soundRate) / Double(outputRate) * 4
            loops = Bool.random(using: &g) ? -1 : Int(framesHeard / Double(soundFrames)) + 1
            byMute = Bool.random(using: &g)
            offTick = Int.random(in: 0..<3, using: &g) == 0
            newPitch = Int.random(in: 0..<3, using: &g) == 0 ? Float.random(in: 0.25...4, using: &g) : nil
            waitsWhenVirtual = byMute && Int.random(in: 0..<3, using: &g) == 0
        }
    }

    /// What a case's render gives: where the voice came back (nil: it never left), and the
    /// output channel 0 from some frames before that on.
    struct Heard {
        var returnFrame: Int?
        var samples: [Float]
        var firstFrame: Int
    }

    /// Renders `c`: with `away`, the voice goes virtual after its life and comes back;
    /// without, it plays throughout (the reference). The render is kept from `keepFrom` on.
    static func render(_ c: Case, away: Bool, keepFrom: Int, until end: Int) throws -> Heard {
        let format = RenderFormat(sampleRate: c.outputRate, channels: .stereo, sampleType: .float32)
        let engine = try AudioEngine(output: .offline(format), attributes: ContextAttributes(hrtf: .off), service: .manual(tick: c.tick))
        defer { engine.shutdown() }
        try engine.context.set(.distanceModel, to: .linearClamped)
        // Noise low-passed once: every frame differs from its neighbours, so a playhead a
        // frame off costs the match (SNR near 0 dB), not a fraction of a dB.
        var g = SeededGenerator(seed: c.seed ^ 0x5eed)
        var last: Float = 0
        let samples: [Float] = (0..<c.soundFrames).map { _ in
            last = 0.7 * last + 0.3 * Float.random(in: -1...1, using: &g)
            return last
        }
        let sound: Sound
        if c.streamed {
            let wav = RenderedAudio(format: RenderFormat(sampleRate: c.soundRate, channels: .mono), samples: samples).wavData(.float32)
            sound = try Sound(engine: engine, streamingData: wav, name: "noise.wav")
        } else {
            sound = Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: c.soundRate, label: "noise"))
        }
        let bus = try engine.makeBus(named: "phase")
        let near = SIMD3<Float>(0, 0, -1)
        let options = VoiceOptions(whenVirtual: c.waitsWhenVirtual ? .pause : .keepTime, maxDistance: 10)
        let voice = try engine.play(sound, at: near, pitch: c.pitch, loops: c.loops, bus: bus, options: options)
        let tickFrames = Int((c.tick * Double(c.outputRate)).rounded())
        // Off a tick: the change lands a third of a tick after one.
        let offset = c.offTick ? tickFrames / 3 : 0
        let leave = (c.lifeFrames / tickFrames) * tickFrames + offset
        let comeBack = ((c.lifeFrames + c.awayFrames) / tickFrames) * tickFrames + offset
        var heard = Heard(returnFrame: nil, samples: [], firstFrame: keepFrom)
        var frame = 0
        func renderTo(_ target: Int) throws {
            while frame < target {
                let n = min(target - frame, c.outputRate)
                let audio = try engine.render(frames: n)
                if frame + n > keepFrom {
                    let left = audio.channel(0)
                    heard.samples += left[max(0, keepFrom - frame)...]
                }
                frame += n
            }
        }
        if let newPitch = c.newPitch {
            try renderTo(leave / 2 + offset)
            try voice.setPitch(newPitch)
        }
        try renderTo(leave)
        guard away else {
            try renderTo(end)
            return heard
        }
        if c.byMute { bus.isMuted = true } else { voice.position = [0, 0, -50] }
        try renderTo(comeBack)
        #expect(voice.status == .virtual, "\(c): away, the voice is virtual")
        if c.byMute { bus.isMuted = false } else { voice.position = near }
        // It is real again from the tick after; its source starts with the render after that.
        while voice.status != .real, frame < end {
            try renderTo(frame + tickFrames - frame % tickFrames)
        }
        heard.returnFrame = frame
        try renderTo(end)
        return heard
    }

    /// Checks `count` cases drawn from `seeds`, lives up to `maxLife` seconds.
    static func check(seeds: Range<UInt64>, maxLife: Double) throws {
        var worst = Double.infinity, longest = 0.0
        for seed in seeds {
            let c = Case(seed: seed, maxLife: maxLife)
            longest = max(longest, Double(c.lifeFrames) / Double(c.outputRate))
            let tickFrames = Int((c.tick * Double(c.outputRate)).rounded())
            let keepFrom = max(0, (c.lifeFrames + c.awayFrames) / tickFrames * tickFrames - tickFrames)
            let end = keepFrom + 6 * tickFrames + c.outputRate / 10
            let back = try render(c, away: true, keepFrom: keepFrom, until: end)
            guard let returned = back.returnFrame else {
                Issue.record("\(c): the voice never came back")
                continue
            }
            let reference = try render(c, away: false, keepFrom: keepFrom, until: end)
            // OpenAL fades a source in over its first mix: one render block, at most a tick.
            let from = returned + tickFrames - keepFrom
            let count = min(back.samples.count, reference.samples.count) - from
            guard count > tickFrames else {
                Issue.record("\(c): only \(count) frames after the voice came back")
                continue
            }
            let snr = Measure.snrDB(Array(back.samples[from...]), against: Array(reference.samples[from...]), count: count)
            worst = min(worst, snr)
            #expect(snr >= 60, "\(c): back from virtual, SNR \(snr) dB against the voice that never left (lag \(lag(back.samples, reference.samples, from: from, count: count)) frames)")
        }
        print("VoicePhaseTests: seeds \(seeds.lowerBound)..<\(seeds.upperBound), \(seeds.count) cases, lives up to \(maxLife) s (the longest \(longest) s): worst SNR \(worst) dB")
    }

    /// The shift of `a` against `b` (in output frames, within ±8) that matches best.
    static func lag(_ a: [Float], _ b: [Float], from: Int, count: Int) -> Int {
        var best = (shift: 0, error: Double.infinity)
        for shift in -8...8 {
            var error = 0.0
            for i in (from + 8)..<(from + count - 8) { let d = Double(a[i]) - Double(b[i + shift]); error += d * d }
            if error < best.error { best = (shift, error) }
        }
        return best.shift
    }

    @Test("64 seeded cases, lives up to 20 s: every voice comes back within a frame (SNR >= 60 dB)")
    func shortLives() throws {
        try Self.check(seeds: 1..<65, maxLife: 20)
    }

    @Test("8 seeded cases, lives up to 10 minutes: every voice comes back within a frame",
          .enabled(if: TestTier.isFull, "a long run: scripts/test.sh --full"))
    func longLives() throws {
        try Self.check(seeds: 1_001..<1_009, maxLife: 600)
    }

    @Test("a whenVirtual: .pause voice on a muted bus keeps time while muted: back in step after the unmute, not a tick late",
          arguments: [false, true])
    func pausedVoiceOnMutedBus(offTick: Bool) throws {
        var c = Case(seed: 0, maxLife: 0)
        (c.outputRate, c.soundRate, c.soundFrames, c.pitch, c.streamed, c.loops, c.tick) = (48_000, 48_000, 30_000, 1, false, -1, 0.01)
        (c.lifeFrames, c.awayFrames, c.byMute, c.offTick, c.waitsWhenVirtual, c.newPitch) = (24_000, 9_600, true, offTick, true, nil)
        let snr = try Self.snrAfterReturn(c)
        #expect(snr >= 60, "\(c): SNR \(snr) dB")
    }

    /// The SNR of case `c` (a 48 kHz engine, a 10 ms tick) once its voice is back and faded
    /// in, against the same voice never away, over 200 ms.
    static func snrAfterReturn(_ c: Case) throws -> Double {
        let keepFrom = c.lifeFrames + c.awayFrames - 480
        let end = keepFrom + 9_600
        let back = try render(c, away: true, keepFrom: keepFrom, until: end)
        let reference = try render(c, away: false, keepFrom: keepFrom, until: end)
        let from = try #require(back.returnFrame) + 480 - keepFrom
        let count = min(back.samples.count, reference.samples.count) - from
        return Measure.snrDB(Array(back.samples[from...]), against: Array(reference.samples[from...]), count: count)
    }

    @Test("the cases of the report: a 44.1 kHz loop on 48 kHz after 60 s away 30 ms; pitch 1.1 away 1.2 s",
          arguments: [(44_100, Float(1), 60.0, 0.03), (48_000, Float(1.1), 2.0, 1.2)])
    func reported(soundRate: Int, pitch: Float, life: Double, away: Double) throws {
        var c = Case(seed: 0, maxLife: 0)
        (c.outputRate, c.soundRate, c.soundFrames, c.pitch, c.streamed, c.loops, c.tick) = (48_000, soundRate, soundRate, pitch, false, -1, 0.01)
        (c.lifeFrames, c.awayFrames, c.byMute, c.offTick) = (Int(life * 48_000), Int(away * 48_000), true, false)
        let snr = try Self.snrAfterReturn(c)
        #expect(snr >= 60, "\(c): SNR \(snr) dB")
    }
}

extension VoicePhaseTests {
    @Test("a voice back from virtual fades in, streamed or loaded, unmuted or walked back: no step larger than the tone's own",
          arguments: [(true, true), (true, false), (false, true), (false, false)])
    func fadesIn(streamed: Bool, byMute: Bool) throws {
        let engine = try EngineRig.offline()
        defer { engine.shutdown() }
        try engine.context.set(.distanceModel, to: .linearClamped)
        // 440 Hz at 0.9: a step of up to 0.9 where it joins without a fade.
        let samples = Tone.samples(frequency: 440, sampleRate: EngineRig.rate, seconds: 1, amplitude: 0.9)
        let own = zip(samples, samples.dropFirst()).map { abs($1 - $0) }.max()!
        let tone = try EngineRig.sound(engine, samples, streamed: streamed)
        let bus = try engine.makeBus(named: "fade")
        let voice = try engine.play(tone, at: [0, 0, -1], loops: -1, bus: bus, options: VoiceOptions(maxDistance: 10))
        var out: [Float] = []
        // Away and back at ten phases of the tone (a voice back at the start of its sound
        // would be faded anyway).
        for round in 0..<10 {
            out += try engine.render(frames: 480 * (20 + round)).channel(0)
            if byMute { bus.isMuted = true } else { try voice.setPosition([0, 0, -50]) }
            out += try engine.render(frames: 480 * 10).channel(0)
            #expect(voice.status == .virtual)
            if byMute { bus.isMuted = false } else { try voice.setPosition([0, 0, -1]) }
            out += try engine.render(frames: 480).channel(0)
            #expect(voice.status == .real)
            let first = out.count   // its source starts with this render
            let block = try engine.render(frames: 480).channel(0)
            out += block
            let steps = zip([out[first - 1]] + block, block).map { abs($1 - $0) }
            let peak = block.map(abs).max()!
            #expect(steps[0] <= own, "round \(round): the first frame steps \(steps[0]) from silence; the tone's own largest step is \(own)")
            #expect(steps.max()! <= own * 1.01, "round \(round): a step of \(steps.max()!) while fading in (the tone's own: \(own))")
            #expect(peak > 0.1, "round \(round): heard again (peak \(peak))")
        }
    }
}
