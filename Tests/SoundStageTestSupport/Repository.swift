import Foundation

/// The repository the tests run in, found from this file's place in it
/// (Tests/SoundStageTestSupport/Repository.swift).
package enum Repository {
    /// The top of the repository.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A path from the top of the repository.
    package static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// The library's layers, lowest first, each with the folder that holds it: a module of
    /// its own (`Sources/SoundStageEngine`) or a folder of one that holds several
    /// (`Sources/SoundStageCore/Device`). ARCHITECTURE.md explains them.
    package static let layers: [(name: String, folder: String)] = [
        ("Errors", "Sources/SoundStageCore/Errors"),
        ("Internals", "Sources/SoundStageCore/Internals"),
        ("Device", "Sources/SoundStageCore/Device"),
        ("Properties", "Sources/SoundStageCore/Properties"),
        ("Effects", "Sources/SoundStageCore/Effects"),
        ("Decoding", "Sources/SoundStageCore/Decoding"),
        ("Signal", "Sources/SoundStageCore/Signal"),
        ("Objects", "Sources/SoundStageCore/Objects"),
        ("Session", "Sources/SoundStageSession"),
        ("Recording", "Sources/SoundStageRecording"),
        ("Engine", "Sources/SoundStageEngine"),
        ("Scene", "Sources/SoundStageScenes"),
    ]

    /// The library's modules, lowest first; `SoundStage` re-exports them all.
    package static let modules = ["SoundStageCore", "SoundStageSession", "SoundStageRecording", "SoundStageEngine", "SoundStageScenes"]
}
