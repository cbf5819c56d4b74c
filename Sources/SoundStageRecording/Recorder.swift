import Foundation
import SoundStageCore
import SoundStageSession

/// Records from a capture device into a WAV, CAF or Ogg Vorbis file: AVAudioRecorder's
/// surface in Swift form.
///
/// ```swift
/// try AudioSession.shared.setCategory(.playAndRecord)
/// let recorder = try Recorder(url: URL(fileURLWithPath: "take.wav"))
/// let events = recorder.events()             // subscribe first: a short take may end at once
/// try recorder.record(forDuration: 5)
/// for await event in events { if case .finished = event { break } }
/// ```
///
/// A capture thread reads the device every 10 ms and writes the file; the file is valid after
/// every block it writes (see ``RecordingContainer``), so a crash or a full disk leaves a
/// playable file up to the last block. Events come by ``delegate`` and ``events()``, on the
/// capture thread, with no lock held. The recorder follows its ``session``: only the record
/// and playAndRecord categories record, and interruptions pause it (``interruptionPolicy``).
public final class Recorder: Sendable, CustomStringConvertible {
    /// The file recorded to.
    public let url: URL
    /// What is recorded and how.
    public let settings: RecorderSettings
    /// The file's container.
    public let container: RecordingContainer
    /// The session the recorder follows: its category must allow recording, and its
    /// interruptions pause the recording (``interruptionPolicy``).
    public let session: AudioSession
    let state = LockedState(RecorderState())
    /// The device and file the capture thread works on, made by ``prepareToRecord()``.
    let parts = LockedState(RecorderParts())
    /// Serialises the calls that start and end recordings (never held while joining the
    /// capture thread, so a delegate may call them).
    private let operations = NSRecursiveLock()
    let made = ContinuousClock.now
    /// Whether the path was a symbolic link as the recorder was made: the caller's, followed.
    let urlWasLink: Bool
    /// The capture thread's period.
    static let tickSeconds = 0.01
    /// The capture thread's name.
    public static let threadName = "SoundStage rec"
    /// The longest ``prepareToRecord()`` and ``switchDevice(named:)`` wait for the device
    /// to deliver audio.
    public static let startSeconds = 3.0
    /// The longest ``stop()`` waits for audio captured before it to arrive (a device
    /// delivers it some time after).
    public static let drainSeconds = 1.0
    /// The longest duration, and the furthest start time ahead, a recording takes (115 days).
    public static let longestSeconds = 1e7

    /// A recorder for `url` with `settings`; nothing is opened until ``prepareToRecord()``
    /// or ``record()``.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for settings that
    ///   cannot be recorded (no container, a rate, channel count, bit depth or quality out of
    ///   range), naming the file.
    public convenience init(url: URL, settings: RecorderSettings = RecorderSettings()) throws {
        try self.init(url: url, settings: settings, session: .shared)
    }

    /// A recorder following `session` (tests give one of their own).
    init(url: URL, settings: RecorderSettings, session: AudioSession) throws {
        let container = settings.container ?? RecordingContainer(pathExtension: url.pathExtension)
        if let problem = settings.problem(path: url.path, container: container) {
            throw Self.failure(.invalidArgument, "init(url:settings:)", object: url.path, problem)
        }
        self.url = url
        self.settings = settings
        self.container = container!
        self.session = session
        var info = stat()
        urlWasLink = lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    deinit { stop() }

    /// For example `recorder of /tmp/take.wav`.
    public var description: String { "recorder of \(url.path)" }

    /// Seconds on the recorder's clock (since it was made): what ``record(atTime:)`` takes.
    public var deviceCurrentTime: Double { (ContinuousClock.now - made).seconds }

    /// Opens the capture device, starts it, and creates the file (a valid, empty recording),
    /// so that ``record()`` starts at once; returns once the device delivers audio (some
    /// take a second or more to start) or after ``startSeconds``. Called by ``record()`` when
    /// needed; does nothing when prepared already.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/deviceNotFound`` or
    ///   ``SoundStageError/Code-swift.struct/unsupportedFormat`` from the device (then no
    ///   file is made), ``SoundStageError/Code-swift.struct/fileAccess`` for a file that
    ///   cannot be created, ``SoundStageError/Code-swift.struct/invalidState`` while recording
    ///   or stopping.
    public func prepareToRecord() throws {
        operations.lock()
        defer { operations.unlock() }
        if state.withLockedValue({ s in defer { s.joined = true }; return !s.joined }) { session.join(self) }
        let phase = state.withLockedValue { $0.phase }
        guard phase == .idle || phase == .stopped else {
            throw failure(.invalidState, "prepareToRecord()", phase == .recording || phase == .paused ? "it is recording; stop() first" : "it is stopping")
        }
        if parts.withLockedValue({ $0.thread != nil }) { return }
        let format = RenderFormat(sampleRate: settings.sampleRate, channels: settings.channels == 1 ? .mono : .stereo, sampleType: .float32)
        let device = try CaptureDevice.open(named: settings.deviceName, format: format)
        let writer = try makeWriter()
        parts.withLockedValue { p in
            p.device = device
            p.writer = writer
            p.deviceLost = false
        }
        state.withLockedValue { s in
            s.phase = .idle
            s.spans = []
            s.stopAskedAt = nil
            s.framesWritten = 0
        }
        do { try startCapture() } catch {
            parts.withLockedValue { p in
                p.device = nil
                p.writer = nil
            }
            throw error
        }
        let deadline = ContinuousClock.now + .seconds(Self.startSeconds)
        while state.withLockedValue({ $0.capturedFrames == 0 && $0.phase == .idle }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: Self.tickSeconds)
        }
    }

    private func makeWriter() throws -> any AudioFileWriter {
        let path = url.path
        // A regular file only; a link at the path only when it was there as the recorder was
        // made (the caller's), not one planted since.
        let policy = OutputFile.Policy(followsLink: urlWasLink, regularOnly: true)
        switch container {
        case .wav: return try WAVFileWriter(path: path, sampleRate: settings.sampleRate, channels: settings.channels, bits: settings.bitDepth, policy: policy)
        case .caf: return try CAFFileWriter(path: path, sampleRate: settings.sampleRate, channels: settings.channels, bits: settings.bitDepth, policy: policy)
        case .oggVorbis: return try OggVorbisWriter(path: path, sampleRate: settings.sampleRate, channels: settings.channels, quality: settings.quality, policy: policy)
        }
    }

    /// Starts or resumes recording now. While recording already it does nothing.
    ///
    /// - Throws: what ``record(atTime:forDuration:)`` throws.
    public func record() throws { try record(atTime: nil, forDuration: nil) }

    /// Starts recording at `time` on ``deviceCurrentTime``'s clock (now if past); what is
    /// captured before it is left out.
    public func record(atTime time: Double) throws { try record(atTime: time, forDuration: nil) }

    /// Records for `duration` seconds of audio from now, then stops by itself (finished
    /// successfully).
    public func record(forDuration duration: Double) throws { try record(atTime: nil, forDuration: duration) }

    /// Records `duration` seconds (nil: until stopped) from `time` (nil: now). After
    /// ``pause()`` it resumes into the same file; while recording already it does nothing.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a negative or
    ///   non-finite time or duration, or one beyond ``longestSeconds``;
    ///   ``SoundStageError/Code-swift.struct/invalidState`` in a session category that
    ///   cannot record, during an interruption, or when a ``stop()`` came while it started;
    ///   ``SoundStageError/Code-swift.struct/deviceLost`` after the device went away (see
    ///   ``switchDevice(named:)``); and what ``prepareToRecord()`` throws.
    public func record(atTime time: Double?, forDuration duration: Double?) throws {
        let now = deviceCurrentTime
        for (name, value, bound) in [("time", time, now + Self.longestSeconds), ("duration", duration, Self.longestSeconds)] {
            if let value, !(value.isFinite && value >= 0 && value <= bound) {
                throw failure(.invalidArgument, "record(atTime:forDuration:)", "the \(name) must be 0...\(Int(bound)) s, got \(value)")
            }
        }
        operations.lock()
        defer { operations.unlock() }
        let phase = state.withLockedValue { $0.phase }
        if phase == .recording { return }
        if phase == .stopping || phase == .finishing { throw failure(.invalidState, "record()", "it is stopping") }
        guard session.category.canRecord else {
            throw failure(.invalidState, "record()", "the session's category is \(session.category), which cannot record; set it to .record or .playAndRecord (AudioSession.shared.setCategory(.playAndRecord)), as AVAudioRecorder needs")
        }
        guard !session.isInterrupted else {
            throw failure(.invalidState, "record()", "the audio session is interrupted; recording resumes (or may start) when the interruption ends")
        }
        if parts.withLockedValue({ $0.deviceLost }) {
            throw failure(.deviceLost, "record()", "the capture device went away; switchDevice(named:) to another first")
        }
        if phase != .paused { try prepareToRecord() }
        let start = max(deviceCurrentTime, time ?? 0)
        let started = state.withLockedValue { s -> Bool in
            // A stop() from a delegate while the device started ends it here.
            guard s.phase == .idle || s.phase == .paused else { return false }
            s.spans.append(RecordedSpan(start: start, end: nil, limit: duration.map { Int(($0 * Double(settings.sampleRate)).rounded()) }))
            s.phase = .recording
            s.pausedBySession = false
            return true
        }
        if !started { throw failure(.invalidState, "record()", "it was stopped while it started") }
    }

    /// Pauses: what is captured from now on is left out until ``record()``.
    public func pause() { pause(bySession: false) }

    /// Pauses; `bySession` marks a pause the session's interruption or deactivation made.
    /// Returns whether it was recording.
    @discardableResult
    func pause(bySession: Bool) -> Bool {
        let now = deviceCurrentTime
        return state.withLockedValue { s in
            guard s.phase == .recording else { return false }
            if let last = s.spans.indices.last, s.spans[last].end == nil { s.spans[last].end = now }
            s.phase = .paused
            s.pausedBySession = bySession
            return true
        }
    }

    /// Stops recording, completes the file and lets the device go. Audio captured before the
    /// call is kept (the device delivers it up to a second later); the delegate hears
    /// `recorderDidFinishRecording(_:successfully: true)` before this returns, unless called
    /// on the capture thread itself (from a delegate). A recorder only prepared stops
    /// capturing, with no event. Harmless when stopped.
    public func stop() {
        let now = deviceCurrentTime
        operations.lock()
        let thread = state.withLockedValue { s -> WorkerThread? in
            let running = parts.withLockedValue { $0.thread != nil }
            guard s.phase == .recording || s.phase == .paused || (s.phase == .idle && running) else { return nil }
            if let last = s.spans.indices.last, s.spans[last].end == nil { s.spans[last].end = now }
            s.phase = .stopping
            s.stopAskedAt = now
            return parts.withLockedValue { p in
                defer { p.thread = nil }
                return p.thread
            }
        }
        operations.unlock()
        if let thread {
            thread.joinOrDetach()
            return
        }
        // Ending on its own (its duration reached): wait for its events, unless this is it.
        let deadline = ContinuousClock.now + .seconds(2)
        while state.withLockedValue({ $0.phase == .finishing }), ThreadName.current != Self.threadName, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Whether it is recording (not paused, not stopped).
    public var isRecording: Bool { state.withLockedValue { $0.phase == .recording } }

    /// Seconds recorded so far while recording or paused; 0 once stopped.
    public var currentTime: Double {
        state.withLockedValue { s in s.phase == .recording || s.phase == .paused ? Double(s.framesWritten) / Double(settings.sampleRate) : 0 }
    }

    /// Frames written to the file by the last or current recording.
    public var framesRecorded: Int { state.withLockedValue { $0.framesWritten } }

    /// Deletes the file (a recorder only prepared lets its device go first): a regular file,
    /// or a symbolic link at the path (the link, not what it points to). Nothing there is no
    /// error.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` while recording,
    ///   paused or stopping, ``SoundStageError/Code-swift.struct/fileAccess`` when it cannot
    ///   be removed, or the path is something else (a directory, a FIFO, a device), which is
    ///   left as it is.
    public func deleteRecording() throws {
        operations.lock()
        defer { operations.unlock() }
        let phase = state.withLockedValue { $0.phase }
        guard phase == .idle || phase == .stopped else { throw failure(.invalidState, "deleteRecording()", "it is recording; stop() first") }
        stop()
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            if errno == ENOENT { return }
            throw failure(.fileAccess, "deleteRecording()", "cannot look at the file (\(errnoDescription(errno)))")
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFLNK else {
            throw failure(.fileAccess, "deleteRecording()", "the path is \(FileKind(mode: info.st_mode)), not a recording: left as it is")
        }
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw failure(.fileAccess, "deleteRecording()", "cannot remove the file (\(errnoDescription(errno)))")
        }
    }

    /// The delegate, held weakly.
    public var delegate: (any RecorderDelegate)? {
        get { state.withLockedValue { $0.delegate } }
        set { state.withLockedValue { $0.delegate = newValue } }
    }

    /// A stream of the recorder's events from now on; each call makes a new subscriber.
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<RecorderEvent> { EventSubscribers.subscribe(state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { state.withLockedValue { $0.subscribers.dropped } }
}

extension Recorder: ErrorNaming {
    package var errorObject: String { description }
}
