import ArgumentParser
import Foundation
import SoundStage

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record from a capture device to a WAV, CAF or Ogg Vorbis file, with a live level meter.",
        discussion: "Records until --duration has passed, or until Ctrl-C (SIGINT) or SIGTERM, then completes the file and prints a summary. The file is valid at every moment while it grows.")

    @Argument(help: "The file to write: .wav, .caf or .ogg.")
    var output: String

    @Option(help: "Seconds to record; until Ctrl-C if omitted.")
    var duration: Double?

    @Option(help: "The capture device (see `soundstage devices`); the default device if omitted.")
    var device: String?

    @Option(help: "Sample rate in Hz.")
    var rate: Int = 48_000

    @Option(help: "1 (mono) or 2 (stereo).")
    var channels: Int = 1

    @Option(help: "WAV and CAF: 16, 24 or 32 (float).")
    var bits: Int = 16

    @Option(help: "Ogg Vorbis quality, -0.1...1.")
    var quality: Float = 0.5

    func run() throws {
        let url = URL(fileURLWithPath: output)
        let settings = RecorderSettings(sampleRate: rate, channels: channels, bitDepth: bits, quality: quality, deviceName: device)
        // Watched from the start: Ctrl-C while the device starts still ends cleanly.
        let stop = Stopper()
        for signal in [SIGINT, SIGTERM, SIGHUP] { stop.watch(signal) }
        let recorder: Recorder
        let failures = Failures()
        do {
            try AudioSession.shared.setCategory(.record)
            recorder = try Recorder(url: url, settings: settings)
            recorder.delegate = failures
            recorder.isMeteringEnabled = true
            try recorder.prepareToRecord()
            if let duration { try recorder.record(forDuration: duration) } else { try recorder.record() }
        } catch {
            fail("\(error)")
        }
        let live = isatty(STDOUT_FILENO) != 0
        // The time recorded, as last seen: a recorder that failed reads 0.
        var seconds = 0.0
        while recorder.isRecording, !stop.asked {
            Thread.sleep(forTimeInterval: 0.1)
            seconds = max(seconds, recorder.currentTime)
            recorder.updateMeters()
            let levels = (0..<channels).map { recorder.averagePower(forChannel: $0) }
            if live {
                let bars = levels.map { Self.bar($0) }.joined(separator: " ")
                let line = String(format: "\r\u{1B}[K● REC %6.1f s  %@  %6.1f dBFS", recorder.currentTime, bars, levels.max() ?? -160)
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }
        seconds = max(seconds, recorder.currentTime)
        recorder.stop()
        if live { print("\r\u{1B}[K", terminator: "") }
        // The recorder's own error first: it says why the recording ended; then what was written.
        let failure = failures.first
        if let failure { FileHandle.standardError.write(Data("soundstage: the recording ended early: \(failure)\n".utf8)) }
        summarize(url, seconds: seconds)
        if failure != nil { Foundation.exit(1) }
    }

    /// A 24-character bar for a level from -60 to 0 dBFS.
    static func bar(_ dB: Float) -> String {
        let filled = max(0, min(24, Int(((dB + 60) / 60 * 24).rounded())))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "]"
    }

    /// One line about the file as written, read back through SoundStage's decoders.
    func summarize(_ url: URL, seconds: Double) {
        do {
            let file = try SoundFile.decode(contentsOf: url)
            let levels = RenderedAudio(format: RenderFormat(sampleRate: file.sampleRate, channels: file.channels), samples: file.floatSamples()).levels()
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            let rms = levels.map { String(format: "%.1f", $0.rms) }.joined(separator: "/")
            let peaks = levels.map { String(format: "%.1f", $0.peak) }.joined(separator: "/")
            print(String(format: "%@: %.2f s, %d Hz %@, %@ (%@), %d bytes; RMS %@ dBFS, peak %@ dBFS",
                         url.path, file.duration, file.sampleRate, file.channels.rawValue, file.container.rawValue, file.encoding, size, rms, peaks))
        } catch {
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            fail("\(url.path): \(size) bytes written of \(String(format: "%.2f", seconds)) s recorded, and they do not read back as audio: \(error)")
        }
    }
}

/// What went wrong while recording, as the recorder's delegate tells it.
private final class Failures: RecorderDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [SoundStageError] = []
    var first: SoundStageError? { lock.withLock { errors.first } }
    func recorderEncodeErrorDidOccur(_ recorder: Recorder, error: SoundStageError) { lock.withLock { errors.append(error) } }
    func recorderDeviceWasLost(_ recorder: Recorder, error: SoundStageError) { lock.withLock { errors.append(error) } }
}
