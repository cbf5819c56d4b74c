import Foundation
import Testing
import SoundStage
import SoundStageTestSupport

/// Inputs the fuzzers (scripts/fuzz.sh) found crashing, kept so they stay fixed: each must
/// decode or give a typed error naming the input, and never grow past a small multiple of
/// its size.
@Suite("FuzzRegression: committed crash inputs")
struct FuzzRegressionTests {
    static let inputs: [String] = {
        let folder = Fixtures.url("fuzz")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }()

    @Test("every committed crashing input now decodes or fails cleanly", arguments: inputs)
    func replay(name: String) throws {
        let data = try Data(contentsOf: Fixtures.url("fuzz/" + name))
        for keepNative in [false, true] {
            do {
                let decoder = try SoundFile.decoder(data, name: name, keepNative: keepNative)
                var total = 0
                while true {
                    let chunk = try decoder.read(maxFrames: 4_096)
                    if chunk.isEmpty { break }
                    total += chunk.count
                }
                if decoder.container != .ogg { #expect(total <= 8 * data.count + 64) }
                _ = try? decoder.seek(toFrame: decoder.frameCount / 2)
            } catch let error as SoundStageError {
                #expect(error.code == .decodingFailed && error.description.contains(name), "\(error)")
            }
        }
    }

    @Test("the crash inputs are there to replay")
    func present() { #expect(Self.inputs.count >= 1) }
}
