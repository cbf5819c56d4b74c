import Foundation

/// Where a WAV, AIFF or CAF file keeps its samples and how they are stored: what the
/// container parsers find, and all a ``PCMDecoder`` needs.
struct ContainerLayout: Sendable {
    var container: SoundFile.Container
    var stored: StoredEncoding
    var channels: ChannelLayout
    var sampleRate: Int
    /// The byte range of the samples: whole blocks only, so a truncated file keeps what it has.
    var samples: Range<Int>
    var frameCount: Int
    /// The frames the header states (its data chunk's size, or its frame count): more than
    /// ``frameCount`` in a file cut short.
    var statedFrameCount: Int

    /// Checks the values every container shares and trims `available` to whole blocks
    /// (and to `statedFrames` when the header states fewer). `statedBytes` is the size the
    /// header gives the samples (nil: none, or "to the end of the file").
    init(_ container: SoundFile.Container, stored: StoredEncoding, channelCount: Int, rate: Double,
         available: Range<Int>, statedBytes: Int? = nil, statedFrames: Int? = nil, fail: (String) -> SoundStageError) throws {
        guard channelCount > 0 else { throw fail("the header states 0 channels") }
        guard let layout = ChannelLayout(channelCount: channelCount) else {
            throw fail("\(channelCount) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)")
        }
        guard rate.isFinite, rate >= Double(Limits.bufferSampleRates.lowerBound), rate <= Double(Limits.bufferSampleRates.upperBound) else {
            throw fail(rate == 0 ? "the header states a sample rate of 0 Hz" : "sample rate \(rate) Hz is out of range")
        }
        let blockBytes = stored.bytesPerBlock(channels: channelCount)
        var blocks = available.count / blockBytes
        if let statedFrames { blocks = min(blocks, max(0, statedFrames) / stored.framesPerBlock + (statedFrames % stored.framesPerBlock == 0 ? 0 : 1)) }
        self.container = container
        self.stored = stored
        self.channels = layout
        self.sampleRate = Int(rate.rounded())
        self.samples = available.lowerBound..<(available.lowerBound + blocks * blockBytes)
        self.frameCount = min(blocks * stored.framesPerBlock, statedFrames ?? .max)
        let statedByBytes = statedBytes.map { $0 / blockBytes * stored.framesPerBlock }
        let stated = min(statedFrames ?? .max, statedByBytes ?? .max)
        statedFrameCount = stated == .max ? frameCount : max(frameCount, stated)
    }

    /// Recognises the container by its first bytes and parses it; nil for anything but WAV,
    /// AIFF/AIFC and CAF.
    static func parse(_ bytes: UnsafeRawBufferPointer, name: String) throws -> ContainerLayout? {
        let view = ByteView(bytes)
        guard bytes.count >= 8 else { return nil }
        switch (view.tag(0), view.tag(8)) {
        case ("RIFF", "WAVE"): return try parseWAV(view, name: name)
        case ("FORM", "AIFF"), ("FORM", "AIFC"): return try parseAIFF(view, name: name)
        case ("caff", _): return try parseCAF(view, name: name)
        default: return nil
        }
    }

    // MARK: WAV

    static func parseWAV(_ b: ByteView, name: String) throws -> ContainerLayout {
        func fail(_ reason: String) -> SoundStageError {
            SoundFile.failure(.decodingFailed, "decode(WAV)", object: name, reason)
        }
        var fmt: (code: Int, channels: Int, rate: Int, blockAlign: Int, bits: Int)?
        for chunk in b.chunks(from: 12, headerBytes: 8, padded: true, size: { b.u32le($0 + 4) }) {
            let (size, body, available) = (chunk.size, chunk.body, chunk.available)
            switch chunk.id {
            case "fmt ":
                guard size >= 16, available >= 16 else { throw fail("the fmt chunk is \(size) bytes, too short") }
                var code = b.u16le(body)
                if code == 0xFFFE {
                    guard size >= 40, available >= 40 else { throw fail("an extensible fmt chunk must be 40 bytes, got \(size)") }
                    code = b.u16le(body + 24)
                }
                fmt = (code, b.u16le(body + 2), b.u32le(body + 4), b.u16le(body + 12), b.u16le(body + 14))
            case "data":
                guard let f = fmt else { throw fail("the data chunk comes before any fmt chunk") }
                let stored = try wavEncoding(f.code, bits: f.bits, channels: f.channels, blockAlign: f.blockAlign, fail: fail)
                guard f.channels == 0 || stored.bytesPerBlock(channels: f.channels) == f.blockAlign else {
                    throw fail("block align \(f.blockAlign) does not match \(f.channels) channels of \(stored.name)")
                }
                // A writer that streamed the file may leave the size at 0 or 0xFFFFFFFF: no length stated.
                let stated = size == 0 || size == 0xFFFF_FFFF ? nil : size
                return try ContainerLayout(.wav, stored: stored, channelCount: f.channels, rate: Double(f.rate),
                                           available: body..<(body + min(size == 0 ? available : size, available)),
                                           statedBytes: stated, fail: fail)
            default:
                break   // LIST, fact, cue and anything else
            }
        }
        throw fail(fmt == nil ? "no fmt chunk" : "no data chunk")
    }

    static func wavEncoding(_ code: Int, bits: Int, channels: Int, blockAlign: Int, fail: (String) -> SoundStageError) throws -> StoredEncoding {
        switch (code, bits) {
        case (1, 8): return .uint8
        case (1, 16), (1, 24), (1, 32): return .int(bits: bits, bigEndian: false)
        case (3, 32), (3, 64): return .float(bits: bits, bigEndian: false)
        case (7, 8): return .muLaw
        case (6, 8): return .aLaw
        case (0x11, 4):
            let perChannel = blockAlign / max(channels, 1)
            guard perChannel > 4, (perChannel - 4) % 4 == 0 else { throw fail("block align \(blockAlign) is not a whole IMA ADPCM block for \(channels) channels") }
            return .imaWAV(framesPerBlock: (perChannel - 4) * 2 + 1)
        case (2, 4):
            let perChannel = blockAlign / max(channels, 1)
            guard perChannel > 7 else { throw fail("block align \(blockAlign) is too small for MS ADPCM blocks") }
            return .msADPCM(framesPerBlock: (perChannel - 7) * 2 + 2)
        default:
            throw fail("format \(code) with \(bits)-bit samples is not one SoundStage reads")
        }
    }

    // MARK: AIFF

    static func parseAIFF(_ b: ByteView, name: String) throws -> ContainerLayout {
        func fail(_ reason: String) -> SoundStageError {
            SoundFile.failure(.decodingFailed, "decode(AIFF)", object: name, reason)
        }
        let isAIFC = b.tag(8) == "AIFC"
        var comm: (channels: Int, frames: Int, bits: Int, rate: Double, compression: String)?
        var sound: Range<Int>?
        var soundBytes: Int?
        for chunk in b.chunks(from: 12, headerBytes: 8, padded: true, size: { b.u32be($0 + 4) }) {
            let (size, body, available) = (chunk.size, chunk.body, chunk.available)
            switch chunk.id {
            case "COMM":
                guard available >= 18, size >= 18 else { throw fail("the COMM chunk is too short") }
                var compression = "NONE"
                if isAIFC {
                    guard available >= 22, size >= 22 else { throw fail("the AIFC COMM chunk has no compression type") }
                    compression = b.tag(body + 18)
                }
                comm = (b.u16be(body), b.u32be(body + 2), b.u16be(body + 6), b.extended80(body + 8), compression)
            case "SSND":
                guard available >= 8 else { throw fail("the SSND chunk is too short") }
                let start = body + 8 + b.u32be(body)
                let end = body + min(size, available)
                guard start <= end else { throw fail("the SSND data offset points past the chunk") }
                sound = start..<end
                soundBytes = size - 8 - b.u32be(body)
            default:
                break
            }
        }
        guard let comm else { throw fail("no COMM chunk") }
        guard let sound else { throw fail("no SSND chunk") }
        let stored: StoredEncoding
        var frames = comm.frames
        switch (comm.compression, comm.bits) {
        case ("NONE", 8), ("twos", 8), ("NONE", 16), ("twos", 16), ("NONE", 24), ("in24", 24), ("NONE", 32), ("in32", 32):
            stored = .int(bits: comm.bits, bigEndian: true)
        case ("sowt", 16): stored = .int(bits: 16, bigEndian: false)
        case ("fl32", _), ("FL32", _): stored = .float(bits: 32, bigEndian: true)
        case ("fl64", _), ("FL64", _): stored = .float(bits: 64, bigEndian: true)
        case ("ulaw", _), ("ULAW", _): stored = .muLaw
        case ("alaw", _), ("ALAW", _): stored = .aLaw
        case ("ima4", _):
            // AIFC counts IMA4 packets, but libsndfile writes half the count for stereo
            // files; like libsndfile's reader, trust the SSND data's whole packets.
            stored = .appleIMA4
            frames = Int.max
        default:
            throw fail("compression '\(comm.compression)' with \(comm.bits)-bit samples is not one SoundStage reads")
        }
        return try ContainerLayout(.aiff, stored: stored, channelCount: comm.channels, rate: comm.rate,
                                   available: sound, statedBytes: soundBytes, statedFrames: frames, fail: fail)
    }

    // MARK: CAF

    static func parseCAF(_ b: ByteView, name: String) throws -> ContainerLayout {
        func fail(_ reason: String) -> SoundStageError {
            SoundFile.failure(.decodingFailed, "decode(CAF)", object: name, reason)
        }
        guard b.u16be(4) == 1 else { throw fail("CAF version \(b.u16be(4)) is not 1") }
        var desc: (rate: Double, format: String, flags: Int, bytesPerPacket: Int, framesPerPacket: Int, channels: Int, bits: Int)?
        var data: Range<Int>?
        var dataBytes: Int?
        // A negative size (-1) is the data chunk of a file still being written: to the end.
        let size: (Int) -> Int = { offset in
            let stated = b.i64be(offset + 4)
            return stated < 0 ? b.count - offset - 12 : Int(min(stated, Int64(Int.max / 2)))
        }
        for chunk in b.chunks(from: 8, headerBytes: 12, padded: false, size: size) {
            let (size, body, available) = (chunk.size, chunk.body, chunk.available)
            switch chunk.id {
            case "desc":
                guard size >= 32, available >= 32 else { throw fail("the desc chunk is too short") }
                desc = (Double(bitPattern: b.u64be(body)), b.tag(body + 8), b.u32be(body + 12), b.u32be(body + 16),
                        b.u32be(body + 20), b.u32be(body + 24), b.u32be(body + 28))
            case "data":
                guard size >= 4, available >= 4 else { throw fail("the data chunk is too short") }
                data = (body + 4)..<(body + min(size, available))
                dataBytes = b.i64be(chunk.body - 8) < 0 ? nil : size - 4   // its stated size, -1 for "to the end"
            default:
                break
            }
        }
        guard let desc else { throw fail("no desc chunk") }
        guard let data else { throw fail("no data chunk") }
        let stored: StoredEncoding
        switch desc.format {
        case "lpcm":
            let isFloat = desc.flags & 1 != 0, little = desc.flags & 2 != 0
            switch (isFloat, desc.bits) {
            case (true, 32), (true, 64): stored = .float(bits: desc.bits, bigEndian: !little)
            case (false, 8): stored = .int(bits: 8, bigEndian: true)
            case (false, 16), (false, 24), (false, 32): stored = .int(bits: desc.bits, bigEndian: !little)
            default: throw fail("linear PCM with \(desc.bits)-bit \(isFloat ? "float" : "integer") samples is not one SoundStage reads")
            }
        case "ulaw": stored = .muLaw
        case "alaw": stored = .aLaw
        case "ima4": stored = .appleIMA4
        default: throw fail("format '\(desc.format)' is not one SoundStage reads (lpcm, ima4, ulaw, alaw)")
        }
        if desc.channels > 0, desc.channels <= 8 {
            let expected = stored.bytesPerBlock(channels: desc.channels)
            guard desc.bytesPerPacket == expected, desc.framesPerPacket == stored.framesPerBlock else {
                throw fail("\(desc.bytesPerPacket) bytes and \(desc.framesPerPacket) frames a packet do not match \(desc.channels) channels of \(stored.name)")
            }
        }
        return try ContainerLayout(.caf, stored: stored, channelCount: desc.channels, rate: desc.rate, available: data,
                                   statedBytes: dataBytes, fail: fail)
    }
}

/// Bounds-checked reads of integers and tags from a file's bytes; reads past the end give 0.
struct ByteView {
    /// One chunk of a RIFF, IFF or CAF file: its tag, stated size, where its body starts,
    /// and how many bytes of the file follow that start.
    struct Chunk {
        let id: String
        let size: Int
        let body: Int
        let available: Int
    }

    /// The chunks from `start`, each a 4-byte tag and a size (read by `size` from the
    /// chunk's offset) in `headerBytes`, then the body, padded to an even length when
    /// `padded`. The walk ends with the first chunk that runs past the end of the file (it is
    /// still listed: a truncated file keeps what it has).
    func chunks(from start: Int, headerBytes: Int, padded: Bool, size: (Int) -> Int) -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = start
        while offset + headerBytes <= count {
            let chunk = Chunk(id: tag(offset), size: size(offset), body: offset + headerBytes, available: count - offset - headerBytes)
            chunks.append(chunk)
            guard chunk.size <= chunk.available else { break }
            offset = chunk.body + chunk.size + (padded ? chunk.size & 1 : 0)
        }
        return chunks
    }

    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    var count: Int { bytes.count }
    func u8(_ o: Int) -> Int { o >= 0 && o < bytes.count ? Int(bytes[o]) : 0 }
    func u16le(_ o: Int) -> Int { u8(o) | u8(o + 1) << 8 }
    func u32le(_ o: Int) -> Int { u16le(o) | u16le(o + 2) << 16 }
    func u16be(_ o: Int) -> Int { u8(o) << 8 | u8(o + 1) }
    func u32be(_ o: Int) -> Int { u16be(o) << 16 | u16be(o + 2) }
    func u64be(_ o: Int) -> UInt64 { UInt64(u32be(o)) << 32 | UInt64(u32be(o + 4)) }
    func i64be(_ o: Int) -> Int64 { Int64(bitPattern: u64be(o)) }
    func tag(_ o: Int) -> String { String(decoding: (0..<4).map { UInt8(u8(o + $0)) }, as: UTF8.self) }

    /// An IEEE 754 80-bit extended float, big-endian, as AIFF stores its sample rate.
    func extended80(_ o: Int) -> Double {
        let exponent = (u8(o) & 0x7F) << 8 | u8(o + 1)
        let mantissa = u64be(o + 2)
        if exponent == 0 && mantissa == 0 { return 0 }
        if exponent == 0x7FFF { return .nan }
        let value = Double(mantissa) * pow(2, Double(exponent - 16383 - 63))
        return u8(o) & 0x80 != 0 ? -value : value
    }
}
