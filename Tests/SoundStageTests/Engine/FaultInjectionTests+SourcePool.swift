import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// Fault injection: every OpenAL source of the context taken (by sources made by hand, up to
/// the context's limit of 8) before each step of a player's life, and under voices. Nothing
/// crashes and OpenAL sees no error (the suite runs under its traps); what cannot get a source
/// is a typed error naming the player; the player is in a defined state after each step; and
/// once the sources are given back, the player and the voices play and are heard.
@Suite("Fault injection: the source pool exhausted at every point of a player's life")
struct FaultInjectionSourcePoolTests {
    static let format = RenderFormat(sampleRate: 48_000, channels: .stereo, sampleType: .float32)
    static let attributes = ContextAttributes(monoSources: 6, stereoSources: 2, hrtf: .off)

    enum Step: CaseIterable {
        case prepare, play, pause, seek, resume, loops, fade, bus, move, stop
    }

    static func tone(_ name: String) -> Data {
        RenderedAudio(format: RenderFormat(sampleRate: 48_000, channels: .mono),
                      samples: Tone.samples(frequency: 440, sampleRate: 48_000, seconds: 1, amplitude: 0.5)).wavData(.float32)
    }

    static func rms(_ samples: [Float]) -> Double {
        (samples.map { Double($0 * $0) }.reduce(0, +) / Double(max(samples.count, 1))).squareRoot()
    }

    /// Takes every source the engine's context has left.
    static func exhaust(_ engine: AudioEngine) throws -> [AudioSource] {
        var taken: [AudioSource] = []
        while engine.context.sourceCount < engine.context.sourceLimit { taken.append(try AudioSource(context: engine.context)) }
        #expect(throws: SoundStageError.self) { _ = try AudioSource(context: engine.context) }
        return taken
    }

    @Test("120 cycles: the sources taken before each step of a player's life, loaded and streamed; refusals typed and naming the player, the player heard once they are back")
    func exhaustedAtEveryStep() throws {
        var outcomes: [String: Int] = [:]
        for cycle in 0..<120 {
            let exhaustAt = Step.allCases[cycle % Step.allCases.count]
            let streamed = (cycle / Step.allCases.count) % 2 == 1
            let engine = try AudioEngine(output: .offline(Self.format), attributes: Self.attributes, service: .manual())
            defer { engine.shutdown() }
            let name = "tone-\(cycle).wav"
            let sound = streamed ? try Sound(engine: engine, streamingData: Self.tone(name), name: name)
                                 : try Sound(engine: engine, data: Self.tone(name), name: name)
            let p = engine.makePlayer(sound)
            p.numberOfLoops = -1
            var taken: [AudioSource] = []
            for step in Step.allCases {
                if step == exhaustAt { taken = try Self.exhaust(engine) }
                do {
                    switch step {
                    case .prepare: try p.prepareToPlay()
                    case .play: try p.play()
                    case .pause: p.pause()
                    case .seek: p.currentTime = 0.25
                    case .resume: try p.play()
                    case .loops: p.numberOfLoops = 3
                    case .fade: try p.fade(to: 0.8, duration: 0.05)
                    case .bus: try p.setBus(engine.musicBus)
                    case .move: try engine.switchOutput(to: .offline(Self.format))
                    case .stop: p.stop()
                    }
                    outcomes["\(step): done", default: 0] += 1
                } catch let error as SoundStageError {
                    outcomes["\(step): \(error.code)", default: 0] += 1
                    #expect(error.code == .sourceLimitReached || error.code == .invalidState, "cycle \(cycle), \(step): \(error)")
                    #expect(error.description.contains("player of sound (\(name))"), "cycle \(cycle), \(step): the error does not name the player: \(error)")
                }
                _ = try engine.render(frames: 2_400)
                // A defined state: playing only with a source.
                if p.isPlaying { #expect(p.audioSource != nil, "cycle \(cycle), \(step): playing without a source") }
            }
            #expect(!p.isPlaying, "cycle \(cycle): still playing after stop()")
            // The sources come back: the player plays and is heard.
            taken.removeAll()
            try p.play()
            let out = try engine.render(frames: 9_600)
            let level = Self.rms(out.channel(0))
            #expect(level > 0.05, "cycle \(cycle) (sources taken before \(exhaustAt)): rms \(level) once the sources are back")
            p.stop()
        }
        print("source pool exhausted before each step:", outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    @Test("100 cycles of voices started with no source left: virtual, silent, then real and heard when the sources are given back")
    func voicesWithNoSourceLeft() throws {
        var virtual = 0, refused = 0
        for cycle in 0..<100 {
            // An engine of its own each cycle: no spare source of the pool's from before.
            let engine = try AudioEngine(output: .offline(Self.format), attributes: Self.attributes, service: .manual())
            defer { engine.shutdown() }
            let sound = try Sound(engine: engine, data: Self.tone("voice.wav"), name: "voice.wav")
            var taken = try Self.exhaust(engine)
            let voice = try engine.play(sound, at: [Float(cycle % 5) - 2, 0, -1], loops: -1)
            if voice.refusal != nil {
                refused += 1
                #expect(voice.description.contains("voice.wav"), "cycle \(cycle): \(voice)")
                taken.removeAll()
                continue
            }
            let silent = try engine.render(frames: 4_800)
            if !voice.isReal {
                virtual += 1
                #expect(Self.rms(silent.channel(0)) + Self.rms(silent.channel(1)) < 1e-3, "cycle \(cycle): a virtual voice is heard")
            }
            taken.removeAll()
            let heard = try engine.render(frames: 9_600)
            #expect(voice.isReal, "cycle \(cycle): \(voice.status) with sources free")
            #expect(Self.rms(heard.channel(0)) + Self.rms(heard.channel(1)) > 0.05, "cycle \(cycle): not heard once real")
            voice.stop()
            _ = try engine.render(frames: 4_800)
        }
        print("voices with no source left: \(virtual) virtual until sources came back, \(refused) refused")
        #expect(virtual + refused == 100)
    }
}
