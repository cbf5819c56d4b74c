import Foundation
import Testing
import SoundStageTestSupport

/// The library's folders are layers: each may use only the ones before it. A file naming a
/// type declared in a later layer breaks the layering.
@Suite("Layering: each folder of the library uses only the folders before it")
struct LayeringTests {
    /// The layers, lowest first (ARCHITECTURE.md explains them).
    static let layers = ["Errors", "Internals", "Device", "Properties", "Effects", "Decoding", "Signal", "Objects", "Session", "Recording", "Engine", "Scene"]

    static let sources = Repository.url("Sources/SoundStage")

    /// The Swift files of a layer's folder, with their code (comments and string literals removed).
    static func files(of layer: String) throws -> [(name: String, code: String)] {
        let folder = sources.appendingPathComponent(layer)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            let text = try String(contentsOf: url, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var line = String(line)
                if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
                return line.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
            }.joined(separator: "\n")
            return (url.path.replacingOccurrences(of: sources.path + "/", with: ""), code)
        }
    }

    /// Types declared at the top level of a file (no indentation).
    static func declaredTypes(in code: String) -> [String] {
        let pattern = #"(?m)^(?:public |internal |fileprivate |private |final |@\w+(?:\([^)]*\))? )*(?:class|struct|enum|protocol|typealias|actor) (\w+)"#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap {
            Range($0.range(at: 1), in: code).map { String(code[$0]) }
        }
    }

    @Test("every folder of Sources/SoundStage is a layer, and none names a type of a layer above it")
    func layering() throws {
        // The documentation catalog (SoundStage.docc) holds articles, not code.
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".docc") }
        #expect(Set(folders) == Set(Self.layers), "folders \(folders.sorted()) differ from the layers \(Self.layers)")
        let files = try Self.layers.map { try Self.files(of: $0) }
        var problems: [String] = []
        for (lower, layer) in Self.layers.enumerated() {
            let above = files[(lower + 1)...].flatMap { $0 }.flatMap { Self.declaredTypes(in: $0.code) }
            for file in files[lower] {
                for type in Set(above) where file.code.range(of: "\\b\(type)\\b", options: .regularExpression) != nil {
                    problems.append("\(file.name) (\(layer)) names \(type), declared above it")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.sorted().joined(separator: "\n"))")
        #expect(files.flatMap { $0 }.count > 60, "found \(files.flatMap { $0 }.count) files under \(Self.sources.path)")
    }

    @Test("the test folders mirror Sources: each names a folder of the library or the tool, and each file a thing tested")
    func testsMirrorSources() throws {
        var problems: [String] = []
        for target in ["SoundStageTests", "SoundStageLiveTests"] {
            let root = Repository.url("Tests/\(target)")
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let relative = url.path.replacingOccurrences(of: root.path + "/", with: "")
                let folder = (relative as NSString).deletingLastPathComponent
                let name = url.deletingPathExtension().lastPathComponent
                if folder.hasPrefix("Support") || folder.hasPrefix("Fixtures") { continue }
                // The package as a whole (layering, documentation samples) sits at the top.
                if !folder.isEmpty {
                    let mirrored = ["Sources/SoundStage/\(folder)", "Sources/\(folder)"].contains {
                        FileManager.default.fileExists(atPath: Repository.url($0).path)
                    }
                    if !mirrored { problems.append("\(target)/\(relative): no Sources folder \(folder)") }
                }
                if !name.split(separator: "+")[0].hasSuffix("Tests") || name.contains("Review") {
                    problems.append("\(target)/\(relative): not named after what it tests (Thing Tests[+Concern])")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.sorted().joined(separator: "\n"))")
    }
}
