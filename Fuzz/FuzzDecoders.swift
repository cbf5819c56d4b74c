// The decoder targets: each input is opened as a game's file would be
// (`SoundFile.decoder(_:name:keepNative:)`), every frame is read, a few seeks are made, and
// the decoded size is checked against the input size: a PCM container may grow at most 8x
// (4-bit ADPCM or 8-bit samples to 16 or 32 bits), and a compressed stream (FLAC, Vorbis,
// Opus, MP3) neither states nor decodes more than its decode limit (4,096 bytes of output a
// byte of input), so an absurd header cannot allocate more.
//
// Then the properties the decoders promise, on the whole-file paths too: the same bytes read
// in blocks of 4,096 frames and in reads of `.max` (what `SoundFile.decode` makes); the file
// decoded whole (`SoundFile.decode`) holds as many frames as the reads gave; and after a seek
// to a frame the input picks, the reads are the whole decode's from that frame on, exactly
// (a decoder opened with `keepNative: false` seeks frame-exact; MP3's samples to within 1e-5),
// where nothing was damaged.
import Foundation
import SoundStage

func fuzzDecoder(_ target: FuzzTarget, _ data: Data) {
    let count = data.count
    let name = "fuzz.\(target.rawValue)"
    do {
        // The public entry point a game's file takes: the bytes say what they are (a mutated
        // FLAC may come out as MP3), so the limits are the decoder's, not the target's.
        let keepNative = count % 2 == 0
        let decoder = try SoundFile.decoder(data, name: name, keepNative: keepNative)
        let blocks = try readToEnd(decoder, maxFrames: 4_096)
        let total = blocks.count
        // The decode limit (DecodeLimit): inputs here are at most 64 KiB, far below its 2 GiB.
        let limit = 4_096 * count
        switch decoder.container {
        case .flac:
            precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock
                         && decoder.frameCount * decoder.outputFormat.bytesPerBlock <= limit,
                         "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        case .ogg where decoder.encoding == "opus", .mp3:
            precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock + 4 * 8 * 5_760,
                         "decoded \(total) bytes for \(decoder.frameCount) frames")
            precondition(total <= limit && decoder.frameCount * decoder.outputFormat.bytesPerBlock <= limit,
                         "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        case .ogg:
            precondition(total <= limit && decoder.frameCount * decoder.outputFormat.bytesPerBlock <= limit,
                         "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        default:
            precondition(total <= 8 * count + 64, "decoded \(total) bytes from \(count)")
            precondition(total == decoder.frameCount * decoder.outputFormat.bytesPerBlock / decoder.outputFormat.framesPerBlock
                         || decoder.outputFormat.framesPerBlock > 1, "frame count \(decoder.frameCount) but \(total) bytes")
        }
        try checkWholeReads(data, name: name, keepNative: keepNative, blocks: blocks)
        try checkSeek(data, name: name)
        for frame in [decoder.frameCount / 2, 0, decoder.frameCount] {
            if (try? decoder.seek(toFrame: frame)) != nil { _ = try decoder.read(maxFrames: 64) }
        }
    } catch let error as SoundStageError {
        precondition(error.code == .decodingFailed || error.code == .invalidArgument, "unexpected \(error)")
        precondition(error.description.contains("fuzz"), "the error does not name the input: \(error)")
    } catch {
        preconditionFailure("untyped error \(error)")
    }
}

/// Every byte a decoder has left, read `maxFrames` at a time.
private func readToEnd(_ decoder: any AudioDecoder, maxFrames: Int) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
        let chunk = try decoder.read(maxFrames: maxFrames)
        if chunk.isEmpty { return bytes }
        bytes += chunk
    }
}

/// Reads of `.max` give what the block reads gave, and `SoundFile.decode` as many frames.
private func checkWholeReads(_ data: Data, name: String, keepNative: Bool, blocks: [UInt8]) throws {
    let decoder = try SoundFile.decoder(data, name: name, keepNative: keepNative)
    let whole = try readToEnd(decoder, maxFrames: .max)
    precondition(whole == blocks, "reads of .max gave \(whole.count) bytes, of 4,096 frames \(blocks.count)"
                 + (whole.count == blocks.count ? ", different bytes" : ""))
    guard keepNative else { return }
    // The file decoded whole keeps the encodings a decoder with keepNative keeps.
    let file: SoundFile
    do { file = try SoundFile.decode(data, name: name) } catch let error as SoundStageError {
        // Only a stream with no audio at all is refused where the reads gave none.
        precondition(blocks.isEmpty, "decode refused what the reads gave (\(blocks.count) bytes): \(error)")
        return
    }
    let format = decoder.outputFormat
    precondition(file.frameCount * format.bytesPerBlock / format.framesPerBlock == blocks.count
                 || decoder.container != .ogg && decoder.container != .flac && decoder.container != .mp3,
                 "decode holds \(file.frameCount) frames, the reads \(blocks.count) bytes")
}

/// After a seek to a frame the input picks, the reads are the whole decode's from there on.
private func checkSeek(_ data: Data, name: String) throws {
    let reference = try SoundFile.decoder(data, name: name, keepNative: false)
    let whole = try readToEnd(reference, maxFrames: 4_096)
    guard reference.damage.isEmpty, reference.outputFormat.framesPerBlock == 1 else { return }
    let frameBytes = reference.outputFormat.bytesPerBlock
    let frames = min(whole.count / frameBytes, reference.frameCount)
    // The frame: the input's last four bytes, so that the fuzzer can steer it.
    let picked = data.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    let frame = picked % (frames + 1)
    let seeking = try SoundFile.decoder(data, name: name, keepNative: false)
    do { try seeking.seek(toFrame: frame) } catch is SoundStageError { return }
    precondition(seeking.position == frame, "seek(toFrame: \(frame)) left the position at \(seeking.position)")
    let rest = try readToEnd(seeking, maxFrames: 4_096)
    guard seeking.damage.isEmpty else { return }
    let expected = whole[(frame * frameBytes)...]
    precondition(rest.count == expected.count && (rest.elementsEqual(expected) || reference.container == .mp3 && nearly(rest, expected)),
                 "after seek(toFrame: \(frame)) of \(frames): \(rest.count) bytes, the whole decode's \(expected.count) from there"
                 + (rest.count == expected.count ? ", different" : ""))
}

/// Float32 samples equal to within 1e-5 of the larger of 1 and their size (-100 dB): mpg123's
/// synthesis after a seek rounds differently from the same frames decoded in order (measured
/// on the committed stereo seed: about half the samples after a seek to frame 3,000, to the
/// end, 1.19e-7 apart at most, one unit in the last place at full scale; a mutated stream
/// decoding past full scale, 1.9e-6).
private func nearly(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count, a.count % 4 == 0 else { return false }
    return a.withUnsafeBytes { x in
        Array(b).withUnsafeBytes { y in
            let xs = x.bindMemory(to: Float.self), ys = y.bindMemory(to: Float.self)
            return zip(xs, ys).allSatisfy { $0 == $1 || abs($0 - $1) <= 1e-5 * max(1, abs($0), abs($1)) }
        }
    }
}
