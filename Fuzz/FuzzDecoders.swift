// The decoder targets: each input is parsed, every frame is read, a few seeks are made, and
// the decoded size is checked against the input size: a PCM container may grow at most 8x
// (4-bit ADPCM or 8-bit samples to 16 or 32 bits), and FLAC never past the frames its decoder
// allows (8 per input byte), so an absurd header cannot allocate more.
import Foundation

func fuzzDecoder(_ target: FuzzTarget, _ data: Data) {
    let count = data.count
    do {
        let decoder: any AudioDecoder
        switch target {
        case .ogg: decoder = try VorbisDecoder(data, name: "fuzz.ogg")
        case .flac: decoder = try FLACDecoder(data, name: "fuzz.flac")
        case .opus: decoder = try OpusDecoder(data, name: "fuzz.opus")
        case .mp3: decoder = try MP3Decoder(data, name: "fuzz.mp3")
        default:
            let layout = try data.withUnsafeBytes { raw -> ContainerLayout in
                let view = ByteView(raw)
                switch target {
                case .wav: return try ContainerLayout.parseWAV(view, name: "fuzz.wav")
                case .aiff: return try ContainerLayout.parseAIFF(view, name: "fuzz.aiff")
                default: return try ContainerLayout.parseCAF(view, name: "fuzz.caf")
                }
            }
            decoder = try PCMDecoder(data, layout: layout, name: "fuzz", keepNative: count % 2 == 0)
        }
        var total = 0
        while true {
            let chunk = try decoder.read(maxFrames: 4_096)
            if chunk.isEmpty { break }
            total += chunk.count
        }
        switch target {
        case .flac:
            precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock && decoder.frameCount <= 8 * count,
                         "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        case .opus, .mp3:
            precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock + 4 * 8 * 5_760,
                         "decoded \(total) bytes for \(decoder.frameCount) frames")
        case .ogg: break
        default:
            precondition(total <= 8 * count + 64, "decoded \(total) bytes from \(count)")
            precondition(total == decoder.frameCount * decoder.outputFormat.bytesPerBlock / decoder.outputFormat.framesPerBlock
                         || decoder.outputFormat.framesPerBlock > 1, "frame count \(decoder.frameCount) but \(total) bytes")
        }
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
