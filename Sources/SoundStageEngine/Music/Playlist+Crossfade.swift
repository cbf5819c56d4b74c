import SoundStageCore
import SoundStageSession

extension Playlist {
    /// Crossfades from the item playing to the start of item `index` (the same one again
    /// works too): a second player of the playlist starts there and becomes ``player`` (with
    /// the first one's volume, bus, tempo, placement and policies), while the first fades out
    /// and stops, as ``Player/crossfade(to:duration:curve:on:)`` does. Beats and bars are the
    /// playlist's tempo. Events follow the new player: the item playing ends, item `index`
    /// starts.
    ///
    /// ```swift
    /// try album.crossfade(toItem: 3, duration: 4, on: .nextBar)
    /// ```
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for an index outside
    ///   the playlist, and what ``Player/crossfade(to:duration:curve:on:)`` throws.
    public func crossfade(toItem index: Int, duration: Double, curve: FadeCurve = .equalPower, on point: TransitionPoint = .now) throws {
        let member = "crossfade(toItem: \(index), duration:curve:on:)"
        guard plan.items.indices.contains(index) else {
            throw failure(.invalidArgument, member, "the index must be in 0..<\(plan.items.count)")
        }
        let outgoing = player
        guard let engine = outgoing.engine else {
            throw failure(.invalidState, member, "its engine was released; keep the AudioEngine while you play sound")
        }
        let incoming = Player(sound: outgoing.sound, engine: engine, timeline: timeline)
        incoming.volume = outgoing.volume
        incoming.pan = outgoing.pan
        incoming.rate = outgoing.rate
        incoming.position = outgoing.position
        incoming.interruptionPolicy = outgoing.interruptionPolicy
        incoming.underrunPolicy = outgoing.underrunPolicy
        try incoming.setStreamBuffering(outgoing.streamBuffering)
        try incoming.setTempo(outgoing.tempo)
        if let bus = outgoing.bus { try incoming.setBus(bus) }
        try incoming.seek(toFrame: plan.items[index].start)
        try outgoing.crossfade(to: incoming, duration: duration, curve: curve, on: point)
        current.withLock { $0 = incoming }
        timeline.state.withLockedValue { $0.active = ObjectIdentifier(incoming) }
    }

    /// ``crossfade(toItem:duration:curve:on:)``: a beat or bar is `on:`, as for players.
    @available(*, deprecated, renamed: "crossfade(toItem:duration:curve:on:)")
    public func crossfade(toItem index: Int, duration: Double, curve: FadeCurve = .equalPower, at point: TransitionPoint) throws {
        try crossfade(toItem: index, duration: duration, curve: curve, on: point)
    }
}
