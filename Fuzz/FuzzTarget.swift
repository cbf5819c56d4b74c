// A libFuzzer target for one SoundStage parser, compiled together with the library's
// sources by scripts/fuzz.sh (which picks the parser with -D FUZZ_WAV, FUZZ_AIFF, FUZZ_CAF,
// FUZZ_OGG, FUZZ_OPUS, FUZZ_FLAC or FUZZ_MP3). Each input is parsed, every frame is read, a few seeks are made,
// and the decoded size is checked against the input size: a PCM container may grow at most
// 8x (4-bit ADPCM or 8-bit samples to 16 or 32 bits), and FLAC never past the frames its
// decoder allows (8 per input byte), so an absurd header cannot allocate more.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    do {
        let decoder: any AudioDecoder
        #if FUZZ_OGG
        decoder = try VorbisDecoder(data, name: "fuzz.ogg")
        #elseif FUZZ_FLAC
        decoder = try FLACDecoder(data, name: "fuzz.flac")
        #elseif FUZZ_OPUS
        decoder = try OpusDecoder(data, name: "fuzz.opus")
        #elseif FUZZ_MP3
        decoder = try MP3Decoder(data, name: "fuzz.mp3")
        #else
        let layout = try data.withUnsafeBytes { raw -> ContainerLayout in
            let view = ByteView(raw)
            #if FUZZ_WAV
            return try ContainerLayout.parseWAV(view, name: "fuzz.wav")
            #elseif FUZZ_AIFF
            return try ContainerLayout.parseAIFF(view, name: "fuzz.aiff")
            #else
            return try ContainerLayout.parseCAF(view, name: "fuzz.caf")
            #endif
        }
        decoder = try PCMDecoder(data, layout: layout, name: "fuzz", keepNative: count % 2 == 0)
        #endif
        var total = 0
        while true {
            let chunk = try decoder.read(maxFrames: 4_096)
            if chunk.isEmpty { break }
            total += chunk.count
        }
        #if FUZZ_FLAC
        precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock && decoder.frameCount <= 8 * count,
                     "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        #elseif FUZZ_OPUS || FUZZ_MP3
        precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock + 4 * 8 * 5_760,
                     "decoded \(total) bytes for \(decoder.frameCount) frames")
        #elseif !FUZZ_OGG
        precondition(total <= 8 * count + 64, "decoded \(total) bytes from \(count)")
        precondition(total == decoder.frameCount * decoder.outputFormat.bytesPerBlock / decoder.outputFormat.framesPerBlock
                     || decoder.outputFormat.framesPerBlock > 1, "frame count \(decoder.frameCount) but \(total) bytes")
        #endif
        for frame in [decoder.frameCount / 2, 0, decoder.frameCount] {
            if (try? decoder.seek(toFrame: frame)) != nil { _ = try decoder.read(maxFrames: 64) }
        }
        _ = SoundFile.self
    } catch let error as SoundStageError {
        precondition(error.code == .decodingFailed || error.code == .invalidArgument, "unexpected \(error)")
        precondition(error.description.contains("fuzz"), "the error does not name the input: \(error)")
    } catch {
        preconditionFailure("untyped error \(error)")
    }
    return 0
}
