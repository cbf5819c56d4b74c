import SoundStageCore
import SoundStageSession

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
    /// The damage met in the items so far, in playlist frames.
    private(set) var damage: [DecodeDamage.Span] = []
    /// How many of the current item decoder's spans are in ``damage``, and whether one said
    /// the item was cut short.
    private var spansTaken = 0
    private var cutNoted = false

    init(plan: PlaylistPlan) {
        self.plan = plan
    }

    var container: SoundFile.Container { .wav }
    var encoding: String { "playlist" }
    var channels: ChannelLayout { plan.channels }
    var sampleRate: Int { plan.sampleRate }
    var frameCount: Int { plan.frameCount }
    var outputFormat: BufferFormat { BufferFormat(.float32, plan.channels) }

    /// Reads from the current item, going on to the next at its end. An item that cannot be
    /// decoded, or whose data ends early, is damage of the playlist's, not its end: what
    /// decoded of it plays, the damage is noted (``damage``), and the next item follows.
    func read(maxFrames: Int) throws -> [UInt8] {
        // Every item passed over without a frame: none will give one (a repeat of a damaged
        // item would go round for ever).
        var emptyItems = 0
        while maxFrames > 0, position < plan.items[current].end, emptyItems <= plan.items.count {
            let entry = plan.items[current]
            var bytes: [UInt8] = []
            do {
                let decoder: any AudioDecoder
                if let item {
                    decoder = item
                } else {
                    decoder = try plan.decoder(for: current)
                    if position > entry.start { try decoder.seek(toFrame: position - entry.start) }
                    item = decoder
                    spansTaken = 0
                    cutNoted = false
                }
                bytes = try decoder.read(maxFrames: min(maxFrames, entry.end - position))
                takeDamage(of: decoder, entry)
            } catch {
                damage.append(DecodeDamage.Span(kind: .damaged, frame: position, framesLost: entry.end - position,
                                                reason: "item \(current) (\(entry.sound.label)) could not be decoded on: \(error)"))
                cutNoted = true
            }
            if bytes.isEmpty {
                // Cut short: the next item follows right after what decoded of this one.
                if !cutNoted {
                    damage.append(DecodeDamage.Span(kind: .damaged, frame: position, framesLost: entry.end - position,
                                                    reason: "item \(current) (\(entry.sound.label)) ends at its frame \(position - entry.start) of \(entry.frames)"))
                }
                position = entry.end
                emptyItems += 1
                if !advance() { return [] }
                continue
            }
            position += bytes.count / outputFormat.bytesPerBlock
            if position == entry.end { _ = advance() }
            return bytes
        }
        return []
    }

    /// At the end of the current item: the next, as the playlist repeats now. The next item is
    /// chosen as this one's end is read, so the position is always the frame the next read
    /// returns (the stream feed marks its segments by it). False at the playlist's end.
    private func advance() -> Bool {
        guard let next = plan.next(after: current) else { return false }
        current = next
        position = plan.items[next].start
        item = nil
        spansTaken = 0
        cutNoted = false
        return true
    }

    /// Takes the current item's new damage into the playlist's, in playlist frames; an item
    /// cut short is damage of the playlist's (it goes on with the next item).
    private func takeDamage(of decoder: any AudioDecoder, _ entry: PlaylistPlan.Item) {
        let spans = decoder.damage
        guard spans.count > spansTaken else { return }
        for span in spans[spansTaken...] {
            if span.kind == .cutShort { cutNoted = true }
            damage.append(DecodeDamage.Span(kind: .damaged, frame: entry.start + span.frame, framesLost: span.framesLost,
                                            reason: "item \(current) (\(entry.sound.label)) \(span.kind == .cutShort ? "cut short" : "damaged"): \(span.reason)"))
        }
        spansTaken = spans.count
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "the frame must be in 0...\(frameCount)") }
        let index = plan.item(atFrame: frame)
        if index != current || item == nil || frame != position {
            current = index
            item = nil
            spansTaken = 0
            cutNoted = false
        }
        position = frame
    }
}
