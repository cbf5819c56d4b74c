import ArgumentParser
import Foundation
import SoundStage

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe sound files: container, encoding, channels, sample rate, frames, duration.",
        discussion: """
        Reads WAV, AIFF/AIFC, CAF, Ogg Vorbis, Ogg Opus, FLAC and MP3, decoding each file whole to check it: a file that \
        does not decode whole (damaged data skipped, data that ends before the length it states) is said to, with where \
        and why. With --json, prints one JSON object per file, one per line.
        """)

    @Argument(help: "The sound files.")
    var files: [String]

    @Flag(help: "Print JSON objects with the keys path, container, encoding, channels, sampleRate, frames, duration, and damage (null for a file that decodes whole).")
    var json = false

    func run() throws {
        for path in files {
            let sound: SoundFile
            do { sound = try SoundFile.decode(contentsOf: URL(fileURLWithPath: path)) } catch { fail("\(error)") }
            if json {
                let object: [String: Any] = [
                    "path": path, "container": sound.container.rawValue, "encoding": sound.encoding,
                    "channels": sound.channels.channelCount, "sampleRate": sound.sampleRate,
                    "frames": sound.frameCount, "duration": sound.duration,
                    "damage": sound.damage.map(Self.json) ?? NSNull(),
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("\(path): \(sound.container.rawValue), \(sound.encoding), \(sound.channels.channelCount) channel\(sound.channels.channelCount == 1 ? "" : "s") (\(sound.channels.rawValue)), "
                      + "\(sound.sampleRate) Hz, \(sound.frameCount) frames, \(String(format: "%.3f", sound.duration)) s")
                if let damage = sound.damage { print("  did not decode whole: \(damage)") }
            }
        }
    }

    /// A damage report as JSON: framesStated, framesDelivered and the spans (kind, frame,
    /// framesLost or null, reason).
    static func json(_ damage: DecodeDamage) -> [String: Any] {
        ["framesStated": damage.framesStated, "framesDelivered": damage.framesDelivered,
         "spans": damage.spans.map { span -> [String: Any] in
             ["kind": span.kind.rawValue, "frame": span.frame, "framesLost": span.framesLost ?? NSNull(), "reason": span.reason]
         }]
    }
}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a sound file (WAV, AIFF/AIFC, CAF, Ogg Vorbis or Opus, FLAC or MP3) to a WAV, CAF or Ogg Vorbis file, by the output's extension.")

    @Argument(help: "The file to read.")
    var input: String

    @OptionGroup var wav: WAVOutput

    func run() throws {
        wav.checkName()
        do {
            let sound = try SoundFile.decode(contentsOf: URL(fileURLWithPath: input))
            guard let layout = ChannelLayout.outputLayouts.first(where: { $0.channelCount == sound.channels.channelCount }) else {
                fail("\(input): \(sound.channels.channelCount) channels cannot be written")
            }
            let samples = sound.floatSamples()
            let audio = RenderedAudio(format: RenderFormat(sampleRate: sound.sampleRate, channels: layout, sampleType: .float32),
                                      samples: samples)
            wav.write(audio)
            print("\(wav.output): \(sound.frameCount) frames, \(sound.sampleRate) Hz, \(sound.channels.channelCount) channels, \(wav.written)")
            if let damage = sound.damage {
                FileHandle.standardError.write(Data("soundstage: warning: \(input) did not decode whole: \(damage)\n".utf8))
            }
        } catch {
            fail("\(error)")
        }
    }
}
