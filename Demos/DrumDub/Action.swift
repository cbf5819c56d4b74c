/// What a key press asks of the game. The interactive game and a script (`--script`) both
/// go through ``Action/init(key:)``, so a script's key names are the game's keys.
enum Action: Equatable {
    /// Bang a drum (its index in ``Room/drums``).
    case bang(Int)
    case stepForward, stepBack, turnLeft, turnRight
    case toggleHRTF
    case cycleReverb
    case toggleMusic
    case musicLouder, musicQuieter
    /// The desktop's music player (when the game plays along with one) to its next item.
    case nextTrack
    /// Start recording a groove, or stop recording and loop what was recorded.
    case recordGroove
    /// Loop the recorded groove, or stop looping it.
    case toggleLoop
    /// Begin a simulated interruption (the game's own, as a cutscene), or end it.
    case toggleInterruption
    case suspend
    case quit

    /// The action of a key, by the name a script uses: a character ("1", "w", "+"), a name
    /// ("up", "down", "left", "right", "space", "ctrl-c", "ctrl-z") or a drum's name. Drums are
    /// on the number keys, as the map labels them: their initials (S B T M) were keys once,
    /// while s walked back and b, t, m did nothing; a script that names one is refused.
    init?(key: String) {
        switch key {
        case "up", "w": self = .stepForward
        case "down", "s": self = .stepBack
        case "left", "a": self = .turnLeft
        case "right", "d": self = .turnRight
        case "h": self = .toggleHRTF
        case "r": self = .cycleReverb
        case "p", "space", " ": self = .toggleMusic
        case "+", "=": self = .musicLouder
        case "-", "_": self = .musicQuieter
        case "n": self = .nextTrack
        case "g": self = .recordGroove
        case "l": self = .toggleLoop
        case "i": self = .toggleInterruption
        case "ctrl-z": self = .suspend
        case "q", "ctrl-c": self = .quit
        default:
            guard let drum = Room.drums.firstIndex(where: { String($0.number) == key || $0.name == key }) else { return nil }
            self = .bang(drum)
        }
    }

    /// The keys, for `--help` and the screen's last line.
    static let help = """
        1 2 3 4          bang the snare, bass, tambourine, maraca (numbered on the map)
        arrows or w a s d  step forward and back, turn left and right (30 degrees)
        h                HRTF on or off (binaural, for headphones)
        r                next room reverb (off, room, living room, stone room, concert hall, cave)
        p or space       music: play or pause (the desktop's player when drumdub plays along with it)
        + and -          music volume
        n                the desktop's music: next item
        g                record a groove; g again stops and loops it
        l                loop the recorded groove, or stop the loop
        i                begin or end an interruption (as a call would)
        Ctrl-Z           suspend (the audio pauses; fg resumes)
        q or Ctrl-C      quit
        """
}
