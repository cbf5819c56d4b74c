import Foundation
import Testing
import SoundStageTestSupport

/// Every Swift code block of README.md, the DocC articles and the public API's doc comments
/// compiles against the public API as written (the build compiles the `DocSamples` target,
/// which holds them); DocSamplesRunTests runs them on the sound server.
@Suite("Documentation samples: every Swift block compiles as written")
struct DocSamplesTests {
    @Test("the DocSamples target holds every Swift block of the README, the articles and the public doc comments, as they are now")
    func samplesMatchTheDocuments() throws {
        let documents = try DocSampleExtractor.documents()
        var expected: [String: String] = [:]
        for document in documents { expected[document.fileName] = DocSampleExtractor.generated(document) }
        expected["AllSamples.swift"] = DocSampleExtractor.table(documents)
        let folder = DocSampleExtractor.samplesFolder
        if ProcessInfo.processInfo.environment["SOUNDSTAGE_WRITE_SAMPLES"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where expected[name] == nil {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
            for (name, text) in expected { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        }
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        let stale = expected.keys.filter { name in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) != expected[name]
        }.sorted()
        #expect(stale.isEmpty && present == Set(expected.keys),
                "Tests/DocSamples/Samples is not what the documents hold now (\(stale + present.subtracting(expected.keys).sorted())): run `SOUNDSTAGE_WRITE_SAMPLES=1 scripts/test.sh --filter DocSamplesTests`, then build")
        let count = documents.map(\.blocks.count).reduce(0, +)
        #expect(count >= 50, "\(count) blocks found")
        print("doc samples: \(count) Swift blocks in \(documents.count) documents")
    }
}
