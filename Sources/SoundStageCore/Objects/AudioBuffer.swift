import COpenAL
import Synchronization

/// A sound in OpenAL memory, with its samples kept in Swift too.
///
/// The samples are kept (in their encoded form) so that they can be read for metering and
/// uploaded again to a new device after the old one was lost. A buffer belongs to its
/// context's device and can be played by sources in any context on that device.
///
/// A source retains the buffer it plays (``AudioSource/setBuffer(_:)``) and every buffer it
/// has queued, so a buffer is never deleted while in use: OpenAL's name is released exactly
/// once, when the last Swift reference goes away.
public final class AudioBuffer: Sendable, CustomStringConvertible {
    /// The context the buffer was made in (kept alive by the buffer).
    public let context: AudioContext
    /// The OpenAL name.
    let name: ALuint
    /// The encoding and channel layout.
    public let format: BufferFormat
    /// Frames per second.
    public let sampleRate: Int
    /// The encoded bytes, exactly as uploaded (an array made when asked for: a buffer loaded
    /// from a PCM file keeps the file's bytes, not a copy).
    public var bytes: [UInt8] { samples.array }
    /// The encoded bytes as kept.
    let samples: SampleBytes
    /// A label for messages, e.g. the file the sound came from.
    public let label: String?
    /// What did not decode of the file the buffer was loaded from (see ``SoundFile/damage``);
    /// nil for a file that decoded whole, and for a buffer made from samples.
    public let damage: DecodeDamage?
    private let users = Atomic<Int>(0)

    /// Makes a buffer from encoded bytes.
    ///
    /// - Parameters:
    ///   - context: the context whose device holds the buffer.
    ///   - bytes: whole blocks (frames for PCM) of `format`.
    ///   - format: encoding and channel layout; it must be one OpenAL Soft can play.
    ///   - sampleRate: frames per second, 1...384000.
    ///   - label: names the buffer in errors, e.g. the source file.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a byte count that
    ///   is not whole blocks, a bad rate or block size; ``SoundStageError/Code-swift.struct/unsupportedFormat``
    ///   or ``SoundStageError/Code-swift.struct/extensionMissing`` for a format OpenAL cannot take.
    public convenience init(context: AudioContext, bytes: [UInt8], format: BufferFormat, sampleRate: Int, label: String? = nil) throws {
        try self.init(context: context, bytes: bytes, format: format, sampleRate: sampleRate, label: label, damage: nil)
    }

    /// The same, for a buffer loaded from a file that did not decode whole.
    convenience init(context: AudioContext, bytes: [UInt8], format: BufferFormat, sampleRate: Int, label: String?, damage: DecodeDamage?) throws {
        try self.init(context: context, samples: SampleBytes(bytes), format: format, sampleRate: sampleRate, label: label, damage: damage)
    }

    /// The same, from the samples as kept (a file's bytes, not copied).
    init(context: AudioContext, samples: SampleBytes, format: BufferFormat, sampleRate: Int, label: String?, damage: DecodeDamage?) throws {
        let object = "new buffer" + (label.map { " (\($0))" } ?? "")
        func fail(_ code: SoundStageError.Code, _ reason: String) -> SoundStageError {
            Self.failure(code, "init", object: object, reason)
        }
        if let problem = format.blockAlignmentProblem { throw fail(.invalidArgument, problem) }
        var samples = samples, format = format
        if case .imaADPCM = format.encoding, samples.count % format.bytesPerBlock == 0, !context.decodesIMA4Correctly {
            // OpenAL Soft before 1.20 shifts every IMA block by a frame; play SoundStage's decoding.
            let linear = samples.withUnsafeBytes { StoredEncoding(format.encoding).convert($0, channels: format.channels, keepNative: false) }
            if let linear { (samples, format) = (SampleBytes(linear.bytes), linear.format) }
        }
        guard let (alFormat, ext) = format.alFormat else {
            throw fail(.unsupportedFormat, "OpenAL Soft has no \(format) format")
        }
        if let ext, !context.isExtensionPresent(ext) {
            throw fail(.extensionMissing, "\(format) needs the AL extension \(ext), which this OpenAL lacks")
        }
        guard Limits.bufferSampleRates.contains(sampleRate) else {
            throw fail(.invalidArgument, "sample rate must be in \(Limits.bufferSampleRates) Hz, got \(sampleRate)")
        }
        guard samples.count % format.bytesPerBlock == 0 else {
            throw fail(.invalidArgument, "\(samples.count) bytes is not a whole number of \(format.bytesPerBlock)-byte \(format.framesPerBlock == 1 ? "frames" : "blocks") of \(format)")
        }
        guard samples.count <= Limits.bufferBytes else {
            throw fail(.invalidArgument, "\(samples.count) bytes is more than OpenAL takes in one buffer (2 GiB)")
        }
        let alignment = format.framesPerBlock
        let hasAlignment = context.isExtensionPresent("AL_SOFT_block_alignment")
        if alignment != 1 && !hasAlignment {
            throw fail(.extensionMissing, "ADPCM with \(alignment)-frame blocks needs AL_SOFT_block_alignment")
        }
        let operation = Self.operationName("init")
        self.name = try OpenAL.withContext(context.handle) { scope in
            var name: ALuint = 0
            try scope.call(operation, on: object) { alGenBuffers(1, &name) }
            do {
                if hasAlignment {
                    try scope.call(operation, on: object) {
                        alBufferi(name, AL_UNPACK_BLOCK_ALIGNMENT_SOFT, ALint(alignment == 1 ? 0 : alignment))
                    }
                }
                try Self.upload(samples, as: alFormat, format, sampleRate: sampleRate, to: name, in: context,
                                scope: scope, operation: operation, object: object)
            } catch {
                // The name made for the failed upload goes; the upload's error is the one thrown.
                do { try scope.call(operation, on: object) { alDeleteBuffers(1, &name) } } catch let deleteError { Log.report(deleteError) }
                throw error
            }
            return name
        }
        self.context = context
        self.format = format
        self.sampleRate = sampleRate
        self.samples = samples
        self.label = label
        self.damage = damage
        Diagnostics.liveBuffers.add(1, ordering: .relaxed)
    }

    /// Makes a buffer from signed 16-bit samples (interleaved for several channels).
    public convenience init(context: AudioContext, samples: [Int16], channels: ChannelLayout = .mono, sampleRate: Int, label: String? = nil) throws {
        try self.init(context: context, bytes: samples.withUnsafeBytes { Array($0) },
                      format: BufferFormat(.int16, channels), sampleRate: sampleRate, label: label)
    }

    /// Makes a buffer from 32-bit float samples in -1...1 (interleaved for several channels).
    public convenience init(context: AudioContext, samples: [Float], channels: ChannelLayout = .mono, sampleRate: Int, label: String? = nil) throws {
        if let bad = samples.firstIndex(where: { !$0.isFinite }) {
            throw Self.failure(.invalidArgument, "init", object: "new buffer" + (label.map { " (\($0))" } ?? ""),
                               "sample \(bad) is \(samples[bad]); samples must be finite")
        }
        try self.init(context: context, bytes: samples.withUnsafeBytes { Array($0) },
                      format: BufferFormat(.float32, channels), sampleRate: sampleRate, label: label)
    }

    /// Makes a buffer from unsigned 8-bit samples, silence at 128.
    public convenience init(context: AudioContext, samples: [UInt8], channels: ChannelLayout = .mono, sampleRate: Int, label: String? = nil) throws {
        try self.init(context: context, bytes: samples, format: BufferFormat(.uint8, channels), sampleRate: sampleRate, label: label)
    }

    deinit {
        OpenAL.deleteName(name, in: context.handle, Self.operationName("deinit"), object: description, alDeleteBuffers)
        Diagnostics.liveBuffers.subtract(1, ordering: .relaxed)
    }

    /// For example `buffer 4 (snare.wav)`.
    public var description: String { "buffer \(name)" + (label.map { " (\($0))" } ?? "") }

    /// Channels per frame.
    public var channelCount: Int { format.channels.channelCount }
    /// Bits per sample of the encoding.
    public var bitsPerSample: Int { format.encoding.bitsPerSample }
    /// The number of frames.
    public var frameCount: Int { samples.count / format.bytesPerBlock * format.framesPerBlock }
    /// The length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }
    /// The size of the encoded samples in bytes.
    public var byteCount: Int { samples.count }

    /// Whether a source plays or has queued this buffer.
    public var isInUse: Bool { users.load(ordering: .relaxed) > 0 }

    func retainUse() { users.add(1, ordering: .relaxed) }
    func releaseUse() { users.subtract(1, ordering: .relaxed) }

    /// The samples as Float32 in -1...1, interleaved (G.711 and ADPCM decoded in Swift).
    public func floatSamples() -> [Float] { samples.withUnsafeBytes { format.floatSamples($0) } }

    /// ``floatSamples()`` of the frames in `range` only (clamped to the buffer): just the
    /// blocks that hold them are decoded, so a meter's window of a long buffer costs its own
    /// length, not the buffer's.
    public func floatSamples(frames range: Range<Int>) -> [Float] {
        let lower = max(0, range.lowerBound), upper = min(frameCount, range.upperBound)
        guard lower < upper else { return [] }
        let perBlock = format.framesPerBlock, blockBytes = format.bytesPerBlock, channels = channelCount
        let firstBlock = lower / perBlock, endBlock = (upper + perBlock - 1) / perBlock
        let decoded = samples.withUnsafeBytes { format.floatSamples(UnsafeRawBufferPointer(rebasing: $0[(firstBlock * blockBytes)..<(endBlock * blockBytes)])) }
        let skip = lower - firstBlock * perBlock
        return Array(decoded[(skip * channels)..<((skip + upper - lower) * channels)])
    }

    /// Uploads the same samples into a new buffer in `context` (for example after a lost
    /// device was replaced).
    public func copy(to context: AudioContext) throws -> AudioBuffer {
        try AudioBuffer(context: context, samples: samples, format: format, sampleRate: sampleRate, label: label, damage: damage)
    }
}

extension AudioBuffer: ErrorNaming {
    package var errorObject: String { description }
}
