// SoundStage's libFuzzer targets, compiled together with the library's sources into one
// binary by scripts/fuzz.sh; SOUNDSTAGE_FUZZ_TARGET picks the target:
// - wav, aiff, caf, ogg, opus, flac, mp3: a decoder (FuzzDecoders.swift);
// - scene: the JSON scene parser, and small scenes rendered (FuzzScene.swift);
// - api: random sequences of public API calls on an offline engine (FuzzAPI.swift).
import Foundation

enum FuzzTarget: String, CaseIterable {
    case wav, aiff, caf, ogg, opus, flac, mp3, scene, api

    /// The target this process fuzzes.
    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SOUNDSTAGE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            preconditionFailure("SOUNDSTAGE_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue)), got '\(name)'")
        }
        return target
    }()
}

/// Before the first input: what a target keeps for the whole run is made here, so
/// libFuzzer's leak check on each input does not count it.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    if FuzzTarget.current == .api { _ = fuzzStreamBytes.count }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    switch FuzzTarget.current {
    case .scene: fuzzScene(data)
    case .api: fuzzAPI(data)
    case let target: fuzzDecoder(target, data)
    }
    return 0
}
