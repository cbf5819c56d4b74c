import Foundation

/// The repository the tests run in, found from this file's place in it
/// (Tests/SoundStageTestSupport/Repository.swift).
package enum Repository {
    /// The top of the repository.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A path from the top of the repository.
    package static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
}
