// SoundStage's libFuzzer targets, against the public API; SOUNDSTAGE_FUZZ_TARGET picks the
// target (or, replaying, the first argument):
// - wav, aiff, caf, ogg, opus, flac, mp3: a decoder (FuzzDecoders.swift);
// - scene: the JSON scene parser, and small scenes rendered (FuzzScene.swift);
// - api: random sequences of public API calls on an offline engine (FuzzAPI.swift).
import Foundation
import SoundStage

enum FuzzTarget: String, CaseIterable {
    case wav, aiff, caf, ogg, opus, flac, mp3, scene, api

    /// Before the first input: what a target keeps for the whole run is made here, so
    /// libFuzzer's leak check on each input does not count it.
    func prepare() {
        if self == .api { _ = fuzzStreamBytes.count }
    }

    /// Runs one input.
    func run(_ data: Data) {
        switch self {
        case .scene: fuzzScene(data)
        case .api: fuzzAPI(data)
        default: fuzzDecoder(self, data)
        }
    }
}

#if SOUNDSTAGE_FUZZER
// Under `-sanitize=fuzzer` (scripts/fuzz.sh), libFuzzer's main, with its usual arguments,
// calls these two; the target is SOUNDSTAGE_FUZZ_TARGET's.

extension FuzzTarget {
    /// The target this process fuzzes.
    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SOUNDSTAGE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            preconditionFailure("SOUNDSTAGE_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue)), got '\(name)'")
        }
        return target
    }()
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzTarget.current.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.current.run(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
#else
/// `soundstage-fuzz TARGET FILE|FOLDER...`, built plainly: every input given, run once
/// through its target (a crash the fuzzer found, replayed in a debugger).
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            fail("usage: soundstage-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE|FOLDER...")
        }
        target.prepare()
        var count = 0
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            // A file is run itself (Foundation lists a file as an empty folder).
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { fail("no such file: \(path)") }
            let files = isFolder.boolValue
                ? (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil))?.sorted { $0.path < $1.path } ?? []
                : [url]
            for file in files {
                guard let data = try? Data(contentsOf: file) else { fail("cannot read \(file.path)") }
                target.run(data)
                count += 1
            }
        }
        print("soundstage-fuzz: \(count) inputs of \(target.rawValue) ran clean")
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
#endif
