import Synchronization
import SoundStageCore
import SoundStageSession

/// What a playlist plays, fixed when it is made: its items in order, where each begins in the
/// playlist's frames once converted to the playlist's format, and the one setting that may
/// change as it plays (how it repeats). ``PlaylistDecoder`` reads it; the ``Playlist`` and its
/// timeline map frames to items with it.
final class PlaylistPlan: Sendable {
    struct Item: Sendable {
        let sound: Sound
        /// The playlist frame the item begins on.
        let start: Int
        /// Its length in the playlist's format.
        let frames: Int
        var end: Int { start + frames }
    }

    let items: [Item]
    let sampleRate: Int
    let channels: ChannelLayout
    /// Every item once.
    let frameCount: Int
    /// The resampling filters, one per item rate that differs from the playlist's, made once.
    let kernels: [Int: ResamplingKernel]
    let repeatMode: LockedBox<Playlist.RepeatMode>

    init(sounds: [Sound], sampleRate: Int, channels: ChannelLayout) {
        var start = 0
        var items: [Item] = []
        for sound in sounds {
            let frames = sound.sampleRate == sampleRate ? sound.frameCount
                : ResamplingKernel.outputFrames(for: sound.frameCount, inRate: sound.sampleRate, outRate: sampleRate)
            items.append(Item(sound: sound, start: start, frames: frames))
            start += frames
        }
        self.items = items
        self.sampleRate = sampleRate
        self.channels = channels
        frameCount = start
        var kernels: [Int: ResamplingKernel] = [:]
        for rate in Set(sounds.map(\.sampleRate)) where rate != sampleRate {
            kernels[rate] = ResamplingKernel(inRate: rate, outRate: sampleRate)
        }
        self.kernels = kernels
        repeatMode = LockedBox(.off)
    }

    /// The item playlist frame `frame` is in (the last item for the end).
    func item(atFrame frame: Int) -> Int {
        var low = 0, high = items.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if items[mid].start <= frame { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The item that follows `index` as the playlist repeats now; nil at the end.
    func next(after index: Int) -> Int? {
        switch repeatMode.withLock({ $0 }) {
        case .one: return index
        case .all: return (index + 1) % items.count
        case .off: return index + 1 < items.count ? index + 1 : nil
        }
    }

    /// The playlist frame `frames` on from `frame`, going from item to item as the playlist
    /// repeats now; nil when the playlist would have ended first.
    func advance(from frame: Int, by frames: Int) -> Int? {
        var index = item(atFrame: frame), at = frame, left = frames
        while at + left >= items[index].end {
            left -= items[index].end - at
            guard let next = next(after: index) else { return nil }
            index = next
            at = items[index].start
        }
        return at + left
    }

    /// A decoder of item `index` in the playlist's format (Float32), at its first frame.
    func decoder(for index: Int) throws -> any AudioDecoder {
        let sound = items[index].sound
        let source = try sound.makeDecoder()
            ?? SampleArrayDecoder(samples: sound.samples, channels: ChannelLayout(channelCount: sound.channelCount) ?? .mono, sampleRate: sound.sampleRate)
        return ConvertingDecoder(source, sampleRate: sampleRate, channels: channels, label: sound.label, kernel: kernels[sound.sampleRate])
    }
}
