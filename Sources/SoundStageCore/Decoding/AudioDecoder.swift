import Foundation

/// A decoder reads a sound file's frames in order or from any frame: what whole-file
/// loading and streaming both use.
///
/// Open one with ``SoundFile/decoder(contentsOf:keepNative:)`` or
/// ``SoundFile/decoder(_:name:keepNative:)``. A decoder is not thread-safe: use it from one
/// thread at a time.
public protocol AudioDecoder: AnyObject {
    /// The container format.
    var container: SoundFile.Container { get }
    /// The encoding in the file, e.g. `pcm-s16`, `ima4` or `vorbis`.
    var encoding: String { get }
    /// The channel layout.
    var channels: ChannelLayout { get }
    /// Frames per second.
    var sampleRate: Int { get }
    /// The number of frames in the file.
    var frameCount: Int { get }
    /// The format of the bytes ``read(maxFrames:)`` returns.
    var outputFormat: BufferFormat { get }
    /// The next frame ``read(maxFrames:)`` returns.
    var position: Int { get }
    /// Reads up to `maxFrames` frames from ``position`` in ``outputFormat``; an empty array
    /// at the end. A decoder that keeps ADPCM compressed reads whole blocks.
    func read(maxFrames: Int) throws -> [UInt8]
    /// Moves to `frame` (0...frameCount), exactly. A decoder that keeps ADPCM compressed
    /// seeks only to block boundaries.
    func seek(toFrame frame: Int) throws
    /// The damaged places met so far, in order: data skipped as damaged, and where the data
    /// ended before the length the file states (see ``DecodeDamage``). A read that meets
    /// damage after some audio returns what decoded and notes the damage here rather than
    /// throwing; one whose data ends early returns fewer frames, then none.
    var damage: [DecodeDamage.Span] { get }
}

/// A decoder that knows the name of what it decodes (for errors found after it opened).
protocol NamedDecoder: AudioDecoder {
    var name: String { get }
}

extension AudioDecoder {
    /// The length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// A seek refused: `invalidArgument` for a frame outside the sound, `decodingFailed` when
    /// the frame is inside but the codec library cannot reach it (damaged data).
    package func seekError(_ frame: Int, _ reason: String, code: SoundStageError.Code = .invalidArgument) -> SoundStageError {
        SoundFile.failure(code, "decoder.seek(toFrame: \(frame))", object: "\(container.rawValue) decoder", reason)
    }
}

extension SoundFile {
    /// Opens a decoder on a file, read into memory (compressed stays compressed).
    ///
    /// - Parameters:
    ///   - url: the sound file; its first bytes say what it is, not its name.
    ///   - keepNative: keep encodings OpenAL Soft plays as they are (the laws and WAV ADPCM
    ///     stay compressed); by default reads give linear PCM (uint8, int16 or float32) and
    ///     seeks are frame-exact for every encoding.
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` when the file cannot be
    ///   read, ``SoundStageError/Code-swift.struct/decodingFailed`` naming it and the reason.
    public static func decoder(contentsOf url: URL, keepNative: Bool = false) throws -> any AudioDecoder {
        try decoder(contentsOf: url, keepNative: keepNative, wholeFile: false)
    }

    /// Opens a decoder on the file's bytes, read into memory now (a truncation of the file
    /// cannot take them away, as it would a mapping's). `wholeFile`: the file is decoded to
    /// the end at once, so its bytes are read into memory whose pages are all present.
    static func decoder(contentsOf url: URL, keepNative: Bool, wholeFile: Bool) throws -> any AudioDecoder {
        let operation = operationName("decode(contentsOf:)")
        let data = wholeFile ? try wholeContents(of: url, operation: operation) : try contents(of: url, operation: operation)
        return try decoder(data, name: url.path, keepNative: keepNative)
    }

    /// Opens a decoder on a sound held in memory; `name` identifies it in errors.
    public static func decoder(_ data: Data, name: String, keepNative: Bool = false) throws -> any AudioDecoder {
        let layout = try data.withUnsafeBytes { try ContainerLayout.parse($0, name: name) }
        if let layout { return try PCMDecoder(data, layout: layout, name: name, keepNative: keepNative) }
        if OpusDecoder.isOpus(data) { return try OpusDecoder(data, name: name) }
        if data.prefix(4).elementsEqual("OggS".utf8) { return try VorbisDecoder(data, name: name) }
        if data.prefix(4).elementsEqual("fLaC".utf8) { return try FLACDecoder(data, name: name) }
        if MP3Decoder.isMP3(data) { return try MP3Decoder(data, name: name) }
        throw failure(.decodingFailed, "decode", object: name,
                      data.isEmpty ? "the file is empty" : "not a WAV, AIFF, CAF, Ogg Vorbis, Ogg Opus, FLAC or MP3 file")
    }
}

/// Reads WAV, AIFF and CAF: the bytes stay where they are (a file read into memory) and each read
/// converts only the blocks it needs.
final class PCMDecoder: NamedDecoder {
    let data: Data
    let layout: ContainerLayout
    let name: String
    let outputFormat: BufferFormat
    /// Whether reads return the stored bytes as they are.
    let native: Bool
    private(set) var position = 0

    /// Where the file ends before its header says it does, if it does.
    let damage: [DecodeDamage.Span]

    init(_ data: Data, layout: ContainerLayout, name: String, keepNative: Bool) throws {
        self.data = data
        self.layout = layout
        self.name = name
        damage = layout.statedFrameCount > layout.frameCount
            ? [DecodeDamage.Span(kind: .cutShort, frame: layout.frameCount, framesLost: layout.statedFrameCount - layout.frameCount,
                                 reason: "the data ends at frame \(layout.frameCount) of the \(layout.statedFrameCount) its header states")]
            : []
        // Kept as stored only when OpenAL Soft takes it, block size included; else decoded.
        if keepNative, let format = layout.stored.native(layout.channels), format.blockAlignmentProblem == nil {
            outputFormat = format
            native = true
        } else {
            outputFormat = layout.stored.linear(layout.channels)
            native = false
        }
    }

    var container: SoundFile.Container { layout.container }
    var encoding: String { layout.stored.name }
    var channels: ChannelLayout { layout.channels }
    var sampleRate: Int { layout.sampleRate }
    var frameCount: Int { layout.frameCount }

    func read(maxFrames: Int) throws -> [UInt8] {
        let perBlock = layout.stored.framesPerBlock
        let wanted = min(max(0, maxFrames), frameCount - position)
        guard wanted > 0 else { return [] }
        let firstBlock = position / perBlock
        var endBlock = (position + wanted + perBlock - 1) / perBlock
        if native { endBlock = max(endBlock, firstBlock + 1) }
        let blockBytes = layout.stored.bytesPerBlock(channels: channels.channelCount)
        let range = (layout.samples.lowerBound + firstBlock * blockBytes)..<(layout.samples.lowerBound + endBlock * blockBytes)
        let converted = data.withUnsafeBytes { raw in
            layout.stored.convert(UnsafeRawBufferPointer(rebasing: raw[range]), channels: channels, keepNative: native)
        }
        guard let converted else {
            throw SoundFile.failure(.decodingFailed, "decoder.read(maxFrames:)", object: name, "the float samples include NaN or infinity")
        }
        if native {
            position = min(frameCount, endBlock * perBlock)
            return converted.bytes
        }
        let frameBytes = outputFormat.bytesPerBlock
        let skip = (position - firstBlock * perBlock) * frameBytes
        position += wanted
        return skip == 0 && converted.bytes.count == wanted * frameBytes
            ? converted.bytes : Array(converted.bytes[skip..<(skip + wanted * frameBytes)])
    }

    /// Every frame left, as stored, without copying them out of the file's bytes: for a
    /// decoder at its start that reads the file as stored (nil otherwise, and for float data,
    /// which is checked as it is converted).
    func readStoredWhole() throws -> SampleBytes? {
        guard native, position == 0, frameCount > 0, layout.stored.framesPerBlock == 1 else { return nil }
        if case .float = layout.stored { return nil }
        let blockBytes = layout.stored.bytesPerBlock(channels: channels.channelCount)
        position = frameCount
        // The range is in the bytes as `withUnsafeBytes` gives them (from 0), as the layout's is.
        return SampleBytes(data, range: layout.samples.lowerBound..<(layout.samples.lowerBound + frameCount * blockBytes))
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "\(name) has \(frameCount) frames") }
        if native, frame % outputFormat.framesPerBlock != 0 {
            throw seekError(frame, "\(name) is read as compressed blocks of \(outputFormat.framesPerBlock) frames; open the decoder without keepNative for exact seeks")
        }
        position = frame
    }
}
