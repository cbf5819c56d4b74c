import Foundation
import SoundStageCore
import SoundStageSession

/// A streamed sound: decoded in chunks (100 ms by default), a few kept queued (four by
/// default, more after an underrun: ``StreamBuffering``).
///
/// A chunk holds one or more segments of the sound: a play that ends inside a chunk goes on
/// with the next play in the same chunk, so loops stay sample-exact however short the sound.
final class StreamFeed: PlaybackFeed {
    struct Chunk {
        let buffer: AudioBuffer
        /// Runs of sound frames in the chunk, in order: where each starts, how long it is, and
        /// whether it begins a play of the feed's own (the feed went back to frame 0 for the
        /// next loop; a decoder's own repeats, as a playlist's, are not plays).
        let segments: [(start: Int, frames: Int, beginsPlay: Bool)]
        var frames: Int { buffer.frameCount }
    }

    let decoder: any AudioDecoder
    let label: String
    /// Frames per chunk (at least 256).
    let chunkFrames: Int
    /// How many chunks to keep queued; doubled by ``deepen()`` up to ``maximumDepth``.
    private(set) var depth: Int
    let maximumDepth: Int
    /// The chunks in the source's queue, processed ones included until unqueued.
    private(set) var chunks: [Chunk] = []
    /// The last chunk unqueued, kept for metering and for the latency-corrected playhead
    /// across a chunk boundary.
    private var previous: Chunk?
    /// Plays still to begin after the one being decoded (-1 forever).
    private(set) var loopsLeft: Int
    /// The decoder reached the end of the last play.
    private(set) var ended = false
    /// Decoding failed; what decoded before is still played.
    private(set) var failure: SoundStageError?
    /// Whether ``refill(_:)`` has handed ``failure`` on.
    private var failureReported = false
    /// The feed went back to frame 0 for its next play: the next segment begins a play.
    private var loopedBack = false
    /// Frames decoded since the feed last went back to frame 0: a play that gives none (a
    /// file nothing of which decodes any more) ends the loops rather than going round for ever.
    private var framesThisPlay = 0
    /// The decoder's damage spans looked at so far, and the errors for those passed over
    /// (damaged data skipped, an item of a playlist cut short) not yet handed on: each is
    /// reported once, as the stream reaches it, and the stream plays on.
    private var damageSeen = 0
    private var damageToReport: [SoundStageError] = []
    /// Whether a block of silence follows the last chunk (where the mixer holds the last
    /// sample it played: ``MixerSmoothing``). It is a chunk with no segments.
    private var silenceQueued = false
    /// Whether the end of a file shorter than its header states (known when it opened) was
    /// reported: once, as the stream first reaches it, and the stream plays on (it loops
    /// what there is).
    private var shortEndReported = false
    /// Seconds the next refill waits once it has queued a chunk (the engine's test hook,
    /// ``AudioEngine/stallRefill(seconds:)``).
    var stallWhileQueueing = 0.0

    /// Streams from `decoder` (at frame 0), playing the sound `loops` more times after the
    /// first (-1 forever); `label` names the sound in errors.
    init(decoder: any AudioDecoder, loops: Int, label: String, buffering: StreamBuffering = .standard) {
        self.decoder = decoder
        self.label = label
        chunkFrames = max(256, Int((buffering.chunkSeconds * Double(decoder.sampleRate)).rounded()))
        depth = buffering.chunks
        maximumDepth = buffering.maximumChunks
        loopsLeft = loops
    }

    /// The frames in the source's queue (processed chunks included until unqueued), and the
    /// frame the decoder reads next: the one after the last queued (a repeat already taken).
    var queueEnd: (frames: Int, nextFrame: Int)? { (chunks.reduce(0) { $0 + $1.frames }, decoder.position) }

    /// Keeps twice as many chunks queued from now on, up to ``maximumDepth``; returns the
    /// queue's new length in seconds.
    func deepen() -> Double? {
        depth = min(maximumDepth, depth * 2)
        return Double(depth * chunkFrames) / Double(decoder.sampleRate)
    }

    /// Whether nothing more will be queued: the last play is decoded, or decoding failed.
    var isExhausted: Bool { ended || failure != nil }

    func isInEndSilence(_ source: AudioSource) -> Bool {
        silenceQueued && source.get(.sampleOffset) >= chunks.dropLast().reduce(0) { $0 + $1.frames }
    }

    /// Frames queued before the one a stream is attached at: its start is then inside the
    /// queue, so OpenAL fades it in (a source started at the head of its queue is not
    /// faded, and a sound joined in its middle would begin with a step), and a resampler
    /// that reads behind the playhead (OpenAL Soft reads up to 24 frames) finds the sound.
    static let leadFrames = 48

    func attach(to source: AudioSource, atFrame frame: Int, fraction: Double) throws {
        try source.set(.isLooping, to: false)
        let start = min(frame, decoder.frameCount)
        let lead = min(start, Self.leadFrames)
        framesThisPlay = start   // joined mid-way: this play has given frames
        try decoder.seek(toFrame: start - lead)
        try fill(source)
        if chunks.isEmpty, let failure { throw failure }
        let queued = chunks.reduce(0) { $0 + $1.frames }
        if lead < queued { try setStart(of: source, offset: lead, fraction: fraction) }
    }

    func refill(_ source: AudioSource) throws -> SoundStageError? {
        let done = try source.unqueueProcessedBuffers()
        if !done.isEmpty, !chunks.isEmpty {
            let n = min(done.count, chunks.count)   // the same buffers, in the same order
            previous = chunks[n - 1]
            chunks.removeFirst(n)
        }
        try fill(source)
        if !damageToReport.isEmpty { return damageToReport.removeFirst() }
        guard let failure, !failureReported else { return nil }
        failureReported = true
        return failure
    }

    /// Takes the damage the decoder noted since the last look: what it passed over is
    /// reported (one a tick); where it was cut short, the stream ends (``failure``).
    private func takeDamage() {
        let spans = decoder.damage
        guard spans.count > damageSeen else { return }
        for span in spans[damageSeen...] where span.kind == .damaged {
            damageToReport.append(Sound.failure(.decodingFailed, "stream", object: label, span.description))
        }
        damageSeen = spans.count
    }

    /// How many chunks a seek decodes before the source may start again: the rest of the
    /// queue fills on the next ticks. (An underrun's restart decoded all of a 400 ms queue
    /// first, and on a machine too busy to decode in time that was 400 ms more of silence.)
    static let startChunks = 2

    func seek(_ source: AudioSource, toFrame frame: Int, heardOffset: Int) throws -> Bool {
        try source.stop()
        try source.setBuffer(nil)
        restart(at: frame, keepingPlayAt: heardOffset)
        try fill(source, upTo: min(depth, Self.startChunks))
        if chunks.isEmpty, let failure { throw failure }
        return true
    }

    /// Decodes and queues chunks until ``depth`` are queued, the sound ends, or decoding
    /// fails (``failure``, what decoded before still plays).
    ///
    /// - Throws: what OpenAL refused while making or queueing a chunk. That is no decoding
    ///   error: it ends the stream (nothing more is queued) and is the caller's to report.
    private func fill(_ source: AudioSource) throws {
        try fill(source, upTo: depth)
    }

    /// Fills as ``fill(_:)`` does, up to `count` chunks.
    private func fill(_ source: AudioSource, upTo count: Int) throws {
        let frameBytes = decoder.outputFormat.bytesPerBlock
        while chunks.count < count, !isExhausted {
            var bytes: [UInt8] = []
            var segments: [(start: Int, frames: Int, beginsPlay: Bool)] = []
            var frames = 0
            do {
                while frames < chunkFrames {
                    let start = decoder.position
                    let part = try decoder.read(maxFrames: chunkFrames - frames)
                    takeDamage()
                    if part.isEmpty {
                        // Short of its stated length, a stream with gaps skipped (and no cut)
                        // has ended all the same: the frames missing are the gaps'.
                        let gapsOnly = decoder.damage.contains { $0.kind == .damaged } && !decoder.damage.contains { $0.kind == .cutShort }
                        if decoder.position < decoder.frameCount, !gapsOnly {
                            let cut = decoder.damage.last { $0.kind == .cutShort }
                            throw Sound.failure(.decodingFailed, "stream", object: label,
                                                cut?.description ?? "the data ends at frame \(decoder.position) of the \(decoder.frameCount) it states")
                        }
                        if !shortEndReported, let cut = decoder.damage.first(where: { $0.kind == .cutShort }) {
                            shortEndReported = true
                            damageToReport.append(Sound.failure(.decodingFailed, "stream", object: label, cut.description))
                        }
                        if loopsLeft != 0, decoder.frameCount > 0, framesThisPlay > 0 {
                            if loopsLeft > 0 { loopsLeft -= 1 }
                            try decoder.seek(toFrame: 0)
                            loopedBack = true
                            framesThisPlay = 0
                            continue
                        }
                        ended = true
                        break
                    }
                    bytes += part
                    framesThisPlay += part.count / frameBytes
                    segments.append((start, part.count / frameBytes, loopedBack))
                    loopedBack = false
                    frames += part.count / frameBytes
                }
            } catch let error as SoundStageError {
                failure = error
            } catch {
                failure = Sound.failure(.decodingFailed, "stream", object: label, "\(error)")
            }
            guard frames > 0 else { break }
            do {
                let buffer = try AudioBuffer(context: source.context, bytes: bytes, format: decoder.outputFormat,
                                             sampleRate: decoder.sampleRate, label: label)
                try source.queue([buffer])
                chunks.append(Chunk(buffer: buffer, segments: segments))
                if stallWhileQueueing > 0 {
                    Thread.sleep(forTimeInterval: stallWhileQueueing)
                    stallWhileQueueing = 0
                }
            } catch {
                ended = true
                throw error
            }
        }
        if isExhausted, !silenceQueued, let last = chunks.last, source.context.mixerSmoothing.holdsLastSample {
            let silence = try AudioBuffer.silence(like: last.buffer)
            try source.queue([silence])
            chunks.append(Chunk(buffer: silence, segments: []))
            silenceQueued = true
        }
    }

    /// After the source's queue was emptied for a seek while the frame `heard` frames into
    /// it was being heard: gives back the plays the decoder had begun beyond that one, and
    /// decodes from `frame` next.
    private func restart(at frame: Int, keepingPlayAt heard: Int) {
        if loopsLeft >= 0 { loopsLeft += playsBegun(after: heard) }
        chunks = []
        previous = nil
        ended = false
        failure = nil
        failureReported = false
        loopedBack = false
        silenceQueued = false
        framesThisPlay = frame
        do { try decoder.seek(toFrame: frame) } catch let error as SoundStageError { failure = error } catch {
            failure = Sound.failure(.decodingFailed, "stream", object: label, "\(error)")
        }
    }

    /// The plays the decoder has begun beyond the one heard `heard` frames into the queue:
    /// after the segment heard, each segment that begins a play is one. A negative
    /// `heard` (latency taken off just after a chunk was unqueued) reaches back into the last
    /// chunk unqueued, and the plays that began there count too.
    private func playsBegun(after heard: Int) -> Int {
        var left = max(0, heard + (previous?.frames ?? 0)), passedHeard = false, begun = 0
        let all = (previous.map { [$0] } ?? []) + chunks
        for segment in all.lazy.flatMap(\.segments) {
            if passedHeard {
                if segment.beginsPlay { begun += 1 }
            } else if left < segment.frames {
                passedHeard = true
            } else {
                left -= segment.frames
            }
        }
        return begun
    }

    func remainingPlays(atQueueOffset offset: Int) -> Int {
        loopsLeft < 0 ? -1 : 1 + loopsLeft + playsBegun(after: offset)
    }

    func frame(atQueueOffset offset: Int) -> Int {
        let all = (previous.map { [$0] } ?? []) + chunks
        var left = offset + (previous?.frames ?? 0)
        guard left >= 0 else { return all.first?.segments.first?.start ?? decoder.position }
        for chunk in all {
            for segment in chunk.segments {
                if left < segment.frames { return segment.start + left }
                left -= segment.frames
            }
        }
        guard let last = all.last(where: { !$0.segments.isEmpty })?.segments.last else { return decoder.position }
        return last.start + last.frames
    }

    func samples(endingAtQueueOffset offset: Int, soundFrame frame: Int, frames wanted: Int) -> [Float] {
        let all = (previous.map { [$0] } ?? []) + chunks
        let channels = decoder.channels.channelCount
        let end = min(offset + (previous?.frames ?? 0), all.reduce(0) { $0 + $1.frames })
        let start = max(0, end - wanted)
        guard end > start else { return [] }
        var out: [Float] = []
        out.reserveCapacity((end - start) * channels)
        var base = 0
        for chunk in all {
            defer { base += chunk.frames }
            let from = max(start, base), to = min(end, base + chunk.frames)
            guard from < to else { continue }
            out += chunk.buffer.floatSamples(frames: (from - base)..<(to - base))
        }
        return out
    }
}
