import ArgumentParser
import Foundation
import SoundStage

/// The options of the commands that write a sound file (`render`, `convert`): WAV, CAF or Ogg
/// Vorbis, by the file's extension.
struct WAVOutput: ParsableArguments {
    @Option(name: .shortAndLong, help: "The file to write: .wav, .caf or .ogg (Ogg Vorbis).")
    var output: String

    @Option(help: "Sample format of a WAV or CAF file: pcm16 or float32.")
    var format: String = "pcm16"

    @Option(help: "Quality of an Ogg Vorbis file, -0.1...1.")
    var quality: Float = 0.5

    /// The sample format asked for; exits with a message for an unknown one.
    var sampleFormat: WAVSampleFormat {
        guard let sampleFormat = WAVSampleFormat(rawValue: format) else { fail("--format must be pcm16 or float32, got \(format)") }
        return sampleFormat
    }

    /// The container the output's name asks for; exits with a message for a name that names
    /// none (`/dev/null` and other non-files are written as WAV).
    func checkName() {
        _ = sampleFormat
        let url = URL(fileURLWithPath: output)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.resolvingSymlinksInPath().path, isDirectory: &isDirectory)
        if exists, isDirectory.boolValue { fail("\(output) is a directory") }
        let special = exists && (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == false
        guard special || RecordingContainer(pathExtension: url.pathExtension) != nil else {
            fail("cannot tell the format from the name \(url.lastPathComponent): name it .wav, .caf or .ogg (Ogg Vorbis)")
        }
        if RecordingContainer(pathExtension: url.pathExtension) == .oggVorbis, !(quality.isFinite && (-0.1...1).contains(quality)) {
            fail("--quality must be in -0.1...1, got \(quality)")
        }
    }

    /// A line about the format written, e.g. `pcm16` or `Ogg Vorbis q0.5`.
    var written: String {
        RecordingContainer(pathExtension: URL(fileURLWithPath: output).pathExtension) == .oggVorbis
            ? "Ogg Vorbis q\(quality)" : sampleFormat.rawValue
    }

    /// Starts the file for audio of `format`, to be written a block at a time; exits with the
    /// error's message when it cannot.
    func open(_ format: RenderFormat) -> AudioFileOutput {
        do {
            return try AudioFileOutput(url: URL(fileURLWithPath: output), format: format, bitDepth: sampleFormat == .pcm16 ? 16 : 32, quality: quality)
        } catch {
            fail("\(error)")
        }
    }

    /// Writes `audio`; exits with the error's message when it cannot.
    func write(_ audio: RenderedAudio) {
        do {
            try audio.write(to: URL(fileURLWithPath: output), bitDepth: sampleFormat == .pcm16 ? 16 : 32, quality: quality)
        } catch {
            fail("\(error)")
        }
    }
}
