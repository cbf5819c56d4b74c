import Foundation

/// A temporary folder that goes away with the test.
final class TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
