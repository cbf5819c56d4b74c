import Foundation

/// A temporary folder that goes away with the test.
package final class TemporaryFolder {
    package let url = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    package init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
