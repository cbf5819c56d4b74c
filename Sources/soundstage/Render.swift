import ArgumentParser
import Foundation
import SoundStage

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a JSON scene offline to a WAV, CAF or Ogg Vorbis file (and a picture), faster than real time.",
        discussion: "The scene format is described in docs/scene-format.md; examples are in assets/scenes.")

    @Argument(help: "The scene file (JSON).")
    var scene: String

    @OptionGroup var wav: WAVOutput

    @Option(help: "Also draw the scene and its levels to this SVG file.")
    var plot: String?

    @Flag(help: "Read sound files outside the scene's folder without a warning.")
    var allowOutside = false

    @Flag(help: "Refuse a scene that names a sound file outside its folder, unless it says \"allowOutside\": true.")
    var insideOnly = false

    func run() throws {
        wav.checkName()   // a bad name or --format fails before the render, not after
        let description: SceneDescription
        do {
            description = try SceneDescription.load(contentsOf: URL(fileURLWithPath: scene), refusingFilesOutside: insideOnly && !allowOutside)
        } catch {
            fail("\(error)")
        }
        if !allowOutside, !description.allowsFilesOutside {
            for outside in description.filesOutsideFolder {
                warn("\(outside) (--allow-outside reads it without this warning, --inside-only refuses it)")
            }
        }
        let progress = ProgressBar(enabled: isatty(STDERR_FILENO) != 0 && description.duration > 1)
        let started = Date()
        // Written and measured as it is made: the render is never held whole, whatever its length.
        let file = wav.open(RenderFormat(sampleRate: description.sampleRate, channels: description.channels, sampleType: .float32))
        var levels = plot == nil ? LevelGraph(channels: description.channels, windowFrames: 0)
            : ScenePlot.levelGraph(channels: description.channels, sampleRate: description.sampleRate)
        let render: SceneRender
        do {
            render = try SceneRenderer(scene: description).renderStreaming(progress: { progress.update($0) }) { piece in
                try file.append(piece)
                levels.add(piece)
            }
            try file.finish()
        } catch let error as SoundStageError where error.code == .fileAccess {
            progress.finish()
            file.cancel()
            fail("\(error)")
        } catch {
            progress.finish()
            file.cancel()
            fail("\(scene): \(error)")
        }
        progress.finish()
        for warning in render.warnings { warn("\(warning)") }
        let elapsed = Date().timeIntervalSince(started)
        do {
            if let plot {
                try ScenePlot.writeSVG(scene: description, levels: levels, sampleRate: description.sampleRate, realFractions: render.realFractions,
                                       to: URL(fileURLWithPath: plot))
            }
        } catch {
            fail("\(error)")
        }
        let names = ScenePlot.channelNames(description.channels)
        let levelText = levels.levels.enumerated().map { c, level in
            "\(names[c]) peak \(String(format: "%.1f", level.peak)) RMS \(String(format: "%.1f", level.rms))"
        }.joined(separator: ", ")
        print("\(wav.output): \(String(format: "%.2f", description.duration)) s, \(description.sampleRate) Hz \(description.channels.rawValue), "
              + "rendered in \(String(format: "%.2f", elapsed)) s (\(String(format: "%.0f", description.duration / max(elapsed, 1e-6)))x real time); dBFS: \(levelText)")
        let last = render.voiceCounts.last
        print("voices: \(description.sources.count) sources, up to \(render.peakReal) real and \(render.peakVirtual) virtual at once; "
              + "\(last?.stolen ?? 0) stolen, \(last?.refused ?? 0) refused")
    }
}

/// A progress bar on stderr, drawn only on a terminal.
final class ProgressBar {
    let enabled: Bool
    var last = -1

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int(fraction * 100)
        guard percent != last else { return }
        last = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }

    func finish() {
        if enabled && last >= 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
