import Foundation
import SoundStage

/// The game: the kit, the music, the player's place in the room, the groove, and what the
/// screen says. The interactive game and a script drive it the same way, with an
/// ``Action`` at an engine time (``perform(_:at:)``) and a ``tick(at:)`` in between.
///
/// As in the DrumDub app it comes from: a bang pauses the drum's player, sets its
/// `currentTime` to 0 and plays it; an interruption pauses the music and stops the drums (no
/// tail comes back after), its end reactivates the session and the music plays on; a lost
/// output pauses everything.
final class Game {
    let engine: AudioEngine
    /// One player per drum, each on a bus of its own (metered) under the effects bus.
    let drums: [Player]
    let drumSounds: [Sound]
    let drumBuses: [Bus]
    let music: Player
    var pose = Pose()
    var groove = Groove()
    var reverbIndex = 0
    /// Whether the player wants the music on (p); an interruption keeps it, a lost output
    /// clears it.
    var musicWanted = true
    /// The desktop's music player the game plays along with (the interactive game, when one
    /// is on the session bus as it starts); nil: the game plays its own loop.
    var desktop: SystemMusicPlayer?
    /// The interruption under way, if one is.
    var interruption: InterruptionReason?
    var message = "", isAlert = false
    /// What the game cannot do here and plays on without (no system bus, no sound server to
    /// watch): shown beside the session, never over the message line.
    var notice = ""
    var sessionState = "active"
    var lastRoute = "no change yet"
    var underruns = 0
    /// The meters as shown: peaks held and falling at ``meterFall`` dB a second.
    var shown = Array(repeating: Float(-160), count: Room.drums.count + 2)
    /// When each drum was last struck by a key: its row flashes on the screen at once, while the
    /// meter follows the sound a tick later.
    var struckAt: [Double?] = Array(repeating: nil, count: Room.drums.count)
    var shownAt: Double?
    static let meterFall: Float = 24
    /// How long a struck drum's row flashes.
    static let flashSeconds = 0.15

    static let reverbs: [(name: String, preset: ReverbPreset?)] = [
        ("off", nil), ("room", .room), ("living room", .livingroom), ("stone room", .stoneroom),
        ("concert hall", .concerthall), ("cave", .cave),
    ]
    static let musicVolumeStep: Float = 0.1

    init(engine: AudioEngine, assets: Assets) throws {
        self.engine = engine
        var sounds: [Sound] = [], players: [Player] = [], buses: [Bus] = []
        for drum in Room.drums {
            let sound = try Sound(engine: engine, contentsOf: assets.drum(drum.name))
            let bus = try engine.makeBus(named: drum.name, parent: engine.effectsBus)
            bus.isMeteringEnabled = true
            let player = engine.makePlayer(sound)
            try player.setBus(bus)
            player.position = drum.position
            try player.setVolume(drum.gain)
            // A drum's tail never comes back after an interruption.
            player.interruptionPolicy = .stop
            try player.prepareToPlay()
            sounds.append(sound); players.append(player); buses.append(bus)
        }
        drumSounds = sounds; drums = players; drumBuses = buses
        music = engine.makePlayer(try Sound(engine: engine, streamingContentsOf: assets.music))
        music.numberOfLoops = -1
        try music.setVolume(0.5)
        music.isMeteringEnabled = true
        engine.masterBus.isMeteringEnabled = true
        try engine.listener.setPose(position: pose.position, yaw: pose.yawRadians)
    }

    /// Starts the music (the game begins with it on).
    func start() throws {
        if desktop == nil { try music.play() } else { musicWanted = false }
    }

    /// Does what `action` asks at engine time `now`. Errors the player should see (a drum
    /// while interrupted) are thrown for the caller to show.
    func perform(_ action: Action, at now: Double) throws {
        switch action {
        case .bang(let drum): try bang(drum, at: now)
        case .stepForward: try move { $0.step(Room.stepMetres) }
        case .stepBack: try move { $0.step(-Room.stepMetres) }
        case .turnLeft: try move { $0.turn(by: Room.turnDegrees) }
        case .turnRight: try move { $0.turn(by: -Room.turnDegrees) }
        case .toggleHRTF:
            let on = engine.context.hrtfStatus.isActive
            try engine.switchHRTF(on ? .off : .on)
            say("HRTF \(engine.context.hrtfStatus)")
        case .cycleReverb:
            let next = (reverbIndex + 1) % Self.reverbs.count
            try engine.effectsBus.setEffect(Self.reverbs[next].preset.map { .reverb(Reverb(preset: $0)) })
            reverbIndex = next
            say("reverb: \(Self.reverbs[next].name)")
        case .toggleMusic where desktop != nil: desktop?.togglePlayPause()
        case .musicLouder where desktop != nil, .musicQuieter where desktop != nil:
            guard let desktop, let volume = desktop.volume else { return say("the desktop's player has no volume to set") }
            let step = action == .musicLouder ? Double(Self.musicVolumeStep) : -Double(Self.musicVolumeStep)
            desktop.send(.setVolume(min(10, max(0, ((volume + step) * 10).rounded())) / 10))
        case .nextTrack:
            guard let desktop else { return say("n: no desktop music player here; drumdub plays its own loop") }
            desktop.skipToNextItem()
        case .toggleMusic:
            if music.isPlaying {
                music.pause()
                musicWanted = false
            } else {
                try music.play()
                musicWanted = true
            }
        case .musicLouder: try music.setVolume((min(1, music.volume + Self.musicVolumeStep) * 10).rounded() / 10)
        case .musicQuieter: try music.setVolume((max(0, music.volume - Self.musicVolumeStep) * 10).rounded() / 10)
        case .recordGroove:
            groove.toggleRecording(at: now)
            if groove.isLooping { say("groove recorded: \(groove.hits.count) hits, looping every \(String(format: "%.2f", groove.length)) s") }
        case .toggleLoop:
            if interruption != nil && !groove.isLooping {
                say("the groove loops again when the interruption ends (l then)", alert: true)
                return
            }
            groove.toggleLoop(at: now)
            if !groove.isLooping { engine.stopVoices() }
        case .toggleInterruption: toggleInterruption(at: now)
        case .suspend, .quit: break   // the terminal's to do
        }
    }

    /// The seed app's bang: pause, back to the start, play.
    private func bang(_ drum: Int, at now: Double) throws {
        let player = drums[drum]
        player.pause()
        player.currentTime = 0
        try player.play()
        struckAt[drum] = now
        groove.record(drum: drum, at: now)
    }

    /// Turns to face `point` on the floor and walks there (short of the walls): a click on
    /// the window's floor.
    func walk(to point: SIMD3<Float>) throws { try move { $0.walk(to: point) } }

    private func move(_ change: (inout Pose) -> Void) throws {
        var next = pose
        change(&next)
        try engine.listener.setPose(position: next.position, yaw: next.yawRadians)
        pose = next
    }

    /// Plays the groove's hits due by `now` (as voices, so a hit of the loop does not cut the
    /// drum the player bangs). Returns when the next one is due, nil if none is.
    @discardableResult
    func tick(at now: Double) throws -> Double? {
        for drum in groove.due(by: now) {
            let d = Room.drums[drum]
            try engine.play(drumSounds[drum], at: d.position, volume: d.gain, bus: drumBuses[drum])
        }
        return groove.nextDue
    }

    /// When the groove's next hit is due, nil if it is not looping.
    var nextDue: Double? { groove.nextDue }

    func say(_ text: String, alert: Bool = false) {
        message = text
        isAlert = alert
    }

    /// Notes what the game plays on without, beside the session line; the message stays.
    func note(_ text: String) {
        notice = notice.isEmpty ? text : "\(notice); \(text)"
    }
}
