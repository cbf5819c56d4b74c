/// Reads a playlist's items one after another as one sound: each item's first frame follows
/// the last frame of the one before, in the playlist's format, so a single OpenAL source
/// plays them with no gap and no overlap.
///
/// Which item follows is decided when the end of an item is read (``PlaylistPlan/next(after:)``:
/// the same one again, the next, or the first after the last). Positions are playlist frames
/// (item `i` spans `start ..< start + frames`); a repeat goes back to the item's start, so
/// the stream feed sees it as a loop.
final class PlaylistDecoder: AudioDecoder {
    let plan: PlaylistPlan
    private var current = 0
    /// The current item's decoder, opened when first read.
    private var item: (any AudioDecoder)?
    private(set) var position = 0

    init(plan: PlaylistPlan) {
        self.plan = plan
    }

    var container: SoundFile.Container { .wav }
    var encoding: String { "playlist" }
    var channels: ChannelLayout { plan.channels }
    var sampleRate: Int { plan.sampleRate }
    var frameCount: Int { plan.frameCount }
    var outputFormat: BufferFormat { BufferFormat(.float32, plan.channels) }

    func read(maxFrames: Int) throws -> [UInt8] {
        guard maxFrames > 0, position < plan.items[current].end else { return [] }
        let entry = plan.items[current]
        let decoder: any AudioDecoder
        if let item {
            decoder = item
        } else {
            decoder = try plan.decoder(for: current)
            if position > entry.start { try decoder.seek(toFrame: position - entry.start) }
            item = decoder
        }
        let bytes = try decoder.read(maxFrames: min(maxFrames, entry.end - position))
        guard !bytes.isEmpty else {
            throw SoundFile.failure(.decodingFailed, "decode", object: entry.sound.label,
                                    "the data ends at frame \(position - entry.start) of the \(entry.frames) it states")
        }
        position += bytes.count / outputFormat.bytesPerBlock
        if position == entry.end, let next = plan.next(after: current) {
            // The next item is chosen as this one's end is read, so the position is always
            // the frame the next read returns (the stream feed marks its segments by it).
            current = next
            position = plan.items[next].start
            item = nil
        }
        return bytes
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "the frame must be in 0...\(frameCount)") }
        let index = plan.item(atFrame: frame)
        if index != current || item == nil || frame != position {
            current = index
            item = nil
        }
        position = frame
    }
}
