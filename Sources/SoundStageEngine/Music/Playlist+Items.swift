import SoundStageCore
import SoundStageSession

extension Playlist {
    /// The item being heard (the first before the playlist plays, and again once it finished:
    /// the player's playhead goes back to the start).
    public var currentItemIndex: Int { plan.item(atFrame: player.currentFrame) }

    /// The playhead in seconds within the current item.
    public var currentItemTime: Double {
        let frame = player.currentFrame
        return Double(frame - plan.items[plan.item(atFrame: frame)].start) / Double(plan.sampleRate)
    }

    /// Where each item begins, in seconds of the playlist (``Player/currentTime`` of
    /// ``player``), in the playlist's format.
    public var itemStartTimes: [Double] { plan.items.map { Double($0.start) / Double(plan.sampleRate) } }

    /// Where each item begins, in frames of the playlist (``Player/currentFrame``).
    public var itemStartFrames: [Int] { plan.items.map(\.start) }

    /// Each item's length in frames of the playlist's format.
    public var itemFrameCounts: [Int] { plan.items.map(\.frames) }

    /// Moves to `time` seconds into item `index`, playing or not.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for an index or time
    ///   outside the playlist, and what ``Player/seek(toFrame:)`` throws.
    public func seek(toItem index: Int, time: Double = 0) throws {
        let member = "seek(toItem: \(index), time: \(time))"
        guard plan.items.indices.contains(index) else {
            throw failure(.invalidArgument, member, "the index must be in 0..<\(plan.items.count)")
        }
        let item = plan.items[index]
        let frame = (time * Double(plan.sampleRate)).rounded()
        guard time.isFinite, frame >= 0, frame < Double(item.frames) else {
            throw failure(.invalidArgument, member, "the time must be in 0..<\(Double(item.frames) / Double(plan.sampleRate)) s")
        }
        try player.seek(toFrame: item.start + Int(frame))
    }

    /// Moves to the start of the next item (the first after the last when ``repeatMode`` is
    /// `.all`). From the last item otherwise, the playlist stops and goes back to its start,
    /// without a `finished` event, as ``Player/stop()``.
    public func skipToNextItem() throws {
        let index = currentItemIndex
        if index + 1 < plan.items.count {
            try seek(toItem: index + 1)
        } else if repeatMode == .all {
            try seek(toItem: 0)
        } else {
            player.stop()
            try player.seek(toFrame: 0)
        }
    }

    /// Moves to the start of the item before (the last from the first when ``repeatMode`` is
    /// `.all`, the start of the first otherwise).
    public func skipToPreviousItem() throws {
        let index = currentItemIndex
        try seek(toItem: index > 0 ? index - 1 : (repeatMode == .all ? plan.items.count - 1 : 0))
    }

    /// Moves to the start of the current item.
    public func skipToBeginning() throws {
        try seek(toItem: currentItemIndex)
    }
}
