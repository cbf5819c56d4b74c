import Foundation

/// The committed fixtures in Tests/SoundStageTests/Fixtures: the Apple IMA4 files (see
/// Fixtures/make-ima4.py: libsndfile writes them and its decoding is the reference; sox cannot
/// write IMA4 in AIFC or CAF) and the fuzzers' crash inputs (Fixtures/fuzz).
package enum Fixtures {
    package static let folder = Repository.url("Tests/SoundStageTests/Fixtures")
    package static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
    package static func int16(_ name: String) throws -> [Int16] {
        try Data(contentsOf: url(name)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
