import CPulse
import Foundation
import SoundStageCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Lowering other applications' streams for a session (`duckOthers`), on the monitor's own
/// connection: each stream's volume is set to its own times the ducking factor, and given back
/// exactly when the ducking ends, unless the user changed it meanwhile. What is lowered is
/// recorded (``DuckingRecord``); a monitor that reaches the server takes on, or gives back, what
/// a process that died left lowered there. Lock order as everywhere in the monitor: mainloop
/// lock, then `state`; `lifecycle` before both.
extension MonitorSession {
    /// The values of a libpulse volume.
    static func values(of volume: pa_cvolume) -> [UInt32] {
        withUnsafePointer(to: volume) { v in (0..<UInt32(v.pointee.channels)).map { ss_cvolume_value(v, $0) } }
    }

    /// Starts lowering other applications' streams by `depth` dB, those there now and those that
    /// come (once connected, when not yet). Not on the loop thread. False when the monitor is
    /// stopped (nothing can be lowered).
    func startDucking(depth: Double) -> Bool {
        guard libpulse.threaded_mainloop_in_thread(loop.raw) == 0 else { return false }
        return lifecycle.withLock { freed in
            guard !freed else { return false }
            // What a process that died left lowered, given back since the monitor connected, is
            // done first, so that the streams are lowered from their own volumes, once. Waited
            // for without the mainloop lock (its answers need it); a connection made meanwhile
            // may start another, hence the check again under the lock.
            let deadline = ContinuousClock.now + .seconds(2)
            while true {
                if let giveBack = state.withLock({ $0.deadGiveBack }) { _ = giveBack.wait(timeout: deadline - ContinuousClock.now) }
                libpulse.threaded_mainloop_lock(loop.raw)
                guard state.withLock({ $0.deadGiveBack?.isDone ?? true }) || ContinuousClock.now >= deadline else {
                    libpulse.threaded_mainloop_unlock(loop.raw)
                    continue
                }
                break
            }
            defer { libpulse.threaded_mainloop_unlock(loop.raw) }
            let factor = libpulse.sw_volume_from_dB(-depth)
            let context = state.withLock { s -> PulseHandle? in
                if s.ducking == nil { s.ducking = StreamDucking(factor: factor, depth: depth) } else { s.ducking?.stopping = false }
                return s.phase == .up ? s.context : nil
            }
            if let context { lowerEveryStream(on: context.raw) }
            return true
        }
    }

    /// Ends the ducking: every stream still lowered that the user has not changed gets its
    /// volume back, and a server that remembered a lowered volume for a stream that went
    /// remembers the one before. Waits (up to `timeout`) until the server has done it; returns
    /// the applications given back their volume. The record is removed once the server
    /// answered; while it cannot be reached, the give-back waits for it (the record kept). Not
    /// on the loop thread.
    @discardableResult
    func stopDucking(timeout: Duration) -> [String] {
        guard libpulse.threaded_mainloop_in_thread(loop.raw) == 0 else { return [] }
        return lifecycle.withLock { freed in
            guard !freed else { return [] }
            let done = Countdown()
            libpulse.threaded_mainloop_lock(loop.raw)
            let context = state.withLock { s -> PulseHandle? in
                guard s.ducking != nil else { return nil }
                guard s.phase == .up, let context = s.context else {
                    s.ducking?.stopping = true
                    return nil
                }
                return context
            }
            if let context {
                let ducking = state.withLock { s in defer { s.ducking = nil }; return s.ducking }
                if let ducking { giveBack(ducking.recorded, on: context.raw, done: done) }
                // Streams another game lowered, left to this one while it lived: when it was
                // killed since, they come back now, not at the next session.
                giveBackWhatTheDeadLeft(on: context.raw, done: done)
            }
            libpulse.threaded_mainloop_unlock(loop.raw)
            guard context != nil else { return [] }
            if done.wait(timeout: timeout) {
                libpulse.threaded_mainloop_lock(loop.raw)
                saveRecord()
                libpulse.threaded_mainloop_unlock(loop.raw)
            }
            return done.restored
        }
    }

    /// Whether the session lowers other streams now.
    var isDucking: Bool { state.withLock { $0.ducking.map { !$0.stopping } ?? false } }

    // MARK: On the loop thread (or with the mainloop lock held)

    /// A stream as the server shows it now: lowered if it is new, released if the user changed it.
    func duckingSaw(_ context: OpaquePointer, _ input: SinkInput) {
        let step = state.withLock { s -> StreamDucking.Step in
            guard s.isLive(context), s.phase == .up, s.ducking?.stopping == false, let factor = s.ducking?.factor else { return .none }
            return s.ducking!.saw(input, sink: s.sinks[input.sink], ownPID: getpid()) { volume in
                volume.map { libpulse.sw_volume_multiply($0, factor) }
            }
        }
        switch step {
        case .none: return
        case .lower(let volume): setVolume(volume, of: input.index, on: context, done: nil, application: nil)
        case .released, .adopted, .carried: break
        }
        saveRecord()
    }

    /// A stream went.
    func duckedStreamRemoved(_ context: OpaquePointer, _ index: UInt32) {
        let changed = state.withLock { s in s.context?.raw == context && (s.ducking?.removed(index) ?? false) }
        if changed { saveRecord() }
    }

    /// The connection is up and its tables read: a give-back left waiting is done, the streams
    /// there are lowered (when the session ducks), and what processes that died left lowered
    /// on this server is taken on or given back.
    func duckingConnected(_ context: OpaquePointer) {
        let (ducking, stopping) = state.withLock { s in (s.ducking != nil, s.ducking?.stopping ?? false) }
        if stopping {
            noteServer()
            let left = state.withLock { s in defer { s.ducking = nil }; return s.ducking?.recorded ?? [] }
            giveBack(left, on: context, done: nil)
            saveRecord()
        } else if ducking {
            lowerEveryStream(on: context)
            return
        }
        // Counted, for a ducking that starts meanwhile to wait for (``startDucking(depth:)``).
        let done = Countdown()
        state.withLock { $0.deadGiveBack = done }
        giveBackWhatTheDeadLeft(on: context, done: done)
    }

    /// Gives back what processes that died left lowered on this server (their records' streams,
    /// and what the server remembers for those that went), and discards their records: when the
    /// monitor connects, and when this session's ducking ends (a game killed while another
    /// ducked the same streams left them to it). Mainloop lock held.
    private func giveBackWhatTheDeadLeft(on context: OpaquePointer, done: Countdown) {
        guard let record, recordsTrusted(record),
              let (address, cookie) = state.withLock({ s in s.address.flatMap { a in s.cookie.map { (a, $0) } } })
        else { return }
        for other in OtherDuckingRecord.all(in: record.folder, except: record.file) where !other.isAlive {
            switch other.record.server(address: address, cookie: cookie) {
            case .same:
                giveBack(other.record.streams, on: context, done: done)
            case .restarted:
                giveBack(other.record.streams.map { var s = $0; s.index = DuckedStream.gone; return s }, on: context, done: done)
            case .other:
                other.release()   // another server's (a container's, a test's): for a session that reaches it
                continue
            }
            other.discard()
        }
    }

    /// Lowers every stream on the server that is not lowered yet, after taking on what
    /// processes that died left lowered here, and leaving alone what live ones lowered.
    /// Mainloop lock held.
    private func lowerEveryStream(on context: OpaquePointer) {
        let adopted = adoptServer(on: context)
        let inputs = state.withLock { s in s.inputs.values.sorted { $0.index < $1.index } }
        for input in inputs { duckingSaw(context, input) }
        saveRecord()
        // Their files go once this process's record holds what they lowered.
        for other in adopted { other.discard() }
    }

    /// Notes the server reached (another than before: the streams lowered are gone) and the
    /// records of others on it: those of sessions that died are taken on, the streams of those
    /// that run are left to them. Returns the records taken on, to discard once this one is
    /// saved. Mainloop lock held.
    private func adoptServer(on context: OpaquePointer) -> [OtherDuckingRecord] {
        guard let (address, cookie) = noteServer(), let record, recordsTrusted(record) else { return [] }
        var adopted: [OtherDuckingRecord] = []
        for other in OtherDuckingRecord.all(in: record.folder, except: record.file) {
            let kind = other.record.server(address: address, cookie: cookie)
            guard kind != .other else { continue }
            state.withLock { s in
                // Streams as that session left them: lowered, and not changed since.
                let present = other.record.streams.filter { r in
                    kind == .same && s.inputs[r.index].map { DuckedStream.same($0.volume, r.lowered) } == true
                }
                if other.isAlive {
                    for stream in present { s.ducking?.othersLowered[stream.index] = stream }
                } else {
                    s.ducking?.adopt(other.record, present: Set(present.map(\.index)))
                }
            }
            if !other.isAlive { adopted.append(other) }
        }
        return adopted
    }

    /// The server reached, noted in the ducking (another than before: the streams it lowered
    /// are gone); nil before its address and cookie are known. Mainloop lock held.
    @discardableResult
    private func noteServer() -> (address: String, cookie: UInt32)? {
        state.withLock { s in
            guard let address = s.address, let cookie = s.cookie else { return nil }
            if s.ducking?.server?.cookie != cookie || s.ducking?.server?.address != address { s.ducking?.serverChanged(to: (address, cookie)) }
            return (address, cookie)
        }
    }

    /// Gives `streams` their volumes back: those still there (asked for their volume now, in
    /// case the user just changed it), and for those gone, what the server remembers for their
    /// application's next stream. Mainloop lock held.
    private func giveBack(_ streams: [DuckedStream], on context: OpaquePointer, done: Countdown?) {
        let present = state.withLock { s in Set(streams.map(\.index).filter { s.inputs[$0] != nil }) }
        for stream in streams where present.contains(stream.index) {
            let job = Job.start(self, stream: stream, done: done)
            track(libpulse.context_get_sink_input_info(context, stream.index, { context, info, eol, userdata in
                guard eol == 0, let info, let context, let userdata else { return }
                let job = Job.of(userdata)
                let now = MonitorSession.values(of: info.pointee.volume)
                // As the sink's volume carried it since (flat volumes), or as it was lowered.
                let sink = job.session.state.withLock { $0.sinks[info.pointee.sink] }
                let stream = [job.stream.carried(by: sink), job.stream].compactMap { $0 }.first { stream in
                    DuckedStream.same(now, stream.lowered) || (!stream.confirmed && DuckedStream.same(now, stream.original))
                }
                if let stream {
                    job.session.setVolume(stream.original, of: stream.index, on: context, done: job.done,
                                          application: stream.application ?? "stream \(stream.index)")
                    // Taken as set: a ducking that starts before the server's event lowers it
                    // from this volume, not from the one it replaces.
                    job.session.state.withLock { s in s.inputs[stream.index]?.volume = stream.original }
                }
            }, job), job)
        }
        let gone = streams.filter { !present.contains($0.index) && $0.restoreID != nil }
        guard !gone.isEmpty else { return }
        // A stream that started at the lowered volume the server remembered for its application
        // (one that went, or every one after the server started again) gets the volume from before.
        let claimed = Set(streams.map(\.index))
        let revived = state.withLock { s in s.inputs.values.filter { !claimed.contains($0.index) }.sorted { $0.index < $1.index } }
        for input in revived {
            guard let from = gone.first(where: { $0.restoreID == input.restoreID && DuckedStream.same(input.volume, $0.lowered) }) else { continue }
            setVolume(from.original, of: input.index, on: context, done: done, application: input.application ?? "stream \(input.index)")
        }
        putRightRemembered(gone, on: context, done: done)
    }

    /// For streams that went while lowered: where the server remembers the lowered volume for
    /// their application's next stream, it remembers the original again. PulseAudio's
    /// module-stream-restore lists what it remembers: an entry at the lowered volume is written
    /// back. pipewire-pulse lists only what WirePlumber shares (not the applications'
    /// volumes), but takes a write and hands it to WirePlumber: an entry it did not list is
    /// written all the same. A server without the extension answers the reading with an error,
    /// and nothing is written.
    private func putRightRemembered(_ streams: [DuckedStream], on context: OpaquePointer, done: Countdown?) {
        let job = Job.start(self, streams: streams, done: done)
        track(libpulse.ext_stream_restore_read(context, { context, entry, eol, userdata in
            guard let context, let userdata else { return }
            let job = Job.of(userdata)
            guard eol == 0, let entry = entry?.pointee else {
                if eol > 0 {
                    for stream in job.streams where !job.listed.contains(stream.restoreID ?? "") {
                        var unlisted = pa_ext_stream_restore_info()
                        guard ss_channel_map_default(&unlisted.channel_map, UInt32(stream.original.count)) != 0 else { continue }
                        job.session.remember(stream, in: unlisted, on: context, done: job.done)
                    }
                }
                return
            }
            let name = entry.name.map { String(cString: $0) } ?? ""
            job.listed.insert(name)
            let remembered = MonitorSession.values(of: entry.volume)
            guard let stream = job.streams.first(where: { $0.restoreID == name && DuckedStream.same(remembered, $0.lowered) }) else { return }
            job.session.remember(stream, in: entry, on: context, done: job.done)
        }, job), job)
    }

    /// Writes `entry` (what the server remembers under `stream`'s name) with `stream`'s volume
    /// from before. In a libpulse callback.
    private func remember(_ stream: DuckedStream, in entry: pa_ext_stream_restore_info, on context: OpaquePointer, done: Countdown?) {
        guard let name = stream.restoreID else { return }
        var entry = entry
        entry.volume = stream.original.withUnsafeBufferPointer { ss_cvolume_make($0.baseAddress!, UInt32($0.count)) }
        let written = Job.start(self, application: "\(name) (remembered)", done: done)
        let sent = name.withCString { cName in
            entry.name = cName
            return withUnsafePointer(to: &entry) { entry in
                libpulse.ext_stream_restore_write(context, PA_UPDATE_REPLACE, entry, 1, 0, { _, success, userdata in
                    guard success != 0, let userdata else { return }
                    let job = Job.of(userdata)
                    if let name = job.application { job.done?.note(restored: name) }
                }, written)
            }
        }
        track(sent, written)
    }

    /// Sets a stream's volume; `done` (if any) counts the answer, and notes `application` on success.
    private func setVolume(_ volume: [UInt32], of index: UInt32, on context: OpaquePointer, done: Countdown?, application: String?) {
        guard !volume.isEmpty else { return }
        var cvolume = volume.withUnsafeBufferPointer { ss_cvolume_make($0.baseAddress!, UInt32($0.count)) }
        let job = Job.start(self, application: application, done: done)
        track(libpulse.context_set_sink_input_volume(context, index, &cvolume, { _, success, userdata in
            guard success != 0, let userdata else { return }
            let job = Job.of(userdata)
            if let application = job.application { job.done?.note(restored: application) }
        }, job), job)
    }

    /// Follows an operation to its end: its job is released, and counted done, when it is done
    /// or cancelled (a connection that goes cancels what it had under way, without calling the
    /// operation's own callback). Mainloop lock held (the operation cannot end before this).
    private func track(_ operation: OpaquePointer?, _ job: UnsafeMutableRawPointer) {
        guard let operation else {
            Job.end(job)
            return
        }
        libpulse.operation_set_state_callback(operation, { operation, userdata in
            guard let operation, let userdata, libpulse.operation_get_state(operation) != PA_OPERATION_RUNNING else { return }
            Job.end(userdata)
        }, job)
        libpulse.operation_unref(operation)
    }

    /// Whether the records' folder is this user's alone (``DuckingRecordFolder``), or none is
    /// there yet; when it is not, says why (once a reason), and nothing in it is read, written
    /// or removed. Mainloop lock held.
    private func recordsTrusted(_ record: DuckingRecordFile) -> Bool {
        switch DuckingRecordFolder.check(record.folder) {
        case .trusted: return true
        case .absent: return false
        case .untrusted(let reason):
            let first = state.withLock { s in defer { s.untrustedRecords = reason }; return s.untrustedRecords != reason }
            if first { emit([.duckingRecordsUntrusted(reason: reason)]) }
            return false
        }
    }

    /// Writes this process's record as the ducking stands, or removes it when nothing is
    /// lowered. Mainloop lock held (which orders the writers).
    func saveRecord() {
        guard let record else { return }
        if case .untrusted = DuckingRecordFolder.check(record.folder) {
            _ = recordsTrusted(record)
            return
        }
        record.save(state.withLock { s -> DuckingRecord? in
            guard let ducking = s.ducking, let server = ducking.server else { return nil }
            return DuckingRecord(pid: getpid(), server: server.address, cookie: server.cookie, streams: ducking.recorded)
        })
    }

    /// What a libpulse callback of the ducking needs, passed as its userdata: retained once
    /// when the operation starts (``start(_:stream:streams:application:done:)``), released when
    /// it ends (``end(_:)``); read in between (``of(_:)``).
    private final class Job {
        let session: MonitorSession
        let stream: DuckedStream
        let streams: [DuckedStream]
        let application: String?
        let done: Countdown?
        /// The names the server listed (``putRightRemembered(_:on:done:)``), on the loop's thread.
        var listed: Set<String> = []

        private init(session: MonitorSession, stream: DuckedStream?, streams: [DuckedStream], application: String?, done: Countdown?) {
            self.session = session
            self.stream = stream ?? DuckedStream(index: DuckedStream.gone, original: [], lowered: [])
            self.streams = streams
            self.application = application
            self.done = done
        }

        static func start(_ session: MonitorSession, stream: DuckedStream? = nil, streams: [DuckedStream] = [], application: String? = nil,
                          done: Countdown?) -> UnsafeMutableRawPointer {
            done?.add()
            return Unmanaged.passRetained(Job(session: session, stream: stream, streams: streams, application: application, done: done)).toOpaque()
        }

        static func of(_ pointer: UnsafeMutableRawPointer) -> Job { Unmanaged<Job>.fromOpaque(pointer).takeUnretainedValue() }

        static func end(_ pointer: UnsafeMutableRawPointer) {
            Unmanaged<Job>.fromOpaque(pointer).takeRetainedValue().done?.finish()
        }
    }
}
