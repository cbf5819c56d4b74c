import Foundation

/// The repository's assets folder: the drum sounds and the example scenes.
package enum Assets {
    /// `assets/` at the top of the repository.
    package static let folder = Repository.url("assets")
    /// `assets/drums`: snare, bass, tambourine and maraca WAV files.
    package static var drums: URL { folder.appendingPathComponent("drums") }
    /// `assets/music/loop.ogg`: drumdub's background music, 8 s stereo at 48 kHz.
    package static var music: URL { folder.appendingPathComponent("music/loop.ogg") }
    /// `assets/scenes`: the example scene JSON files.
    package static var scenes: URL { folder.appendingPathComponent("scenes") }
}
