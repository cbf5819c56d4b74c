import Foundation
import SoundStage

/// Where the game's sounds are: the four drums (`drums/`) and the music loop
/// (`music/loop.ogg`) of the package's `assets` folder.
struct Assets {
    let drums: URL
    let music: URL

    func drum(_ name: String) -> URL { drums.appendingPathComponent("\(name).wav") }

    /// The folder given (`--assets DIR`: the assets folder, or its `drums` folder), or
    /// `assets` found from the working directory or the executable's location upwards.
    static func find(_ given: String?) throws -> Assets {
        var candidates: [URL] = []
        if let given {
            let folder = URL(fileURLWithPath: given)
            // The drums folder itself (what --assets meant before the music came).
            candidates = [folder.appendingPathComponent(".."), folder]
        } else {
            candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
            var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<6 { candidates.append(dir); dir = dir.deletingLastPathComponent() }
            candidates = candidates.map { $0.appendingPathComponent("assets") }
        }
        for base in candidates {
            let assets = Assets(drums: base.appendingPathComponent("drums"), music: base.appendingPathComponent("music/loop.ogg"))
            let names = Room.drums.map { assets.drum($0.name).path } + [assets.music.path]
            if names.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) { return assets }
        }
        throw SoundStageError(.fileAccess, operation: "drumdub", object: given ?? "assets",
                              reason: "the drum sounds (drums/*.wav) and the music (music/loop.ogg) were not found there; run from the package folder or pass --assets DIR")
    }
}
