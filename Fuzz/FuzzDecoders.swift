// The decoder targets: each input is opened as a game's file would be
// (`SoundFile.decoder(_:name:keepNative:)`), every frame is read, a few seeks are made, and
// the decoded size is checked against the input size: a PCM container may grow at most 8x
// (4-bit ADPCM or 8-bit samples to 16 or 32 bits), and FLAC never past the frames its decoder
// allows (8 per input byte), so an absurd header cannot allocate more.
import Foundation
import SoundStage

func fuzzDecoder(_ target: FuzzTarget, _ data: Data) {
    let count = data.count
    do {
        // The public entry point a game's file takes: the bytes say what they are (a mutated
        // FLAC may come out as MP3), so the limits are the decoder's, not the target's.
        let decoder = try SoundFile.decoder(data, name: "fuzz.\(target.rawValue)", keepNative: count % 2 == 0)
        var total = 0
        while true {
            let chunk = try decoder.read(maxFrames: 4_096)
            if chunk.isEmpty { break }
            total += chunk.count
        }
        switch decoder.container {
        case .flac:
            precondition(total <= decoder.frameCount * decoder.outputFormat.bytesPerBlock && decoder.frameCount <= 8 * count,
                         "decoded \(total) bytes, \(decoder.frameCount) frames, from \(count)")
        case .ogg where decoder.encoding == "opus", .mp3:
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
