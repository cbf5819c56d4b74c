/// Finds dropouts in what the sound server took from a playback stream: runs of exact digital
/// silence inside sound.
///
/// When a stream runs dry, the server plays silence in its place (PulseAudio and PipeWire
/// alike: exact zeros, in every channel), and what comes after resumes the sound where the
/// stream's writes land. OpenAL's mix of a sound never holds such a run inside it (a decay
/// never reaches exact zero, and a mix of silence is silence only once every source is
/// quiet), so a run of exact zeros with sound just before it and just after it is a dropout,
/// counted by its content as a listener hears it, whatever the client believed it wrote.
///
/// Sound is a frame with a channel at least ``level`` (-40 dBFS) in magnitude; "just" is
/// within ``nearFrames`` frames. A run shorter than ``minimumSeconds`` is ignored, and so is
/// one longer than ``longestSeconds`` (sound that stopped and started again later: the game's
/// own silence). The level is well above where a sound's own file ends (drumdub's drums end at
/// -50 to -38 dBFS, played quieter still, and a hit on the next beat is no dropout), and a
/// gap in sound quieter than it is not counted. What it cannot tell from a dropout: content
/// that itself holds digital silence right after sound, as a hard gate does, or a sound cut
/// off loud and another started within ``longestSeconds`` with nothing playing between them.
struct DropoutDetector: Sendable {
    /// A dropout found: where its silence began (frames since the detector started) and how
    /// many frames it lasted.
    struct Dropout: Sendable, Equatable {
        let frame: Int
        let frames: Int
    }

    /// The least magnitude that counts as sound (-40 dBFS).
    static let level: Float = 0.01
    /// How near the silence sound must be, before and after it, in frames.
    static let nearFrames = 16
    /// The shortest run counted (seconds): half a millisecond.
    static let minimumSeconds = 0.0005
    /// The longest run counted (seconds): a process stopped 150 ms with 60 ms of buffer left
    /// 105-121 ms, stopped 250 ms 208-219 ms. A longer silence is taken for the game's own.
    static let longestSeconds = 0.5

    let channels: Int
    private let minimumFrames: Int
    private let longestFrames: Int
    /// Frames seen so far.
    private(set) var frames = 0
    /// Frames since the last one with sound (saturates).
    private var sinceSound = Int.max / 2
    /// The run of silent frames going on: where it began, and whether sound was near before it.
    private var run: (start: Int, afterSound: Bool)?
    /// A run that ended, waiting for sound near after it.
    private var pending: (dropout: Dropout, waited: Int)?

    /// A detector for interleaved frames of `channels` channels at `rate` Hz (both at least 1).
    init(channels: Int, rate: Int) {
        self.channels = max(1, channels)
        minimumFrames = max(2, Int(Double(max(1, rate)) * Self.minimumSeconds))
        longestFrames = max(minimumFrames, Int(Double(max(1, rate)) * Self.longestSeconds))
    }

    /// Scans the next interleaved samples (whole frames; a partial frame at the end is
    /// ignored) and returns the dropouts that ended in them.
    mutating func scan(_ samples: UnsafeBufferPointer<Float>) -> [Dropout] {
        var found: [Dropout] = []
        var i = 0
        while i + channels <= samples.count {
            var silent = true
            var sound = false
            for c in 0..<channels {
                let v = samples[i + c]
                if v != 0 { silent = false }
                if abs(v) >= Self.level { sound = true }
            }
            i += channels
            step(silent: silent, sound: sound, into: &found)
        }
        return found
    }

    private mutating func step(silent: Bool, sound: Bool, into found: inout [Dropout]) {
        defer {
            frames += 1
            sinceSound = sound ? 0 : min(sinceSound + 1, Int.max / 2)
        }
        if silent {
            // A second silence before sound came back: the first was the sound fading out.
            pending = nil
            if run == nil { run = (frames, sinceSound <= Self.nearFrames) }
            return
        }
        if let ended = run {
            run = nil
            let length = frames - ended.start
            if ended.afterSound, length >= minimumFrames, length <= longestFrames {
                pending = (Dropout(frame: ended.start, frames: length), 0)
            }
        }
        guard let waiting = pending else { return }
        if sound {
            found.append(waiting.dropout)
            pending = nil
        } else if waiting.waited + 1 >= Self.nearFrames {
            pending = nil
        } else {
            pending = (waiting.dropout, waiting.waited + 1)
        }
    }
}
