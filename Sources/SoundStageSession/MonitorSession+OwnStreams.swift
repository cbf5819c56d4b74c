import CPulse

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore

/// This process's own playback streams as the server plays them: each is recorded back from
/// the server through its own monitor stream (`pa_stream_set_monitor_stream`, what a volume
/// meter of one application uses) and scanned for dropouts, so that a stream the server ran
/// dry is heard where it happened, not guessed from the client's side.
///
/// OpenAL Soft's stream asks for no start threshold (`prebuf` 0), so when its mixer is late
/// the server plays silence and carries on; the mixer then writes a burst that puts its clock
/// back in step with the wall clock, and a process starved as a whole (its service thread with
/// its mixer) never sees its clock lag. The server's own copy of what it played shows every
/// such gap (measured: a process stopped for 150 ms with 50 ms of buffer, 104.5 ms of exact
/// silence in both the sink's monitor and the stream's own).
///
/// Costs a record stream at the stream's own rate and channels (48 kHz stereo: 384 kB a second
/// through the server's shared memory) and a pass over its samples on the monitor's thread.
struct OwnStreams: Sendable {
    /// One stream listened to.
    struct Listened: Sendable {
        /// The record stream of its monitor.
        let record: PulseHandle
        /// The sink input it listens to.
        let input: UInt32
        let rate: Int
        var detector: DropoutDetector
    }

    /// By sink input.
    var listened: [UInt32: Listened] = [:]

    /// Which sink input a record stream listens to.
    func input(of record: OpaquePointer) -> UInt32? {
        listened.values.first { $0.record.raw == record }?.input
    }
}

extension MonitorSession {
    /// The most a listening stream lets the server hold for it (seconds); past that the server
    /// drops what the monitor's thread did not read in time (a hole, which is not a dropout).
    static let listeningBufferSeconds = 1.0
    /// How much the server hands over at a time (frames of the stream listened to): 2,048,
    /// PipeWire's largest quantum by default (43 ms at 48 kHz). A record stream's fragment is
    /// a latency it asks of the server, and the server runs the sink as fast as its most
    /// hurried stream: PipeWire's graph runs at the power of two at or below the shortest
    /// node latency, and pipewire-pulse gives a record stream its fragment as node latency
    /// (20 ms, 960 frames, made the graph run at 512 beside the game's 2,048-frame stream;
    /// PipeWire 0.3.65 left whole cycles silent there); PulseAudio keeps a sink as quick as
    /// its monitor's quickest reader. Watching must not make the output it watches hurry.
    static let listeningFragmentFrames = 2_048

    /// Starts listening to `input`, one of this process's own playback streams, unless it is
    /// already listened to (or listening is off). `rate` and `channels` are its sample spec as
    /// the server reported it, checked before use. Mainloop thread.
    func listen(to input: SinkInput, _ context: OpaquePointer, rate: UInt32, channels: UInt8) {
        guard let ownStreams, state.withLock({ $0.isLive(context) }),
              ownStreams.withLock({ $0.listened[input.index] == nil }) else { return }
        // The server's word: a rate and a channel count a stream can have, or nothing.
        guard (1...384_000).contains(rate), (1...UInt8(PA_CHANNELS_MAX)).contains(channels) else { return }
        var spec = ss_float_spec(rate, channels)
        guard let record = libpulse.stream_new(context, "SoundStage output dropout watch", &spec, nil) else { return }
        let frameBytes = Int(channels) * 4
        var attributes = ss_record_buffer(UInt32(Double(frameBytes * Int(rate)) * Self.listeningBufferSeconds),
                                          UInt32(frameBytes * Self.listeningFragmentFrames))
        let userdata = self.userdata
        libpulse.stream_set_read_callback(record, { record, _, userdata in
            guard let record else { return }
            MonitorSession.from(userdata)?.ownStreamReadable(record)
        }, userdata)
        libpulse.stream_set_state_callback(record, { record, userdata in
            guard let record else { return }
            MonitorSession.from(userdata)?.ownStreamStateChanged(record)
        }, userdata)
        guard libpulse.stream_set_monitor_stream(record, input.index) == 0,
              libpulse.stream_connect_record(record, nil, &attributes, ss_monitor_stream_flags()) == 0 else {
            release(record)
            return
        }
        ownStreams.withLock {
            $0.listened[input.index] = OwnStreams.Listened(record: PulseHandle(record), input: input.index, rate: Int(rate),
                                                          detector: DropoutDetector(channels: Int(channels), rate: Int(rate)))
        }
    }

    /// What the server played of a listened stream arrived: scanned, and its dropouts
    /// reported. Mainloop thread.
    private func ownStreamReadable(_ record: OpaquePointer) {
        guard let ownStreams else { return }
        var dropouts: [(input: UInt32, seconds: Double)] = []
        while true {
            var data: UnsafeRawPointer?
            var bytes = 0
            guard libpulse.stream_peek(record, &data, &bytes) == 0, bytes > 0 else { break }
            // No data with a length is a hole (what the server dropped): nothing to scan.
            if let data {
                let samples = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: bytes / 4)
                ownStreams.withLock { streams in
                    guard let input = streams.input(of: record), var listened = streams.listened[input] else { return }
                    for dropout in listened.detector.scan(samples) {
                        dropouts.append((input, Double(dropout.frames) / Double(listened.rate)))
                    }
                    streams.listened[input] = listened
                }
            }
            _ = libpulse.stream_drop(record)
        }
        emit(dropouts.map { .outputDropout(stream: $0.input, seconds: $0.seconds) })
    }

    /// A listening stream failed or ended (the server refused it, or the stream it listens to
    /// went): it stops being read; it is released when its sink input goes or the connection
    /// closes. Mainloop thread.
    private func ownStreamStateChanged(_ record: OpaquePointer) {
        let ended = libpulse.stream_get_state(record)
        guard ended == PA_STREAM_FAILED || ended == PA_STREAM_TERMINATED else { return }
        libpulse.stream_set_read_callback(record, nil, nil)
    }

    /// The sink input `index` went: its listening stream goes too. Mainloop thread.
    func ownStreamRemoved(_ index: UInt32) {
        guard let listened = ownStreams?.withLock({ $0.listened.removeValue(forKey: index) }) else { return }
        release(listened.record.raw)
    }

    /// Every listening stream goes (the connection closes or failed). Mainloop lock held.
    func closeOwnStreams() {
        guard let all = ownStreams?.withLock({ streams in defer { streams.listened = [:] }; return Array(streams.listened.values) }) else { return }
        for listened in all { release(listened.record.raw) }
    }

    /// Stops hearing from a record stream, disconnects it and drops our reference.
    private func release(_ record: OpaquePointer) {
        libpulse.stream_set_read_callback(record, nil, nil)
        libpulse.stream_set_state_callback(record, nil, nil)
        if libpulse.stream_get_state(record) == PA_STREAM_READY || libpulse.stream_get_state(record) == PA_STREAM_CREATING {
            _ = libpulse.stream_disconnect(record)
        }
        libpulse.stream_unref(record)
    }
}
