import Foundation
import SoundStage
import Testing

/// Sound files encoded by the reference encoders and then damaged as files are in the wild:
/// cut short, or with garbage written over part of them.
package enum DamagedFiles {
    /// A command-line tool the test needs (scripts/test.sh installs them).
    package static func tool(_ name: String) throws -> URL {
        try #require(ToolRunner.which(name), "\(name) is needed (scripts/test.sh installs sox, flac, vorbis-tools and lame)")
    }

    /// `wav` encoded to `ext` (flac, ogg or mp3) beside it.
    package static func encode(_ wav: URL, to ext: String) throws -> URL {
        let out = wav.deletingPathExtension().appendingPathExtension(ext)
        let run: (status: Int32, stdout: String, stderr: String)
        switch ext {
        case "flac": run = try ToolRunner.run(try tool("flac"), ["-s", "-f", "-o", out.path, wav.path])
        case "ogg": run = try ToolRunner.run(try tool("oggenc"), ["-Q", "-q", "6", "-o", out.path, wav.path])
        case "mp3": run = try ToolRunner.run(try tool("lame"), ["--quiet", "-b", "192", wav.path, out.path])
        default: throw PulseError("no encoder for .\(ext)")
        }
        try #require(run.status == 0, "encoding \(wav.lastPathComponent) to .\(ext): \(run.stderr)")
        return out
    }

    /// A copy of `file` named `name`, its bytes cut to `fraction` of them.
    package static func truncated(_ file: URL, to fraction: Double, as name: String) throws -> URL {
        let data = try Data(contentsOf: file)
        let out = file.deletingLastPathComponent().appendingPathComponent(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: out)
        return out
    }

    /// A copy of `file` named `name` with `count` bytes of seeded garbage written over it
    /// from `fraction` of the way in (or from byte `offset`).
    package static func garbled(_ file: URL, at fraction: Double = 0, offset: Int? = nil, bytes count: Int, as name: String) throws -> URL {
        var data = try Data(contentsOf: file)
        var generator = SeededGenerator(seed: 7)
        let start = offset ?? Int(Double(data.count) * fraction)
        for i in start..<min(data.count, start + count) { data[i] = UInt8.random(in: 0...255, using: &generator) }
        let out = file.deletingLastPathComponent().appendingPathComponent(name)
        try data.write(to: out)
        return out
    }

    /// Where a FLAC file's first audio frame begins: after "fLaC" and its metadata blocks.
    package static func flacAudioStart(_ file: URL) throws -> Int {
        let data = [UInt8](try Data(contentsOf: file))
        var offset = 4
        while offset + 4 <= data.count {
            let last = data[offset] & 0x80 != 0
            let length = Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            offset += 4 + length
            if last { break }
        }
        return offset
    }

    /// A 48 kHz mono WAV of `seconds` of a 440 Hz sine, or of pink noise (which an encoder
    /// cannot squeeze into a few pages, so damage in the middle hits audio), at -6 dBFS.
    package static func tone(_ folder: TemporaryFolder, _ name: String, seconds: Double, noise: Bool = false) throws -> URL {
        let wav = folder.file(name)
        let signal = noise ? ["pinknoise"] : ["sine", "440"]
        let run = try ToolRunner.run(try sox(), ["-n", "-r", "48000", "-c", "1", "-b", "16", wav.path, "synth", "\(seconds)"] + signal + ["gain", "-6"])
        try #require(run.status == 0, "\(run.stderr)")
        return wav
    }
}
