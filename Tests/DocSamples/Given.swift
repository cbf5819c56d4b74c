import Foundation
import SoundStage
import Synchronization

// What the documentation's samples take as given: the engine, sounds, players and places
// their text names without making them. Each document's namespace gets the names it uses;
// a sample's own `let` of the same name shadows them. The samples run in a folder holding
// the repository's `assets` (DocSamplesTests makes it), on the default output device.

/// The objects the givens are made of, made once for the process.
enum Given {
    /// The engine on the default output device.
    static let engine = make {
        let engine = try AudioEngine()
        made.withLock { $0 = engine }
        return engine
    }
    /// ``engine``, once a sample has asked for it.
    static let made = Mutex<AudioEngine?>(nil)

    /// Shuts the engine down if a sample made it: its device is closed, as a game's is when
    /// it ends (OpenAL reports a device left open as the process exits).
    static func shutdown() { made.withLock { $0 }?.shutdown() }

    /// A sound of the repository's assets, loaded.
    static func sound(_ path: String) -> Sound { make { try Sound(engine: engine, contentsOf: URL(fileURLWithPath: path)) } }

    /// A sound of the repository's assets, streamed.
    static func streamed(_ path: String) -> Sound {
        make { try Sound(engine: engine, streamingContentsOf: URL(fileURLWithPath: path)) }
    }

    /// A player of the music loop, playing it for ever at 120 beats a minute, as a game's
    /// music is when a sample changes it.
    static func playingMusic() -> Player {
        make {
            let player = engine.makePlayer(streamed("assets/music/loop.ogg"))
            player.numberOfLoops = -1
            player.tempo = MusicalTempo(beatsPerMinute: 120, beatsPerBar: 4)
            try player.play()
            return player
        }
    }

    static let snare = "assets/drums/snare.wav"
    static let bass = "assets/drums/bass.wav"
    static let maraca = "assets/drums/maraca.wav"
    static let tambourine = "assets/drums/tambourine.wav"
    static let music = "assets/music/loop.ogg"
}

/// A given that cannot be made stops the run, saying which and why.
func make<T>(_ what: () throws -> T) -> T {
    do { return try what() } catch { fatalError("a given of the samples could not be made: \(error)") }
}

/// A game's own session delegate: a class with mutable state of its own.
final class Game: AudioSessionDelegate {
    var paused = false

    func audioSession(_ session: AudioSession, didReceive event: SessionEvent) {
        if case .interruptionBegan = event { paused = true }
    }
}

/// A game's heads-up display.
final class HUD: Sendable {
    func note(_ text: String) { print(text) }
}

extension READMESamples {
    static var engine: AudioEngine { Given.engine }
    static var context: AudioContext { Given.engine.context }
    static let source = make { try AudioSource(context: Given.engine.context) }
    static let footstep = Given.sound(Given.maraca)
    static let engineHum = Given.sound(Given.bass)
    static let car: SIMD3<Float> = [3, 0, -4]
    static let intro = Given.sound(Given.snare)
    static let loopA = Given.streamed(Given.music)
    static let loopB = Given.streamed(Given.music)
    static let stinger = Given.sound(Given.tambourine)
    static var game: Game { Game() }
    static let music = Given.playingMusic()
    static let drum = Given.engine.makePlayer(Given.sound(Given.snare))
}

extension EffectsSamples {
    static var engine: AudioEngine { Given.engine }
    static let door = make { try Given.engine.play(Given.sound(Given.bass), at: [0, 0, -3], loops: -1) }
}

extension GettingStartedSamples {
    static var engine: AudioEngine { Given.engine }
}

extension PlacingSoundsIn3DSamples {
    static var engine: AudioEngine { Given.engine }
    static let generatorHum = Given.sound(Given.bass)
    static let footstep = Given.sound(Given.maraca)
    static let player = Given.playingMusic()
}

extension PlayingSoundsSamples {
    static var engine: AudioEngine { Given.engine }
    static let theme = Given.streamed(Given.music)
    static let player = Given.playingMusic()
}

extension StreamingSamples {
    static var engine: AudioEngine { Given.engine }
    static let player = Given.playingMusic()
    static let calm = Given.streamed(Given.music)
    static let battle = Given.streamed(Given.music)
}

extension TheAudioSessionOnLinuxSamples {
    static let music = Given.playingMusic()
    static let snare = Given.engine.makePlayer(Given.sound(Given.snare))
    static func showPaused(_ reason: InterruptionReason) { print("paused: \(reason)") }
    static func showRoute(_ output: String) { print("now on \(output)") }
}

extension VoicesAndBusesSamples {
    static var engine: AudioEngine { Given.engine }
    static let gunshot = Given.sound(Given.snare)
    static let engineHum = Given.sound(Given.bass)
    static let footstep = Given.sound(Given.maraca)
    static let car: SIMD3<Float> = [3, 0, -4]
    static let carNow: SIMD3<Float> = [3.5, 0, -4]
    static let feet: SIMD3<Float> = [0, -1.7, 0]
    static let player = Given.playingMusic()
}

extension APIDocsSamples {
    static var engine: AudioEngine { Given.engine }
    static var context: AudioContext { Given.engine.context }
    static let source = make { try AudioSource(context: Given.engine.context) }
    static let sources = make { try (0..<4).map { _ in try AudioSource(context: Given.engine.context) } }
    static let positions: [SIMD3<Float>] = [[1, 0, 0], [-1, 0, 0], [0, 0, -1], [0, 0, 1]]
    static let playerYaw: Float = .pi / 4
    static let url = URL(fileURLWithPath: Given.music)
    static let intro = Given.sound(Given.snare)
    static let verse = Given.streamed(Given.music)
    static let outro = Given.sound(Given.tambourine)
    static let album = make {
        let album = try Playlist(engine: Given.engine, items: [Given.sound(Given.snare), Given.sound(Given.bass), Given.sound(Given.maraca), Given.sound(Given.tambourine)])
        album.player.tempo = MusicalTempo(beatsPerMinute: 120, beatsPerBar: 4)
        try album.play()
        return album
    }
    static let calm = Given.playingMusic()
    static let battle = Given.engine.makePlayer(Given.streamed(Given.music))
    static let stinger = Given.engine.makePlayer(Given.sound(Given.tambourine))
    static let gunshot = Given.sound(Given.snare)
    static let muzzle: SIMD3<Float> = [0.5, 0, -1]
    static let hud = HUD()
    static let hum = Given.sound(Given.bass)
    static let car: SIMD3<Float> = [3, 0, -4]
    static let footstep = Given.sound(Given.maraca)
    static let velocities: [SIMD3<Float>] = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]]
    static let dt: Float = 1 / 60
    static func send(_ samples: [Float]) {}
}

/// What a game's input gives a frame.
enum GameInput: Sendable { case forward(Float), turn(Float) }

/// A game's own state: where its hero is and which way it faces (yaw in radians).
struct Hero {
    var position: SIMD3<Float> = .zero
    var yaw: Float = 0
    private var speed: Float = 0
    mutating func apply(_ input: GameInput) {
        switch input {
        case .forward(let metresPerSecond): speed = metresPerSecond
        case .turn(let radians): yaw += radians
        }
    }
    mutating func simulate(_ seconds: Double) {
        position += SIMD3(-sin(yaw), 0, -cos(yaw)) * speed * Float(seconds)
    }
}

/// A game's window: open for 20 frames of 1/60 s (the samples run briefly), a step forward
/// and a turn as its input, and closed early by `close()`.
final class GameWindow: Sendable {
    private let frames = Mutex(0)
    var isOpen: Bool { frames.withLock { $0 < 20 } }
    func input() -> [GameInput] { frames.withLock { $0 == 0 ? [.forward(1.4), .turn(0.1)] : [] } }
    func present() {
        Thread.sleep(forTimeInterval: 1.0 / 60)
        frames.withLock { $0 += 1 }
    }
    func close() { frames.withLock { $0 = .max } }
}

extension EmbeddingInAGameLoopSamples {
    static var engine: AudioEngine { Given.engine }
    static let footsteps = Given.sound(Given.maraca)
    static let snare = Given.sound(Given.snare)
    static let window = GameWindow()
}
