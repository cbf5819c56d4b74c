import Foundation

/// The repository's assets folder: the drum sounds and the example scenes.
enum Assets {
    /// `assets/` at the top of the repository (this file is Tests/SoundStageTests/Support/Assets.swift).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("assets")
    /// `assets/drums`: snare, bass, tambourine and maraca WAV files.
    static var drums: URL { folder.appendingPathComponent("drums") }
    /// `assets/music/loop.ogg`: drumdub's background music, 8 s stereo at 48 kHz.
    static var music: URL { folder.appendingPathComponent("music/loop.ogg") }
    /// `assets/scenes`: the example scene JSON files.
    static var scenes: URL { folder.appendingPathComponent("scenes") }
}
