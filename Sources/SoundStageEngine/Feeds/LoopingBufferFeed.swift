import SoundStageCore
import SoundStageSession

/// A loaded sound looping forever from one buffer (`AL_LOOPING`): the whole sound, or an
/// intro then a region (`AL_SOFT_loop_points` on a copy of the buffer).
final class LoopingBufferFeed: LoadedSoundFeed {
    let sound: Sound
    /// The buffer looped: the sound's own, or a copy with loop points.
    private let buffer: AudioBuffer
    /// The frame where a loop ends and comes back (the region's end, or the sound's).
    private let loopEnd: Int
    /// Whether the playhead has come round, seen as the offset going back.
    private var wrapped = false
    private var lastOffset = 0

    /// Loops `buffer`, whose loop comes back at frame `loopEnd` of `sound`.
    init(sound: Sound, buffer: AudioBuffer, loopEnd: Int) {
        self.sound = sound
        self.buffer = buffer
        self.loopEnd = loopEnd
    }

    func attach(to source: AudioSource, atFrame frame: Int, fraction: Double) throws {
        try source.setBuffer(buffer)
        try source.set(.isLooping, to: true)
        try setStart(of: source, offset: frame, fraction: fraction)
        lastOffset = frame
    }

    func refill(_ source: AudioSource) throws -> SoundStageError? {
        let offset = source.get(.sampleOffset)
        if offset < lastOffset { wrapped = true }
        lastOffset = offset
        return nil
    }

    /// A looping buffer has nothing more to queue; it stops only when stopped.
    var isExhausted: Bool { true }
    var failure: SoundStageError? { nil }
    func ranDry(_ source: AudioSource) -> Bool { false }

    func seek(_ source: AudioSource, toFrame frame: Int, heardOffset: Int) throws -> Bool {
        try source.set(.sampleOffset, to: frame)   // one looping buffer: jump in place
        wrapped = false
        lastOffset = frame
        return false
    }

    func remainingPlays(atQueueOffset offset: Int) -> Int { -1 }

    func frame(atQueueOffset offset: Int) -> Int {
        guard offset < 0 else { return min(offset, max(0, sound.frameCount - 1)) }
        guard wrapped else { return 0 }
        return max(0, loopEnd + offset)
    }

    func cameRound(atQueueOffset offset: Int) -> Bool { wrapped }
}
