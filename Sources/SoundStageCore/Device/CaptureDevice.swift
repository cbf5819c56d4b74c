import COpenAL

/// An OpenAL capture (input) device: a microphone, a line in, or a sound server's monitor of
/// an output. Open one with ``open(named:format:bufferSeconds:)``, ``start()`` it, and
/// ``read(maxFrames:)`` what it captured, as OpenAL Soft's `alrecord.c` does; the recorder and
/// the capture stream do this for you.
///
/// The device is closed when the last reference goes. It may be used from any thread; calls
/// are serialised with the rest of OpenAL.
public final class CaptureDevice: Sendable, CustomStringConvertible {
    package let handle: CHandle
    /// Its place in the process's list of open devices, closed as the process exits.
    private let life: DeviceLife
    /// The device's name as OpenAL lists it (one of ``AudioDevice/captureDevices``).
    public let name: String
    /// What it captures: rate, channels (mono or stereo) and sample type (int16 or float32).
    public let format: RenderFormat
    /// How many frames OpenAL keeps before the oldest are lost: read more often than this.
    public let bufferFrames: Int
    private let hasDisconnect: Bool

    /// The sample rates a capture device can be opened at.
    public static let sampleRates = 8_000...192_000
    /// The buffer lengths allowed, in seconds.
    public static let bufferSecondsRange = 0.05...10.0

    private init(handle: CHandle, name: String, format: RenderFormat, bufferFrames: Int, life: DeviceLife) {
        self.handle = handle
        self.name = name
        self.format = format
        self.bufferFrames = bufferFrames
        self.life = life
        hasDisconnect = OpenAL.withDevice { _ in alcIsExtensionPresent(handle.raw, "ALC_EXT_disconnect") != ALC_FALSE }
    }

    deinit {
        let life = self.life, description = self.description
        OpenAL.withDevice { held in life.close(held, Self.operationName("deinit"), object: description) }
    }

    /// For example `capture device 'Monitor of Null Output' (48000 Hz mono float32)`.
    public var description: String { "capture device '\(name)' (\(format))" }

    /// Opens the default capture device, or the one named `name` (one of
    /// ``AudioDevice/captureDevices``), capturing `format`, with room for `bufferSeconds` of
    /// audio between reads.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/deviceNotFound`` for a name that is not
    ///   listed or when there is no capture device at all (the error lists those there are),
    ///   ``SoundStageError/Code-swift.struct/unsupportedFormat`` for more than two channels, a
    ///   rate outside ``sampleRates`` or a device that refuses the format,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a buffer outside
    ///   ``bufferSecondsRange``.
    public static func open(named name: String? = nil, format: RenderFormat = RenderFormat(channels: .mono),
                            bufferSeconds: Double = 1) throws -> CaptureDevice {
        let object = "capture device '\(name ?? AudioDevice.defaultCaptureDevice ?? "default")' (\(format))"
        let member = "open(named:format:bufferSeconds:)"
        let available = AudioDevice.captureDevices
        if let name, !available.contains(name) {
            throw failure(.deviceNotFound, member, object: object, "no such capture device; available: \(available.isEmpty ? "none" : available.joined(separator: ", "))")
        }
        guard let chosen = name ?? AudioDevice.defaultCaptureDevice ?? available.first else {
            throw failure(.deviceNotFound, member, object: object, "OpenAL lists no capture device: start a sound server (PulseAudio or PipeWire) or plug one in")
        }
        guard sampleRates.contains(format.sampleRate) else {
            throw failure(.unsupportedFormat, member, object: object, "the sample rate must be in \(sampleRates) Hz, got \(format.sampleRate)")
        }
        guard let alFormat = alFormat(format) else {
            throw failure(.unsupportedFormat, member, object: object, "a capture device records mono or stereo, got \(format.channels.rawValue)")
        }
        guard bufferSeconds.isFinite, bufferSecondsRange.contains(bufferSeconds) else {
            throw failure(.invalidArgument, member, object: object, "the buffer must be \(bufferSecondsRange) s, got \(bufferSeconds)")
        }
        let frames = Int(bufferSeconds * Double(format.sampleRate))
        // Mono is captured as stereo and mixed down here (see ``read(maxFrames:)``).
        let capturedFormat = format.channels == .mono ? Self.alFormat(RenderFormat(sampleRate: format.sampleRate, channels: .stereo,
                                                                                    sampleType: format.sampleType)) ?? alFormat : alFormat
        // Noted in the process's list under the same hold of the lock (see DeviceLife).
        let opened: DeviceLife? = OpenAL.withDevice { held in
            guard let device = alcCaptureOpenDevice(chosen, ALCuint(format.sampleRate), capturedFormat, ALCsizei(frames)) else {
                _ = alcGetError(nil)
                return nil
            }
            return DeviceLife(held, raw: device, isCapture: true)
        }
        guard let opened else {
            throw failure(.unsupportedFormat, member, object: object, "alcCaptureOpenDevice failed: the device did not open in this format (or went away)")
        }
        return CaptureDevice(handle: CHandle(raw: opened.raw), name: chosen, format: format, bufferFrames: frames, life: opened)
    }

    /// The AL format for `format`, nil for more than two channels.
    private static func alFormat(_ format: RenderFormat) -> ALenum? {
        switch (format.channels, format.sampleType) {
        case (.mono, .int16): return AL_FORMAT_MONO16
        case (.stereo, .int16): return AL_FORMAT_STEREO16
        case (.mono, .float32): return AL_FORMAT_MONO_FLOAT32
        case (.stereo, .float32): return AL_FORMAT_STEREO_FLOAT32
        default: return nil
        }
    }

    /// Starts capturing: from now on OpenAL fills the buffer.
    public func start() { OpenAL.withDevice { _ in alcCaptureStart(handle.raw) } }

    /// Stops capturing; what was captured stays readable.
    public func stop() { OpenAL.withDevice { _ in alcCaptureStop(handle.raw) } }

    /// Frames captured and not read yet.
    public var availableFrames: Int {
        OpenAL.withDevice { _ in
            var count: ALCint = 0
            alcGetIntegerv(handle.raw, ALC_CAPTURE_SAMPLES, 1, &count)
            return Int(max(0, count))
        }
    }

    /// Whether the device is still there (`ALC_EXT_disconnect`; always true without it).
    public var isConnected: Bool {
        guard hasDisconnect else { return true }
        return OpenAL.withDevice { _ in
            var value: ALCint = 1
            alcGetIntegerv(handle.raw, ALC_CONNECTED, 1, &value)
            return value != 0
        }
    }

    /// Reads up to `maxFrames` of what was captured (all there is when nil), as interleaved
    /// floats in -1...1 whatever the device's sample type; empty when nothing waits.
    ///
    /// A mono capture is the average of the source's channels on every sound server: the
    /// device captures stereo (the server gives a mono source in both channels) and each
    /// frame is mixed down here. Asked for mono, PulseAudio averages a stereo source's
    /// channels, but PipeWire (0.3.65, measured) sums them at -3 dB each, 3 dB louder, which
    /// pushes a loud stereo source past full scale.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/deviceLost`` once the device is gone
    ///   (what it captured before is read first).
    public func read(maxFrames: Int? = nil) throws -> [Float] {
        let captured = try readCaptured(maxFrames: maxFrames)
        guard format.channels == .mono else { return captured }
        return [Float](unsafeUninitializedCapacity: captured.count / 2) { out, count in
            captured.withUnsafeBufferPointer { pairs in
                for i in 0..<out.count { out[i] = (pairs[2 * i] + pairs[2 * i + 1]) * 0.5 }
            }
            count = out.count
        }
    }

    /// What the device captured, in the channels it captures (stereo for a mono format).
    private func readCaptured(maxFrames: Int?) throws -> [Float] {
        let channels = format.channels == .mono ? 2 : format.channels.channelCount
        let result: [Float]? = OpenAL.withDevice { _ in
            var count: ALCint = 0
            alcGetIntegerv(handle.raw, ALC_CAPTURE_SAMPLES, 1, &count)
            let frames = min(Int(max(0, count)), max(0, maxFrames ?? Int.max))
            if frames == 0 {
                guard hasDisconnect else { return [] }
                var connected: ALCint = 1
                alcGetIntegerv(handle.raw, ALC_CONNECTED, 1, &connected)
                return connected != 0 ? [] : nil
            }
            switch format.sampleType {
            case .float32:
                var out = [Float](repeating: 0, count: frames * channels)
                out.withUnsafeMutableBytes { alcCaptureSamples(handle.raw, $0.baseAddress, ALCsizei(frames)) }
                return out
            case .int16:
                var ints = [Int16](repeating: 0, count: frames * channels)
                ints.withUnsafeMutableBytes { alcCaptureSamples(handle.raw, $0.baseAddress, ALCsizei(frames)) }
                return ints.map { Float($0) / 32_768 }
            }
        }
        guard let result else { throw failure(.deviceLost, "read(maxFrames:)", "the device went away (unplugged, or its sound server stopped)") }
        return result
    }
}

extension CaptureDevice: ErrorNaming {
    package var errorObject: String { description }
}
