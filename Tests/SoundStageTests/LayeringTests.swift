import Foundation
import Testing
import SoundStageTestSupport

/// The library's layers: each may use only the ones before it. Between modules the compiler
/// holds this (a module sees only the modules it depends on); inside the module of several
/// layers (SoundStageCore) this test does: a file naming a type declared in a later layer
/// breaks the layering.
@Suite("Layering: each layer of the library uses only the layers before it")
struct LayeringTests {
    /// The layers, lowest first, and their folders.
    static let layers = Repository.layers

    /// The Swift files of a layer's folder, with their code (comments and string literals removed).
    static func files(of folder: String) throws -> [(name: String, code: String)] {
        let url = Repository.url(folder)
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                var line = String(line)
                if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
                return line.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
            }.joined(separator: "\n")
            return (file.path.replacingOccurrences(of: Repository.root.path + "/", with: ""), code)
        }
    }

    /// Types declared at the top level of a file (no indentation).
    static func declaredTypes(in code: String) -> [String] {
        let pattern = #"(?m)^(?:public |package |internal |fileprivate |private |final |@\w+(?:\([^)]*\))? )*(?:class|struct|enum|protocol|typealias|actor) (\w+)"#
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: code, range: NSRange(code.startIndex..., in: code)).compactMap {
            Range($0.range(at: 1), in: code).map { String(code[$0]) }
        }
    }

    @Test("every folder of the library's modules is a layer, and none names a type of a layer above it")
    func layering() throws {
        // The module of several layers holds exactly its layers' folders.
        for module in ["SoundStageCore"] {
            let folders = try FileManager.default.contentsOfDirectory(atPath: Repository.url("Sources/\(module)").path).filter { !$0.hasPrefix(".") }
            let expected = Self.layers.filter { $0.folder.hasPrefix("Sources/\(module)/") }.map { ($0.folder as NSString).lastPathComponent }
            #expect(Set(folders) == Set(expected), "Sources/\(module) holds \(folders.sorted()), not the layers \(expected)")
        }
        // The umbrella holds no code but its re-exports.
        let umbrella = try FileManager.default.contentsOfDirectory(atPath: Repository.url("Sources/SoundStage").path).filter { !$0.hasPrefix(".") }
        #expect(Set(umbrella) == ["SoundStage.swift", "SoundStage.docc"], "Sources/SoundStage holds \(umbrella.sorted())")
        // ... and re-exports every module of the library, the ones the tests and docs know.
        let reexported = try String(contentsOf: Repository.url("Sources/SoundStage/SoundStage.swift"), encoding: .utf8)
            .split(separator: "\n").compactMap { $0.hasPrefix("@_exported import ") ? String($0.dropFirst("@_exported import ".count)) : nil }
        #expect(reexported == Repository.modules, "SoundStage re-exports \(reexported), the tests know \(Repository.modules)")
        let files = try Self.layers.map { try Self.files(of: $0.folder) }
        var problems: [String] = []
        for (lower, layer) in Self.layers.enumerated() {
            let above = files[(lower + 1)...].flatMap { $0 }.flatMap { Self.declaredTypes(in: $0.code) }
            for file in files[lower] {
                for type in Set(above) where file.code.range(of: "\\b\(type)\\b", options: .regularExpression) != nil {
                    problems.append("\(file.name) (\(layer.name)) names \(type), declared above it")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.sorted().joined(separator: "\n"))")
        #expect(files.flatMap { $0 }.count > 60, "found \(files.flatMap { $0 }.count) files in the layers' folders")
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
                    // A layer's folder (Engine/Voices: Sources/SoundStageEngine/Voices), or the tool's.
                    let parts = folder.split(separator: "/", maxSplits: 1).map(String.init)
                    let places = Self.layers.filter { $0.name == parts[0] }.map { $0.folder + (parts.count > 1 ? "/" + parts[1] : "") } + ["Sources/\(folder)"]
                    let mirrored = places.contains { FileManager.default.fileExists(atPath: Repository.url($0).path) }
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
