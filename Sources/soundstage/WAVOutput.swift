import ArgumentParser
import Foundation
import SoundStage

/// The options of the commands that write a WAV file (`render`, `convert`).
struct WAVOutput: ParsableArguments {
    @Option(name: .shortAndLong, help: "The WAV file to write.")
    var output: String

    @Option(help: "Sample format of the WAV file: pcm16 or float32.")
    var format: String = "pcm16"

    /// The sample format asked for; exits with a message for an unknown one.
    var sampleFormat: WAVSampleFormat {
        guard let sampleFormat = WAVSampleFormat(rawValue: format) else { fail("--format must be pcm16 or float32, got \(format)") }
        return sampleFormat
    }

    /// Writes `audio`; exits with the error's message when it cannot.
    func write(_ audio: RenderedAudio) {
        do { try audio.writeWAV(to: URL(fileURLWithPath: output), as: sampleFormat) } catch { fail("\(error)") }
    }
}
