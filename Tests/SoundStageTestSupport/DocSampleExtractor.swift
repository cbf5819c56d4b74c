import Foundation

/// Every Swift code block a user reads: in README.md, in the DocC catalog's articles, and in
/// the doc comments of public declarations. `DocSamplesTests` writes them, as written, into
/// the `DocSamples` executable (Tests/DocSamples/Samples), so the build compiles each one
/// against the public API only, and runs them.
package enum DocSampleExtractor {
    /// One code block: where it is, and its lines.
    package struct Block: Equatable {
        /// The file it is in, from the top of the repository.
        package var file: String
        /// The line of its opening fence, from 1.
        package var line: Int
        package var code: [String]
    }

    /// The blocks of one document, compiled as one namespace (`<name>Samples`).
    package struct Document {
        package var name: String
        package var blocks: [Block]
        package var namespace: String { "\(name)Samples" }
        /// The generated file, `Tests/DocSamples/Samples/<name>.swift`.
        package var fileName: String { "\(name).swift" }
    }

    /// The repository.
    package static let root = Repository.root
    /// Where the generated files go.
    package static let samplesFolder = root.appendingPathComponent("Tests/DocSamples/Samples")
    package static let catalog = "Sources/SoundStage/SoundStage.docc"

    /// README.md, each article of the catalog, and the public API's doc comments (one
    /// document, `APIDocs`), in a fixed order.
    package static func documents() throws -> [Document] {
        var documents = [Document(name: "README", blocks: try markdownBlocks("README.md"))]
        let articles = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted()
        for article in articles {
            let blocks = try markdownBlocks("\(catalog)/\(article)")
            if !blocks.isEmpty { documents.append(Document(name: String(article.dropLast(3)), blocks: blocks)) }
        }
        var api: [Block] = []
        for module in Repository.modules {
            let sources = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for file in files { api += try docCommentBlocks("Sources/\(module)/\(file)") }
        }
        documents.append(Document(name: "APIDocs", blocks: api))
        return documents
    }

    /// The ```swift blocks of a Markdown file.
    package static func markdownBlocks(_ file: String) throws -> [Block] {
        let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var open: (line: Int, indent: Int, code: [String])?
        for (i, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    blocks.append(Block(file: file, line: block.line, code: block.code))
                    open = nil
                } else {
                    block.code.append(String(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count))))
                    open = block
                }
            } else if trimmed == "```swift" {
                open = (i + 1, line.prefix { $0 == " " }.count, [])
            }
        }
        // A package manifest is not a program: `swift package` reads it.
        return blocks.filter { $0.code.first?.hasPrefix("// swift-tools-version") != true }
    }

    /// The ```swift blocks of the doc comments in a Swift file, of public declarations only
    /// (an internal type's comments are not in the catalog, and name what users cannot).
    package static func docCommentBlocks(_ file: String) throws -> [Block] {
        let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var i = 0
        while i < lines.count {
            guard lines[i].trimmingCharacters(in: .whitespaces) == "/// ```swift" else { i += 1; continue }
            let start = i + 1
            var code: [String] = []
            i += 1
            while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces) != "/// ```" {
                let text = lines[i].trimmingCharacters(in: .whitespaces)
                code.append(text.hasPrefix("/// ") ? String(text.dropFirst(4)) : String(text.dropFirst(3)))
                i += 1
            }
            // The declaration the comment documents: the first line after it that is not
            // more comment or an attribute.
            func isCommentOrAttribute(_ k: Int) -> Bool {
                let text = lines[k].trimmingCharacters(in: .whitespaces)
                return text.hasPrefix("///") || text.hasPrefix("@")
            }
            var j = i + 1
            while j < lines.count, isCommentOrAttribute(j) { j += 1 }
            if j < lines.count, lines[j].contains("public ") || lines[j].contains("open ") {
                blocks.append(Block(file: file, line: start, code: code))
            }
            i += 1
        }
        return blocks
    }

    /// The function name of a block in its namespace: `line39`, or for a doc comment
    /// `updateBatch12` (the file's name and the line).
    package static func functionName(_ block: Block, in document: Document) -> String {
        guard document.name == "APIDocs" else { return "line\(block.line)" }
        let stem = URL(fileURLWithPath: block.file).deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber }
        return stem.prefix(1).lowercased() + stem.dropFirst() + "\(block.line)"
    }

    /// The generated Swift file of a document: each block, as written, the body of an async
    /// throwing function (so `try` and `await` need nothing around them); its imports at
    /// the top; the names it takes as given come from Tests/DocSamples/Given.
    package static func generated(_ document: Document) -> String {
        var imports: Set<String> = ["Foundation", "SoundStage"]
        var out = """
        // Generated by DocSamplesTests from \(document.name == "APIDocs" ? "the doc comments of the library's modules" : document.blocks[0].file): every Swift
        // code block, as written, so that the build compiles it. Do not edit: change the
        // document, then run `SOUNDSTAGE_WRITE_SAMPLES=1 scripts/test.sh --filter DocSamplesTests`.

        """
        var body = "extension \(document.namespace) {\n"
        var table: [String] = []
        for block in document.blocks {
            let name = functionName(block, in: document)
            body += "    /// \(block.file):\(block.line)\n"
            body += "    static func \(name)() async throws {\n"
            var shown: [String] = []
            for line in block.code {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("import ") {
                    imports.insert(String(trimmed.dropFirst(7)))
                    continue
                }
                body += line.isEmpty ? "\n" : "        \(line)\n"
                if let name = shownValue(line) { shown.append(name) }
            }
            // A sample names a value to show where it comes from, and leaves its use to the
            // reader; used here, so that the build has no warning.
            if !shown.isEmpty { body += "        _ = (\(shown.joined(separator: ", ")))   // the values the sample shows\n" }
            body += "    }\n\n"
            table.append("        DocSample(\"\(block.file):\(block.line)\", \(name)),")
        }
        body += "    static let samples: [DocSample] = [\n\(table.joined(separator: "\n"))\n    ]\n}\n"
        out += imports.sorted().map { "import \($0)\n" }.joined() + "\n"
        out += "enum \(document.namespace) {}\n\n" + body
        return out
    }

    /// The name a sample's top-level `let name = ...` line binds, if it is one.
    package static func shownValue(_ line: String) -> String? {
        guard line.hasPrefix("let ") else { return nil }
        let name = line.dropFirst(4).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let rest = line.dropFirst(4 + name.count).drop { $0 == " " }
        return !name.isEmpty && (rest.hasPrefix("=") || rest.hasPrefix(":")) ? String(name) : nil
    }

    /// The table of every document's samples (`AllSamples.swift`).
    package static func table(_ documents: [Document]) -> String {
        """
        // Generated by DocSamplesTests: every document's samples, in order. Do not edit.

        let allSamples: [DocSample] = \(documents.map { "\($0.namespace).samples" }.joined(separator: "\n    + "))

        """
    }
}
