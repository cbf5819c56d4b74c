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
/// recorded (``DuckingRecord``), and a monitor that connects gives back what a killed process
/// left lowered on its server. Lock order as everywhere in the monitor: mainloop lock, then
/// `state`.
extension MonitorSession {
    /// The values of a libpulse volume.
    static func values(of volume: pa_cvolume) -> [UInt32] {
        withUnsafePointer(to: volume) { v in (0..<UInt32(v.pointee.channels)).map { ss_cvolume_value(v, $0) } }
    }

    /// Starts lowering other applications' streams by `depth` dB, those there now and those that
    /// come. Not on the loop thread.
    func startDucking(depth: Double) {
        libpulse.threaded_mainloop_lock(loop.raw)
        defer { libpulse.threaded_mainloop_unlock(loop.raw) }
        let factor = libpulse.sw_volume_from_dB(-depth)
        let (context, inputs) = state.withLock { s -> (PulseHandle?, [SinkInput]) in
            if s.ducking == nil { s.ducking = StreamDucking(factor: factor, depth: depth) }
            return s.phase == .up ? (s.context, s.inputs.values.sorted { $0.index < $1.index }) : (nil, [])
        }
        guard let context else { return }  // lowered once connected (duckingConnected)
        for input in inputs { duckingSaw(context.raw, input) }
    }

    /// Ends the ducking: every stream still lowered, that the user has not changed, gets its
    /// volume back, and a server that remembered a lowered volume for a stream that went
    /// remembers the one before. Waits (up to `timeout`) until the server has done it; returns
    /// the applications given back their volume. Not on the loop thread.
    @discardableResult
    func stopDucking(timeout: Duration) -> [String] {
        duckingStop.lock()
        defer { duckingStop.unlock() }
        let done = Countdown()
        libpulse.threaded_mainloop_lock(loop.raw)
        let (context, ducking) = state.withLock { s -> (PulseHandle?, StreamDucking?) in
            defer { s.ducking = nil }
            return (s.phase == .up ? s.context : nil, s.ducking)
        }
        if let context, let ducking {
            giveBack(ducking.recorded, on: context.raw, done: done)
        }
        saveRecord()
        libpulse.threaded_mainloop_unlock(loop.raw)
        _ = done.wait(timeout: timeout)
        return done.restored
    }

    /// Whether the session lowers other streams now.
    var isDucking: Bool { state.withLock { $0.ducking != nil } }

    // MARK: On the loop thread (or with the mainloop lock held)

    /// A stream as the server shows it now: lowered if it is new, released if the user changed it.
    func duckingSaw(_ context: OpaquePointer, _ input: SinkInput) {
        let step = state.withLock { s -> StreamDucking.Step in
            guard s.isLive(context), s.phase == .up, let factor = s.ducking?.factor else { return .none }
            return s.ducking!.saw(input, ownPID: getpid()) { volume in volume.map { libpulse.sw_volume_multiply($0, factor) } }
        }
        switch step {
        case .none: return
        case .lower(let volume): setVolume(volume, of: input.index, on: context, done: nil, application: nil)
        case .released, .adopted: break
        }
        saveRecord()
    }

    /// A stream went.
    func duckedStreamRemoved(_ context: OpaquePointer, _ index: UInt32) {
        let changed = state.withLock { s in s.context?.raw == context && (s.ducking?.removed(index) ?? false) }
        if changed { saveRecord() }
    }

    /// The connection is up and its tables read: the streams there are lowered (when the
    /// session ducks), and what killed processes left lowered on this server is given back.
    func duckingConnected(_ context: OpaquePointer) {
        let (ducking, inputs, address, cookie) = state.withLock { s in
            (s.ducking != nil, s.inputs.values.sorted { $0.index < $1.index }, s.address, s.cookie)
        }
        if ducking { for input in inputs { duckingSaw(context, input) } }
        guard let folder = recordFolder, let address, let cookie else { return }
        for (record, file) in DuckingRecord.orphans(in: folder) {
            if record.server == address {
                // The same server still running: its streams are the ones lowered. Started again:
                // only what it remembers for the applications' next streams is left to put right.
                let streams = record.cookie == cookie ? record.streams : record.streams.map { var s = $0; s.index = ss_invalid_index(); return s }
                giveBack(streams, on: context, done: nil)
                try? FileManager.default.removeItem(at: file)
            } else if !DuckingRecord.serverMayRun(at: record.server) {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Gives `streams` their volumes back: those still there (asked for their volume now, in
    /// case the user just changed it), and for those gone, what the server remembers for their
    /// application's next stream. Mainloop lock held.
    private func giveBack(_ streams: [DuckedStream], on context: OpaquePointer, done: Countdown?) {
        let present = state.withLock { s in Set(streams.map(\.index).filter { s.inputs[$0] != nil }) }
        for stream in streams where present.contains(stream.index) {
            done?.add()
            let job = Unmanaged.passRetained(Job(session: self, stream: stream, done: done)).toOpaque()
            let asked = libpulse.context_get_sink_input_info(context, stream.index, { context, info, eol, userdata in
                guard let userdata, let context else { return }
                if eol == 0, let info {
                    let job = Unmanaged<Job>.fromOpaque(userdata).takeUnretainedValue()
                    let now = MonitorSession.values(of: info.pointee.volume)
                    if DuckedStream.same(now, job.stream.lowered) || (!job.stream.confirmed && DuckedStream.same(now, job.stream.original)) {
                        job.session.setVolume(job.stream.original, of: job.stream.index, on: context, done: job.done,
                                              application: job.stream.application ?? "stream \(job.stream.index)")
                    }
                    return
                }
                let finished = Unmanaged<Job>.fromOpaque(userdata).takeRetainedValue()
                finished.done?.finish()
            }, job)
            if let asked { unref(asked) } else { Unmanaged<Job>.fromOpaque(job).release(); done?.finish() }
        }
        let gone = streams.filter { !present.contains($0.index) && $0.restoreID != nil }
        if !gone.isEmpty { putRightRemembered(gone, on: context, done: done) }
    }

    /// For streams that went while lowered: where the server remembers the lowered volume for
    /// their application's next stream (module-stream-restore), it remembers the original again.
    /// A server without that extension answers with an error, and nothing is remembered there.
    private func putRightRemembered(_ streams: [DuckedStream], on context: OpaquePointer, done: Countdown?) {
        done?.add()
        let job = Unmanaged.passRetained(Job(session: self, streams: streams, done: done)).toOpaque()
        let asked = libpulse.ext_stream_restore_read(context, { context, entry, eol, userdata in
            guard let userdata, let context else { return }
            guard eol == 0, var entry = entry?.pointee else {
                Unmanaged<Job>.fromOpaque(userdata).takeRetainedValue().done?.finish()
                return
            }
            let job = Unmanaged<Job>.fromOpaque(userdata).takeUnretainedValue()
            let name = entry.name.map { String(cString: $0) }
            let remembered = MonitorSession.values(of: entry.volume)
            guard let stream = job.streams.first(where: { $0.restoreID == name && DuckedStream.same(remembered, $0.lowered) }) else { return }
            entry.volume = stream.original.withUnsafeBufferPointer { ss_cvolume_make($0.baseAddress!, UInt32($0.count)) }
            job.done?.add()
            let written = Unmanaged.passRetained(Job(session: job.session, application: "\(name ?? "a stream") (remembered)", done: job.done)).toOpaque()
            let sent = withUnsafePointer(to: &entry) { entry in
                libpulse.ext_stream_restore_write(context, PA_UPDATE_REPLACE, entry, 1, 0, { _, success, userdata in
                    guard let userdata else { return }
                    let job = Unmanaged<Job>.fromOpaque(userdata).takeRetainedValue()
                    if success != 0, let name = job.application { job.done?.note(restored: name) }
                    job.done?.finish()
                }, written)
            }
            if let sent { libpulse.operation_unref(sent) } else { Unmanaged<Job>.fromOpaque(written).release(); job.done?.finish() }
        }, job)
        if let asked { unref(asked) } else { Unmanaged<Job>.fromOpaque(job).release(); done?.finish() }
    }

    /// Sets a stream's volume; `done` (if any) counts the answer, and notes `application` on success.
    private func setVolume(_ volume: [UInt32], of index: UInt32, on context: OpaquePointer, done: Countdown?, application: String?) {
        var cvolume = volume.withUnsafeBufferPointer { ss_cvolume_make($0.baseAddress!, UInt32($0.count)) }
        done?.add()
        let job = Unmanaged.passRetained(Job(session: self, application: application, done: done)).toOpaque()
        let sent = libpulse.context_set_sink_input_volume(context, index, &cvolume, { _, success, userdata in
            guard let userdata else { return }
            let job = Unmanaged<Job>.fromOpaque(userdata).takeRetainedValue()
            if success != 0, let application = job.application { job.done?.note(restored: application) }
            job.done?.finish()
        }, job)
        if let sent { unref(sent) } else { Unmanaged<Job>.fromOpaque(job).release(); done?.finish() }
    }

    /// Writes this process's record as the ducking stands. Mainloop lock held (which orders
    /// the writers).
    func saveRecord() {
        guard let folder = recordFolder, let started = DuckingRecord.startTime(of: getpid()) else { return }
        let record = state.withLock { s -> DuckingRecord? in
            guard let address = s.address, let cookie = s.cookie else { return nil }
            return DuckingRecord(pid: getpid(), started: started, server: address, cookie: cookie, streams: s.ducking?.recorded ?? [])
        }
        if let record { record.save(in: folder) } else { try? FileManager.default.removeItem(at: DuckingRecord.file(in: folder)) }
    }

    /// What a libpulse callback of the ducking needs, passed as its userdata.
    private final class Job: @unchecked Sendable {
        let session: MonitorSession
        var stream = DuckedStream(index: 0, original: [], lowered: [])
        var streams: [DuckedStream] = []
        var application: String?
        let done: Countdown?
        init(session: MonitorSession, stream: DuckedStream? = nil, streams: [DuckedStream] = [], application: String? = nil, done: Countdown?) {
            self.session = session
            if let stream { self.stream = stream }
            self.streams = streams
            self.application = application
            self.done = done
        }
    }
}

/// Answers the ducking waits for from the server, and what they gave back.
final class Countdown: Sendable {
    private let box = LockedBox((pending: 0, restored: [String]()))
    func add() { box.withLock { $0.pending += 1 } }
    func finish() { box.withLock { $0.pending -= 1 } }
    func note(restored name: String) { box.withLock { $0.restored.append(name) } }
    var restored: [String] { box.withLock { $0.restored } }
    /// Waits until every answer came, up to `timeout`; whether they all did.
    func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while box.withLock({ $0.pending > 0 }) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(500)
        }
        return true
    }
}
