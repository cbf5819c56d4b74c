/// One stream of another application that a session lowered (a sink input), with the volumes
/// to tell the server's word from the user's.
struct DuckedStream: Codable, Sendable, Equatable {
    /// The server's index for the stream (never reused while the server runs).
    var index: UInt32
    /// Its `application.name`.
    var application: String?
    /// Its `module-stream-restore.id`: the name under which the server remembers its volume
    /// for the application's next stream.
    var restoreID: String?
    /// Its volume before it was lowered, per channel (`pa_volume_t`).
    var original: [UInt32]
    /// The volume it was lowered to.
    var lowered: [UInt32]
    /// The server has shown the lowered volume: from now on, any other volume is the user's.
    var confirmed = false
    /// On a sink with flat volumes (``SoundServerMonitor/Sink/flatVolume``): the sink's volume
    /// (its loudest channel) that ``original`` and ``lowered`` were taken at; nil elsewhere.
    var sinkVolume: UInt32?

    /// The index of a stream that is gone (PA_INVALID_INDEX): no stream has it.
    static let gone = UInt32.max

    /// The stream as a change of its sink's volume to `sink`'s carried it: with flat volumes,
    /// PulseAudio scales every stream of a sink by as much as the sink's volume changed, so the
    /// volume from before and the lowered one are scaled by the sink's volume now over the one
    /// they were taken at. Nil where the sink has no flat volumes, its volume is unchanged or 0
    /// (a sink at 0 holds its streams at 0 and keeps their share: they come back with it), or
    /// the stream was taken with no sink volume. No volume is carried above the sink's (with
    /// flat volumes none of its streams is; a record is not trusted to say otherwise).
    func carried(by sink: SoundServerMonitor.Sink?) -> DuckedStream? {
        guard let sink, sink.flatVolume, let was = sinkVolume, was > 0, sink.volume > 0, sink.volume != was else { return nil }
        let scale = { (v: UInt32) in UInt32(min(UInt64(sink.volume), (UInt64(v) * UInt64(sink.volume) + UInt64(was / 2)) / UInt64(was))) }
        var stream = self
        stream.original = original.map(scale)
        stream.lowered = lowered.map(scale)
        stream.sinkVolume = sink.volume
        return stream
    }

    /// Whether two volumes are the same, as far as a server's read-back goes: PulseAudio gives
    /// back what was set; pipewire-pulse keeps volumes as floats and may give back a neighbour.
    static func same(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            let (lo, hi) = (min(x, y), max(x, y))
            return hi - lo <= max(4, hi / 2000)
        }
    }
}

/// What a session's ducking knows of the server's streams (on the monitor's connection): the
/// streams it lowered, the ones the user took back, and the ones that went while lowered.
struct StreamDucking: Sendable {
    /// The factor streams are lowered by (`pa_volume_t`, `PA_VOLUME_NORM` is 1).
    let factor: UInt32
    /// How much lower, in dB.
    let depth: Double
    /// The server the streams are on: its address and cookie (nil before it was reached).
    var server: (address: String, cookie: UInt32)?
    /// The ducking ended while the server could not be reached: what it lowered is given back
    /// once it can be.
    var stopping = false
    /// The streams lowered, by index.
    var streams: [UInt32: DuckedStream] = [:]
    /// Streams the user changed after they were lowered: theirs now, never lowered again.
    var released: Set<UInt32> = []
    /// Streams another SoundStage session that still runs lowered (as its record says): left
    /// to it, and taken on when it gives them back before this one ends.
    var othersLowered: [UInt32: DuckedStream] = [:]
    /// Streams that went while lowered: the server may remember the lowered volume for their
    /// application's next stream (PulseAudio's module-stream-restore does), which is put right
    /// when the ducking ends.
    var vanished: [DuckedStream] = []

    /// What to do about a stream seen (new, or changed).
    enum Step: Equatable {
        /// Nothing.
        case none
        /// Lower it to this volume.
        case lower([UInt32])
        /// The user changed it: it is left as set (the record changed).
        case released
        /// A new stream that took the lowered volume the server remembered for its application:
        /// it is lowered already, and gets the volume from before back (the record changed).
        case adopted
        /// A change of its sink's volume carried the stream with it (flat volumes): the volume
        /// from before is carried as far (the record changed).
        case carried
    }

    /// Whether the session lowers this stream: another process's, not a call, its volume
    /// settable and not zero. (PipeWire starts a stream at 0 until its session manager gives it
    /// its volume; lowered then, the 0 would be set, and kept as the application's volume.)
    static func lowers(_ input: SinkInput, ownPID: Int32) -> Bool {
        input.pid != ownPID && !input.isPhone && input.volumeWritable && input.volume.contains { $0 > 0 }
    }

    /// Takes in a stream as the server shows it now, on `sink` (its sink as the monitor knows it).
    mutating func saw(_ input: SinkInput, sink: SoundServerMonitor.Sink? = nil, ownPID: Int32, lower: ([UInt32]) -> [UInt32]) -> Step {
        if let stream = streams[input.index] {
            if DuckedStream.same(input.volume, stream.lowered) {
                streams[input.index]?.confirmed = true
                return .none
            }
            // The user changed the sink's volume, not the stream's (flat volumes).
            if var carried = stream.carried(by: sink), DuckedStream.same(input.volume, carried.lowered) {
                carried.confirmed = true
                streams[input.index] = carried
                return .carried
            }
            if sink?.flatVolume == true, sink?.volume == 0, input.volume.allSatisfy({ $0 == 0 }) { return .none }
            // Before the lowered volume shows, the old one is only the server running behind.
            if !stream.confirmed && DuckedStream.same(input.volume, stream.original) { return .none }
            streams[input.index] = nil
            released.insert(input.index)
            return .released
        }
        if let other = othersLowered[input.index] {
            if DuckedStream.same(input.volume, other.lowered) { return .none }
            if let carried = other.carried(by: sink), DuckedStream.same(input.volume, carried.lowered) {
                othersLowered[input.index] = carried
                return .none
            }
            othersLowered[input.index] = nil
            // Given back by the other session while this one still ducks: lowered now. Any other
            // volume is the user's.
            guard DuckedStream.same(input.volume, other.original) else {
                released.insert(input.index)
                return .none
            }
        }
        guard !released.contains(input.index), Self.lowers(input, ownPID: ownPID) else { return .none }
        // The server may start an application's new stream at the volume it remembers for it,
        // which is the lowered one once the session lowered another of its streams (PulseAudio's
        // module-stream-restore remembers every volume a client sets): it is given back the
        // volume from before.
        let remembered = { (s: DuckedStream) in s.restoreID == input.restoreID && DuckedStream.same(s.lowered, input.volume) }
        if input.restoreID != nil, let from = streams.values.sorted(by: { $0.index < $1.index }).first(where: remembered)
            ?? vanished.first(where: remembered) {
            vanished.removeAll { $0 == from }
            var stream = from
            stream.index = input.index
            stream.lowered = input.volume
            stream.confirmed = true
            stream.sinkVolume = Self.flatVolume(of: sink)
            streams[input.index] = stream
            return .adopted
        }
        let target = lower(input.volume)
        streams[input.index] = DuckedStream(index: input.index, application: input.application, restoreID: input.restoreID,
                                            original: input.volume, lowered: target, sinkVolume: Self.flatVolume(of: sink))
        return .lower(target)
    }

    /// The volume of `sink` that a stream's volumes are taken at, where it has flat volumes.
    static func flatVolume(of sink: SoundServerMonitor.Sink?) -> UInt32? {
        guard let sink, sink.flatVolume, sink.volume > 0 else { return nil }
        return sink.volume
    }

    /// A stream went; whether the record changed.
    mutating func removed(_ index: UInt32) -> Bool {
        released.remove(index)
        othersLowered[index] = nil
        guard let stream = streams.removeValue(forKey: index) else { return false }
        if stream.restoreID != nil { vanished.append(stream) }
        return true
    }

    /// The server reached is another than the one the streams were lowered on (it was started
    /// again): its streams are gone (a server that remembers volumes may still remember theirs),
    /// and their indices mean other streams now.
    mutating func serverChanged(to server: (address: String, cookie: UInt32)) {
        if self.server != nil {
            vanished += streams.values.filter { $0.restoreID != nil }.sorted { $0.index < $1.index }
            for i in vanished.indices { vanished[i].index = DuckedStream.gone }
            streams.removeAll()
            released.removeAll()
            othersLowered.removeAll()
        }
        self.server = server
    }

    /// Takes on what a process that died left lowered on this server: `present`, the streams it
    /// lowered that are still there as it left them, as lowered by this session (their volume
    /// from before kept); the rest as gone.
    mutating func adopt(_ record: DuckingRecord, present: Set<UInt32>) {
        for var stream in record.streams {
            if present.contains(stream.index) {
                stream.confirmed = true
                streams[stream.index] = stream
            } else if stream.restoreID != nil {
                stream.index = DuckedStream.gone
                vanished.append(stream)
            }
        }
    }

    /// Everything the record keeps: the streams lowered, and the ones that went.
    var recorded: [DuckedStream] { streams.values.sorted { $0.index < $1.index } + vanished }
}
