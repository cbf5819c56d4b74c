import Foundation
import SoundStageCore
import SoundStageSession

/// Captured audio as an asynchronous sequence of fixed-size blocks, for voice chat, speech
/// input or analysis (SFML's `SoundRecorder` delivers to a callback every 100 ms; this is
/// its Swift form).
///
/// ```swift
/// let stream = try CaptureStream(format: RenderFormat(sampleRate: 16_000, channels: .mono))
/// try stream.start()
/// for try await block in stream.blocks { send(block.samples) }
/// ```
///
/// Blocks wait in a bounded buffer; when the consumer falls so far behind that it is full,
/// new blocks are dropped, counted (``overruns``, ``droppedFrames``) and reported on the
/// next block that gets through (``CaptureBlock/droppedBefore``), never lost silently. A lost
/// device ends the sequence with ``SoundStageError/Code-swift.struct/deviceLost``.
public final class CaptureStream: Sendable, CustomStringConvertible {
    /// The device captured from.
    public let device: CaptureDevice
    /// Frames per block.
    public let blockFrames: Int
    /// Blocks the buffer holds before new ones are dropped.
    public let bufferBlocks: Int
    /// The blocks, in order. One consumer; it ends at ``stop()`` or when the device is lost.
    public let blocks: AsyncThrowingStream<CaptureBlock, any Error>
    private let continuation: AsyncThrowingStream<CaptureBlock, any Error>.Continuation
    private let state = LockedState(StreamState())
    private struct StreamState {
        var thread: WorkerThread?
        var stopping = false
        var pending: [Float] = []
        var nextFrame = 0
        var captured = 0
        var origin: Double?
        var overruns = 0
        var dropped = 0
        var droppedSinceLast = 0
        /// When ``start()`` ran: block times count from it.
        var started: ContinuousClock.Instant?
    }

    /// The capture thread's period.
    static let tickSeconds = 0.01
    /// The capture thread's name.
    public static let threadName = "SoundStage cap"

    /// Opens the device named `name` (the default when nil) for `format`, delivering
    /// `blockFrames` frames a block with room for `bufferBlocks` blocks.
    ///
    /// - Throws: what ``CaptureDevice/open(named:format:bufferSeconds:)`` throws, and
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a block outside 16...65536
    ///   frames or a buffer outside 1...10000 blocks.
    public init(deviceNamed name: String? = nil, format: RenderFormat = RenderFormat(channels: .mono),
                blockFrames: Int = 480, bufferBlocks: Int = 100) throws {
        guard (16...65_536).contains(blockFrames), (1...10_000).contains(bufferBlocks) else {
            throw Self.failure(.invalidArgument, "init(deviceNamed:format:blockFrames:bufferBlocks:)", object: "capture stream",
                               "blocks must be 16...65536 frames and the buffer 1...10000 blocks, got \(blockFrames) and \(bufferBlocks)")
        }
        device = try CaptureDevice.open(named: name, format: format)
        self.blockFrames = blockFrames
        self.bufferBlocks = bufferBlocks
        (blocks, continuation) = AsyncThrowingStream.makeStream(of: CaptureBlock.self, bufferingPolicy: .bufferingOldest(bufferBlocks))
    }

    deinit { stop() }

    /// For example `capture stream of capture device 'Monitor of Null Output' (...)`.
    public var description: String { "capture stream of \(device)" }

    /// Starts capturing (again after ``stop()`` it does nothing: the sequence has ended).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` when no capture thread
    ///   can be started.
    public func start() throws {
        // One look under the lock: a stop() cannot come between the check and the thread.
        try state.withLockedValue { s in
            guard s.thread == nil, !s.stopping else { return }
            s.started = ContinuousClock.now
            device.start()
            do {
                s.thread = try CaptureThread.start(name: Self.threadName, period: Self.tickSeconds) { [weak self] in self?.tick() ?? false }
            } catch {
                device.stop()
                throw failure(.invalidState, "start()", "cannot start the capture thread (\(error))")
            }
        }
    }

    /// Stops capturing and ends the sequence (blocks already delivered stay).
    public func stop() {
        let thread = state.withLockedValue { s -> WorkerThread? in
            s.stopping = true
            defer { s.thread = nil }
            return s.thread
        }
        thread?.joinOrDetach()
        device.stop()
        continuation.finish()
    }

    /// Times blocks were dropped because the buffer was full.
    public var overruns: Int { state.withLockedValue { $0.overruns } }
    /// Frames dropped in all.
    public var droppedFrames: Int { state.withLockedValue { $0.dropped } }
    /// Frames delivered or dropped so far.
    public var framesCaptured: Int { state.withLockedValue { $0.nextFrame } }

    /// One read: whole blocks go to the sequence; false ends the thread.
    private func tick() -> Bool {
        if state.withLockedValue({ $0.stopping }) { return false }
        let samples: [Float]
        do { samples = try device.read() } catch {
            continuation.finish(throwing: error)
            return false
        }
        let now = state.withLockedValue { $0.started }.map { (ContinuousClock.now - $0).seconds } ?? 0
        let channels = device.format.channels.channelCount, rate = Double(device.format.sampleRate)
        let ready = state.withLockedValue { s -> [CaptureBlock] in
            s.captured += samples.count / channels
            if s.captured > 0 { s.origin = min(s.origin ?? .infinity, now - Double(s.captured) / rate) }
            s.pending += samples
            var ready: [CaptureBlock] = []
            let size = blockFrames * channels
            while s.pending.count >= size {
                let time = (s.origin ?? now) + Double(s.nextFrame) / rate
                ready.append(CaptureBlock(samples: Array(s.pending.prefix(size)), channels: channels, firstFrame: s.nextFrame, time: time, droppedBefore: 0))
                s.pending.removeFirst(size)
                s.nextFrame += blockFrames
            }
            return ready
        }
        for block in ready {
            let dropped = state.withLockedValue { $0.droppedSinceLast }
            let outgoing = dropped == 0 ? block : CaptureBlock(samples: block.samples, channels: block.channels, firstFrame: block.firstFrame,
                                                              time: block.time, droppedBefore: dropped)
            switch continuation.yield(outgoing) {
            case .dropped:
                state.withLockedValue { s in
                    s.overruns += 1
                    s.dropped += blockFrames
                    s.droppedSinceLast += blockFrames
                }
            case .enqueued:
                if dropped > 0 {
                    state.withLockedValue { $0.droppedSinceLast = 0 }
                    Log.report(failure(.invalidState, "blocks", "the consumer fell behind: \(dropped) frames dropped before frame \(block.firstFrame)"))
                }
            case .terminated:
                return false
            @unknown default:
                return false
            }
        }
        return true
    }
}

extension CaptureStream: ErrorNaming {
    package var errorObject: String { description }
}
