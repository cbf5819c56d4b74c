import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import Testing
import SoundStageTestSupport

/// Fault injection: huge declared sizes in every container, 100 cycles each. Whatever a
/// header claims, decoding gives a typed error naming the file or the frames that are really
/// there, never more, and never allocates for what the header only claims.
@Suite("Fault injection: huge declared sizes in every container")
struct FaultInjectionSizeTests {
    /// A small real file of `type` made by sox (or flac), 0.05 s of stereo 16-bit at 8 kHz.
    static func sample(_ type: String, in folder: TemporaryFolder) throws -> Data {
        let wav = folder.file("base.wav")
        _ = try ToolRunner.run(try sox(), ["-n", "-r", "8000", "-c", "2", "-b", "16", wav.path, "synth", "0.05", "sine", "440"])
        if type == "wav" { return try Data(contentsOf: wav) }
        if type == "flac" {
            let flac = folder.file("base.flac")
            _ = try ToolRunner.run(try #require(ToolRunner.which("flac")), ["-s", "-f", "-o", flac.path, wav.path])
            return try Data(contentsOf: flac)
        }
        let out = folder.file("base.\(type)")
        _ = try ToolRunner.run(try sox(), [wav.path, out.path])
        return try Data(contentsOf: out)
    }

    /// Where a 4-byte chunk ID starts, after `from`.
    static func offset(of id: String, in data: Data, from: Int = 0) -> Int? {
        let tag = Array(id.utf8)
        return (from..<(data.count - 4)).first { i in (0..<4).allSatisfy { data[i + $0] == tag[$0] } }
    }

    static func put(_ value: UInt64, bytes: Int, at offset: Int, in data: inout Data, bigEndian: Bool) {
        for i in 0..<bytes {
            let shift = bigEndian ? 8 * (bytes - 1 - i) : 8 * i
            data[offset + i] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
        }
    }

    /// The size fields of each container: (offset, width in bytes, big-endian).
    static func fields(_ type: String, _ data: Data) throws -> [(Int, Int, Bool)] {
        switch type {
        case "wav":
            let fmt = try #require(offset(of: "fmt ", in: data)), chunk = try #require(offset(of: "data", in: data))
            return [(4, 4, false), (fmt + 4, 4, false), (fmt + 10, 2, false), (fmt + 12, 4, false), (fmt + 20, 2, false), (chunk + 4, 4, false)]
        case "aiff":
            let comm = try #require(offset(of: "COMM", in: data)), ssnd = try #require(offset(of: "SSND", in: data))
            return [(4, 4, true), (comm + 4, 4, true), (comm + 8, 2, true), (comm + 10, 4, true), (comm + 14, 2, true), (ssnd + 4, 4, true), (ssnd + 8, 4, true)]
        case "caf":
            let desc = try #require(offset(of: "desc", in: data)), chunk = try #require(offset(of: "data", in: data, from: desc))
            return [(desc + 4, 8, true), (desc + 32, 4, true), (desc + 36, 4, true), (desc + 40, 4, true), (chunk + 4, 8, true)]
        default:   // FLAC STREAMINFO: block sizes, frame sizes, and the total samples.
            return [(8, 2, true), (10, 2, true), (12, 3, true), (15, 3, true), (22, 4, true)]
        }
    }

    @Test("100 headers of each container with huge sizes: a typed error naming the file, or only the frames present", arguments: ["wav", "aiff", "caf", "flac"])
    func hugeSizes(_ type: String) throws {
        let folder = try TemporaryFolder()
        let base = try Self.sample(type, in: folder)
        let fields = try Self.fields(type, base)
        var generator = SeededGenerator(seed: 17)
        var refused = 0, decoded = 0
        for cycle in 0..<100 {
            var data = base
            // One or two fields a cycle, each huge (or all ones).
            for _ in 0..<(1 + cycle % 2) {
                let (offset, width, bigEndian) = fields[Int.random(in: 0..<fields.count, using: &generator)]
                let top = width >= 8 ? UInt64.max : (UInt64(1) << UInt64(8 * width)) - 1
                let value = cycle % 5 == 0 ? top : UInt64.random(in: (top / 16)...top, using: &generator)
                Self.put(value, bytes: width, at: offset, in: &data, bigEndian: bigEndian)
            }
            let name = "huge-\(cycle).\(type)"
            do {
                let file = try SoundFile.decode(data, name: name)
                decoded += 1
                // Never more than the bytes could hold (16-bit: 2 bytes a sample at least; a
                // float32 decode of FLAC is 4 bytes a sample, from at most 8 samples a byte).
                #expect(file.bytes.count <= 8 * data.count + 64, "\(name): \(file.bytes.count) bytes decoded from \(data.count)")
            } catch let error as SoundStageError {
                refused += 1
                #expect(error.code == .decodingFailed || error.code == .invalidArgument, "\(name): \(error)")
                #expect(error.description.contains(name), "the error names the file: \(error)")
            }
        }
        print("huge sizes in \(type): \(refused) refused with a typed error, \(decoded) decoded what is there")
        #expect(refused + decoded == 100)
    }
}
