import CFLAC
import Foundation

/// Decodes FLAC with libFLAC's stream decoder, reading SoundStage's own view of the bytes
/// (read into memory for files): 16-bit and narrower streams to Int16, wider ones to Float32 (exact: a
/// 24-bit sample fits a float), in OpenAL's channel order (FLAC's own for every layout
/// OpenAL plays), with frame-exact seeks (`FLAC__stream_decoder_seek_absolute`).
final class FLACDecoder: NamedDecoder {
    /// What the C callbacks work on: the bytes, the read position, what was decoded and not
    /// handed out yet, and the stream's description.
    final class Stream {
        let data: Data
        var offset = 0
        /// Decoded frames waiting, interleaved, as output bytes.
        var pending: [UInt8] = []
        var rate = 0, channels = 0, bits = 0, total: UInt64 = 0
        var error: String?
        var floats = false
        init(_ data: Data) { self.data = data }
    }

    let name: String
    let channels: ChannelLayout
    let sampleRate: Int
    let frameCount: Int
    let outputFormat: BufferFormat
    private(set) var position = 0
    private let stream: Stream
    private let opaque: Unmanaged<Stream>
    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    /// libFLAC's functions (loaded at the first FLAC decoded).
    private let flac: ss_flac
    private(set) var damage: [DecodeDamage.Span] = []
    /// The most the stream may decode to.
    private let limit: DecodeLimit

    var container: SoundFile.Container { .flac }
    var encoding: String { "flac" }

    init(_ data: Data, name: String) throws {
        self.name = name
        func fail(_ reason: String) -> SoundStageError { SoundFile.failure(.decodingFailed, "decode(FLAC)", object: name, reason) }
        stream = Stream(data.startIndex == 0 ? data : Data(data))
        guard let flac = ss_flac()?.pointee else {
            throw SoundFile.failure(.libraryMissing, "decode(FLAC)", object: name, OptionalLibrary.flac.missing(ss_flac_error()))
        }
        self.flac = flac
        guard let decoder = flac.new_decoder() else { throw fail("libFLAC could not make a decoder") }
        self.decoder = decoder
        opaque = Unmanaged.passRetained(stream)
        let status = flac.init_stream(decoder, Self.read, Self.seek, Self.tell, Self.length, Self.eof, Self.write, Self.metadata, Self.error,
                                                      opaque.toOpaque())
        var problem: String?
        if status != FLAC__STREAM_DECODER_INIT_STATUS_OK {
            problem = "libFLAC could not start decoding (status \(status.rawValue))"
        } else if flac.process_until_end_of_metadata(decoder) == 0 || stream.rate == 0 {
            problem = stream.error ?? "no STREAMINFO: not a FLAC stream, or a damaged one"
        }
        let layout = ChannelLayout(channelCount: stream.channels)
        if problem == nil, layout == nil {
            problem = "\(stream.channels) channels is not a layout OpenAL Soft plays (1, 2, 4, 6, 7 or 8)"
        } else if problem == nil, !Limits.bufferSampleRates.contains(stream.rate) {
            problem = "sample rate \(stream.rate) Hz is out of range"
        }
        if problem == nil, stream.total == 0 {
            problem = "the stream does not state its length (as a live stream may not); encode it again with flac"
        }
        if let problem {
            flac.delete_decoder(decoder)
            opaque.release()
            throw fail(problem)
        }
        channels = layout!
        sampleRate = stream.rate
        stream.floats = stream.bits > 16
        outputFormat = BufferFormat(stream.floats ? .float32 : .int16, layout!)
        // A stated length is kept to the limit (a lying header cannot promise more); reads end
        // where the stream does anyway.
        limit = DecodeLimit(inputBytes: data.count, frameBytes: outputFormat.bytesPerBlock)
        frameCount = limit.capped(Int(clamping: stream.total))
    }

    deinit {
        flac.delete_decoder(decoder)
        opaque.release()
    }

    func read(maxFrames: Int) throws -> [UInt8] {
        let frameBytes = outputFormat.bytesPerBlock
        if maxFrames > 0, position == frameCount, frameCount == limit.frames, stream.total > UInt64(frameCount) {
            try refuseWhatIsPastTheLimit(frameBytes)
        }
        let wanted = max(0, min(maxFrames, frameCount - position)) * frameBytes
        var ended = false
        while stream.pending.count < wanted {
            if flac.get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
                ended = true
                break
            }
            let before = stream.pending.count
            let decoded = flac.process_single(decoder) != 0
            if let error = stream.error {
                // libFLAC skips what it cannot decode (or writes a frame that fails its check
                // as silence) and goes on: noted, not thrown.
                stream.error = nil
                if before == 0, position == 0, !decoded {
                    throw SoundFile.failure(.decodingFailed, "decode(FLAC)", object: name, error)
                }
                damage.append(DecodeDamage.Span(kind: .damaged, frame: position + before / frameBytes, reason: error))
            }
            if !decoded {
                if before == 0, position == 0 { throw SoundFile.failure(.decodingFailed, "decode(FLAC)", object: name, "the stream is damaged") }
                ended = true   // damaged past recovery after some audio: what decoded stays
                break
            }
            if stream.pending.count == before, flac.get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM {
                ended = true
                break
            }
        }
        let taken = min(wanted, stream.pending.count - stream.pending.count % frameBytes)
        position += taken / frameBytes
        if ended, position < frameCount, !damage.contains(where: { $0.kind == .cutShort }) {
            damage.append(DecodeDamage.Span(kind: .cutShort, frame: position, framesLost: frameCount - position,
                                            reason: "the data ends at frame \(position) of the \(frameCount) its header states"))
        }
        // Everything waiting is handed over as it is (a whole-file read copies nothing).
        if taken == stream.pending.count {
            defer { stream.pending = [] }
            return stream.pending
        }
        let out = Array(stream.pending.prefix(taken))
        stream.pending.removeFirst(taken)
        return out
    }

    /// At the limit, in a stream that states more: refused if it holds more (decoded frames
    /// past the limit waiting, or a frame more that decodes).
    private func refuseWhatIsPastTheLimit(_ frameBytes: Int) throws {
        if stream.pending.isEmpty, flac.get_state(decoder) != FLAC__STREAM_DECODER_END_OF_STREAM {
            _ = flac.process_single(decoder)
            stream.error = nil
        }
        try limit.check(position, adding: stream.pending.count / frameBytes, format: "FLAC", name: name)
    }

    func seek(toFrame frame: Int) throws {
        guard (0...frameCount).contains(frame) else { throw seekError(frame, "\(name) has \(frameCount) frames") }
        stream.pending.removeAll()
        stream.error = nil
        if frame < frameCount {
            guard flac.seek_absolute(decoder, FLAC__uint64(frame)) != 0 else {
                let reason = stream.error ?? "libFLAC could not seek"
                _ = flac.flush(decoder)
                throw seekError(frame, "\(reason) in \(name)", code: .decodingFailed)
            }
        }
        position = frame
    }

    // MARK: - libFLAC's callbacks

    private static func stream(_ client: UnsafeMutableRawPointer?) -> Stream { Unmanaged<Stream>.fromOpaque(client!).takeUnretainedValue() }

    private static let read: FLAC__StreamDecoderReadCallback = { _, buffer, bytes, client in
        let s = stream(client)
        let count = min(bytes!.pointee, s.data.count - s.offset)
        guard count > 0 else {
            bytes!.pointee = 0
            return FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM
        }
        s.data.withUnsafeBytes { raw in buffer!.update(from: raw.baseAddress!.assumingMemoryBound(to: FLAC__byte.self) + s.offset, count: count) }
        s.offset += count
        bytes!.pointee = count
        return FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
    }

    private static let seek: FLAC__StreamDecoderSeekCallback = { _, offset, client in
        let s = stream(client)
        guard offset <= UInt64(s.data.count) else { return FLAC__STREAM_DECODER_SEEK_STATUS_ERROR }
        s.offset = Int(offset)
        return FLAC__STREAM_DECODER_SEEK_STATUS_OK
    }

    private static let tell: FLAC__StreamDecoderTellCallback = { _, offset, client in
        offset!.pointee = FLAC__uint64(stream(client).offset)
        return FLAC__STREAM_DECODER_TELL_STATUS_OK
    }

    private static let length: FLAC__StreamDecoderLengthCallback = { _, length, client in
        length!.pointee = FLAC__uint64(stream(client).data.count)
        return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
    }

    private static let eof: FLAC__StreamDecoderEofCallback = { _, client in
        let s = stream(client)
        return s.offset >= s.data.count ? 1 : 0
    }

    private static let write: FLAC__StreamDecoderWriteCallback = { _, frame, buffer, client in
        let s = stream(client)
        let header = frame!.pointee.header
        let count = Int(header.blocksize), channels = Int(header.channels)
        guard channels == s.channels, Int(header.bits_per_sample) == s.bits, let buffer else {
            s.error = "a frame changes the channel count or the bit depth"
            return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
        }
        let start = s.pending.count
        if s.floats {
            let scale = 1 / Float(1 << (s.bits - 1))
            s.pending.append(contentsOf: repeatElement(0, count: count * channels * 4))
            s.pending.withUnsafeMutableBytes { raw in
                let out = raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: Float.self)
                for c in 0..<channels {
                    let plane = buffer[c]!
                    for i in 0..<count { out[i * channels + c] = Float(plane[i]) * scale }
                }
            }
        } else {
            let shift = Int32(16 - s.bits)
            s.pending.append(contentsOf: repeatElement(0, count: count * channels * 2))
            s.pending.withUnsafeMutableBytes { raw in
                let out = raw.baseAddress!.advanced(by: start).assumingMemoryBound(to: Int16.self)
                if channels == 2, let left = buffer[0], let right = buffer[1] {
                    for i in 0..<count {
                        out[2 * i] = Int16(truncatingIfNeeded: left[i] &<< shift)
                        out[2 * i + 1] = Int16(truncatingIfNeeded: right[i] &<< shift)
                    }
                    return
                }
                for c in 0..<channels {
                    let plane = buffer[c]!
                    for i in 0..<count { out[i * channels + c] = Int16(truncatingIfNeeded: plane[i] &<< shift) }
                }
            }
        }
        return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE
    }

    private static let metadata: FLAC__StreamDecoderMetadataCallback = { _, block, client in
        guard let block, block.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
        let s = stream(client)
        let info = block.pointee.data.stream_info
        (s.rate, s.channels, s.bits, s.total) = (Int(info.sample_rate), Int(info.channels), Int(info.bits_per_sample), info.total_samples)
    }

    private static let error: FLAC__StreamDecoderErrorCallback = { _, status, client in
        let what: String
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: what = "lost its sync in damaged data and skipped to the next frame"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: what = "met a damaged frame header and skipped the frame"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: what = "met a frame that fails its CRC check and played it as silence"
        default: what = "met data it cannot parse (error \(status.rawValue))"
        }
        stream(client).error = "libFLAC " + what
    }
}
