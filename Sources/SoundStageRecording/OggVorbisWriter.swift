import CVorbis
import SoundStageCore
import SoundStageSession

/// Writes Ogg Vorbis through libvorbisenc (variable bit rate at a quality). Every Ogg page
/// is written as soon as it is complete, so the file on disk is a valid stream up to its last
/// page; ``finish()`` flushes the rest and marks the end of the stream.
final class OggVorbisWriter: AudioFileWriter {
    private let file: OutputFile
    private let channels: Int
    private(set) var framesWritten = 0
    private let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
    private let comment = UnsafeMutablePointer<vorbis_comment>.allocate(capacity: 1)
    private let dsp = UnsafeMutablePointer<vorbis_dsp_state>.allocate(capacity: 1)
    private let block = UnsafeMutablePointer<vorbis_block>.allocate(capacity: 1)
    private let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
    private var finished = false
    /// A page failed to be written: no later page may follow it (the stream would have a hole).
    private var broken = false

    /// The qualities libvorbisenc takes (-0.1 about 45 kbit/s ... 1 about 500 kbit/s, stereo 44.1 kHz).
    static let qualities: ClosedRange<Float> = -0.1...1

    /// Starts `path` for `channels` at `sampleRate` and `quality`.
    init(path: String, sampleRate: Int, channels: Int, quality: Float, policy: OutputFile.Policy = .any) throws {
        vorbis_info_init(info)
        guard vorbis_encode_init_vbr(info, channels, sampleRate, quality) == 0 else {
            vorbis_info_clear(info)
            info.deallocate(); comment.deallocate(); dsp.deallocate(); block.deallocate(); stream.deallocate()
            throw SoundStageError(.unsupportedFormat, operation: "Recorder.prepareToRecord", object: path,
                                  reason: "libvorbisenc cannot encode \(channels) channels at \(sampleRate) Hz and quality \(quality)")
        }
        do {
            file = try OutputFile(path: path, policy: policy)
        } catch {
            vorbis_info_clear(info)
            info.deallocate(); comment.deallocate(); dsp.deallocate(); block.deallocate(); stream.deallocate()
            throw error
        }
        self.channels = channels
        vorbis_comment_init(comment)
        vorbis_comment_add_tag(comment, "ENCODER", "SoundStage")
        vorbis_analysis_init(dsp, info)
        vorbis_block_init(dsp, block)
        ogg_stream_init(stream, Int32.random(in: 1...Int32.max))
        var id = ogg_packet(), commentPacket = ogg_packet(), codebooks = ogg_packet()
        vorbis_analysis_headerout(dsp, comment, &id, &commentPacket, &codebooks)
        ogg_stream_packetin(stream, &id)
        ogg_stream_packetin(stream, &commentPacket)
        ogg_stream_packetin(stream, &codebooks)
        // The headers on pages of their own, so audio starts on a fresh page.
        try writePages(flush: true)
    }

    deinit {
        ogg_stream_clear(stream)
        vorbis_block_clear(block)
        vorbis_dsp_clear(dsp)
        vorbis_comment_clear(comment)
        vorbis_info_clear(info)
        info.deallocate(); comment.deallocate(); dsp.deallocate(); block.deallocate(); stream.deallocate()
    }

    func append(_ samples: [Float]) throws {
        let frames = samples.count / channels
        guard frames > 0, !finished, !broken else { return }
        let buffer = vorbis_analysis_buffer(dsp, Int32(frames))!
        for c in 0..<channels {
            let out = buffer[c]!
            for f in 0..<frames { out[f] = samples[f * channels + c] }
        }
        vorbis_analysis_wrote(dsp, Int32(frames))
        framesWritten += frames
        try encode()
    }

    func finish() throws {
        guard !finished, !broken else { return }
        finished = true
        vorbis_analysis_wrote(dsp, 0)
        try encode()
        try writePages(flush: true)
        file.sync()
    }

    /// Encodes every block the encoder has ready and writes the pages that fill up.
    private func encode() throws {
        var packet = ogg_packet()
        while vorbis_analysis_blockout(dsp, block) == 1 {
            vorbis_analysis(block, nil)
            vorbis_bitrate_addblock(block)
            while vorbis_bitrate_flushpacket(dsp, &packet) == 1 {
                ogg_stream_packetin(stream, &packet)
                try writePages(flush: false)
            }
        }
    }

    /// Writes the complete pages (every page, `flush`).
    private func writePages(flush: Bool) throws {
        var page = ogg_page()
        while (flush ? ogg_stream_flush(stream, &page) : ogg_stream_pageout(stream, &page)) != 0 {
            let bytes = Array(UnsafeBufferPointer(start: page.header, count: page.header_len))
                + Array(UnsafeBufferPointer(start: page.body, count: page.body_len))
            do { try file.append(bytes) } catch {
                broken = true
                throw error
            }
        }
    }
}
