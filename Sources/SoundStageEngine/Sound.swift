import Foundation
import Synchronization
import SoundStageCore
import SoundStageSession

/// A sound that any number of players share: loaded whole into one OpenAL buffer, or
/// streamed from its file as it plays.
///
/// - **Loaded** (``init(engine:contentsOf:)``, ``init(engine:data:name:)``, waveforms): decoded
///   once, kept in one buffer; every player starts at once. Best for effects and short loops.
/// - **Streamed** (``init(engine:streamingContentsOf:)``, ``init(engine:streamingData:name:)``):
///   only the file's bytes are kept (as they are, compressed stays compressed); each player decodes its own way
///   through them, about 100 ms at a time with four such chunks queued. Best for music and
///   long ambience. Damage met as it plays is reported to the player as
///   ``PlayerEvent/decodeError(_:)``: a gap of damaged data is played past; data that ends
///   early ends the sound after what decoded, with ``PlayerEvent/finished(successfully:)``
///   false.
public final class Sound: Sendable, CustomStringConvertible {
    /// Where the samples come from.
    enum Storage: Sendable {
        /// Loaded whole: the buffer is ``current``.
        case loaded
        case streamed(data: Data, name: String)
        /// A playlist's items, read one after another.
        case playlist(PlaylistPlan)
    }

    let storage: Storage
    private let cachedSamples = LockedBox<[Float]?>(nil)
    /// A loaded sound's buffer on the device its engine plays to now. Replaced, not added
    /// to, when the engine moves: the old buffer, and with it the old device, can then go.
    private let current: LockedBox<AudioBuffer?>
    /// A block of silence in the loaded sound's format on the device of ``current``, queued
    /// after its last play where the mixer holds the last sample (``silence(after:)``).
    private let endSilence = LockedBox<AudioBuffer?>(nil)

    /// The length in seconds.
    public let duration: Double
    /// The number of frames.
    public let frameCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// Channels per frame.
    public let channelCount: Int
    /// Names the sound in messages: the file name, or the name given.
    public let label: String
    /// What did not decode of the sound's file, as far as is known when it is made: for a
    /// loaded sound all of it (``SoundFile/damage``); for a streamed one what its header
    /// tells (a WAV, AIFF or CAF file cut short, an MP3 whose frames stop before its end).
    /// A stream's player reports the rest as it plays (``PlayerEvent/decodeError(_:)``).
    /// Nil when nothing is known to be missing.
    public let damage: DecodeDamage?

    /// Wraps a buffer already made (it must belong to the device of the engine that plays it).
    public init(buffer: AudioBuffer) {
        storage = .loaded
        current = LockedBox(buffer)
        duration = buffer.duration
        frameCount = buffer.frameCount
        sampleRate = buffer.sampleRate
        channelCount = buffer.channelCount
        label = buffer.label ?? "buffer"
        damage = buffer.damage
    }

    /// Loads a sound file (WAV, AIFF, CAF, Ogg Vorbis or Opus, FLAC or MP3) whole into the
    /// engine's context. A file that does not decode whole (damaged data skipped, data that
    /// ends early) loads what decodes, and says what is missing in ``damage`` and in a
    /// warning logged.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` or
    ///   ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the reason.
    public convenience init(engine: AudioEngine, contentsOf url: URL) throws {
        self.init(buffer: try AudioBuffer(context: engine.context, contentsOf: url))
        engine.adopt(self)
        warnOfDamage()
    }

    /// Loads a sound held in memory; `name` identifies it in errors.
    public convenience init(engine: AudioEngine, data: Data, name: String) throws {
        self.init(buffer: try AudioBuffer(context: engine.context, data: data, label: name))
        engine.adopt(self)
        warnOfDamage()
    }

    /// Logs what did not decode, if anything.
    private func warnOfDamage() {
        if let damage { Log.warn("\(label) did not decode whole: \(damage)") }
    }

    /// Makes a waveform (sine, square, sawtooth, white noise, impulse).
    public convenience init(engine: AudioEngine, waveform: Waveform, frequency: Float, phase: Float = 0, duration: Float) throws {
        self.init(buffer: try AudioBuffer(context: engine.context, waveform: waveform, frequency: frequency, phase: phase, duration: duration))
        engine.adopt(self)
    }

    /// A sound streamed from a file as it plays (music, long ambience). The file's bytes are
    /// read into memory now, as they are (compressed stays compressed), and decoded as it
    /// plays: a file changed or truncated meanwhile does not touch what plays. Its header is
    /// read now, so a file that is not a sound fails here.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` or
    ///   ``SoundStageError/Code-swift.struct/decodingFailed`` naming the file and the reason.
    public convenience init(engine: AudioEngine, streamingContentsOf url: URL) throws {
        let data = try SoundFile.contents(of: url, operation: Self.operationName("init(engine:streamingContentsOf:)"))
        try self.init(streaming: data, name: url.lastPathComponent)
    }

    /// A sound streamed from bytes held in memory; `name` identifies it in errors.
    public convenience init(engine: AudioEngine, streamingData data: Data, name: String) throws {
        try self.init(streaming: data, name: name)
    }

    private init(streaming data: Data, name: String) throws {
        let decoder = try SoundFile.decoder(data, name: name)
        storage = .streamed(data: data, name: name)
        current = LockedBox(nil)
        frameCount = decoder.frameCount
        sampleRate = decoder.sampleRate
        channelCount = decoder.channels.channelCount
        duration = decoder.duration
        label = name
        damage = decoder.damage.isEmpty ? nil
            : DecodeDamage(framesStated: decoder.frameCount + decoder.damage.reduce(0) { $0 + ($1.framesLost ?? 0) },
                           framesDelivered: decoder.frameCount, spans: decoder.damage)
        warnOfDamage()
    }

    /// A playlist's items as one streamed sound, in the playlist's format.
    init(playlist plan: PlaylistPlan) {
        storage = .playlist(plan)
        current = LockedBox(nil)
        frameCount = plan.frameCount
        sampleRate = plan.sampleRate
        channelCount = plan.channels.channelCount
        duration = Double(plan.frameCount) / Double(plan.sampleRate)
        label = "playlist of " + plan.items.map(\.sound.label).joined(separator: ", ")
        damage = nil
    }

    /// The buffer of a loaded sound, on the device its engine plays to now (it is uploaded
    /// again when the engine moves to another device); nil for a streamed one.
    public var buffer: AudioBuffer? {
        current.withLock { $0 }
    }

    /// The buffer of a loaded sound on `context`'s device: the one in use, or, when that is on
    /// a device the engine moved away from, a copy uploaded from the kept bytes, which is then
    /// the one in use.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` for a streamed sound,
    ///   ``SoundStageError/Code-swift.struct/wrongContext`` for a sound of another device (not
    ///   one this device took over from), and what uploading the copy throws.
    func buffer(in context: AudioContext) throws -> AudioBuffer {
        // The gateway's lock first, as every other path that reaches `current` takes them.
        return try OpenAL.lock.withLock { _ in
            try current.withLock { current in
                guard let buffer = current else {
                    throw failure(.invalidState, "buffer(in:)", "a streamed sound has no buffer")
                }
                if buffer.context.device === context.device { return buffer }
                try checkPlayable(buffer, on: context.device, "buffer(in:)")
                let copy = try buffer.copy(to: context)
                current = copy
                endSilence.withLock { $0 = nil }   // the old device's: it can go with it
                return copy
            }
        }
    }

    /// A block of silence to queue after `buffer` (the sound's own, from ``buffer(in:)``), made
    /// once per device: where the mixer holds the last sample it played, it then holds silence.
    func silence(after buffer: AudioBuffer) throws -> AudioBuffer {
        try endSilence.withLock { kept in
            if let kept, kept.context === buffer.context { return kept }
            let made = try AudioBuffer.silence(like: buffer)
            kept = made
            return made
        }
    }

    /// Uploads a loaded sound's buffer to `context`'s device now, if it is elsewhere (an engine
    /// that moves does this for each of its sounds, so nothing holds the old device).
    func follow(to context: AudioContext) throws {
        guard buffer != nil else { return }
        _ = try buffer(in: context)
    }

    /// Throws ``SoundStageError/Code-swift.struct/wrongContext`` unless the sound can play on
    /// `device`: a streamed sound, or a loaded one whose buffer is there or on a device this
    /// one took over from.
    func checkPlayable(on device: AudioDevice, _ member: @autoclosure () -> String) throws {
        guard let buffer else { return }
        try checkPlayable(buffer, on: device, member())
    }

    /// The same for the sound's buffer in hand (inside its lock).
    private func checkPlayable(_ buffer: AudioBuffer, on device: AudioDevice, _ member: @autoclosure () -> String) throws {
        guard buffer.context.device !== device, !DeviceSuccession.leads(from: buffer.context.device, to: device) else { return }
        throw failure(.wrongContext, member(), "its buffer is on another device (\(buffer.context.device)) than the one it is played on (\(device)); make the sound with the engine that plays it")
    }

    /// Whether the sound is streamed from its file as it plays.
    public var isStreamed: Bool { buffer == nil }

    /// For example `sound (snare.wav)`.
    public var description: String { "sound (\(label))" }

    /// A new decoder at frame 0, for a streamed sound (linear PCM, so seeks are frame-exact).
    func makeDecoder() throws -> (any AudioDecoder)? {
        switch storage {
        case .loaded: return nil
        case .streamed(let data, let name): return try SoundFile.decoder(data, name: name)
        case .playlist(let plan): return PlaylistDecoder(plan: plan)
        }
    }

    /// A loaded sound's samples as interleaved Float32, decoded once on first use (metering).
    var samples: [Float] {
        guard let buffer else { return [] }
        return cachedSamples.withLock { cache in
            if let cache { return cache }
            let decoded = buffer.floatSamples()
            cache = decoded
            return decoded
        }
    }
}

extension Sound: ErrorNaming {
    package var errorObject: String { description }
}
