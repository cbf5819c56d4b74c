import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

extension SoundStageToolTests {
    @Test("the tool links none of the optional decoders' libraries (libFLAC, libopusfile, libmpg123): it opens them when a file needs them")
    func optionalDecodersNotLinked() throws {
        let tool = try #require(ToolRunner.soundstage)
        let readelf = try #require(ToolRunner.which("readelf"), "readelf (binutils) lists what the binary needs")
        let out = try ToolRunner.run(readelf, ["-d", tool.path])
        let needed = out.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libopenal.so.1") }, "\(needed)")
        #expect(!needed.contains { $0.contains("libFLAC") || $0.contains("libopusfile") || $0.contains("libmpg123") }, "\(needed)")
    }

    /// An optional decoder library, hidden from the loader for real: in a mount namespace of
    /// its own (`unshare --mount`, as root) the library's file is covered by /dev/null, so
    /// `dlopen` finds it and cannot load it, as on a machine without the package. libFLAC and
    /// libmpg123 cannot be hidden this way yet: libpulse, still linked, needs them through
    /// libsndfile (issue 32, item 3, continues with libpulse and libsystemd).
    @Test("with libopusfile hidden, the tool starts, an Opus file fails with a typed error naming the package, and a WAV scene still renders",
          arguments: [("libopusfile.so.0", "in.opus", "decoding Ogg Opus needs libopusfile", "libopusfile0")])
    func optionalLibraryHidden(library: String, file: String, message: String, package: String) throws {
        let tool = try #require(ToolRunner.soundstage)
        let unshare = try #require(ToolRunner.which("unshare"), "unshare (util-linux) hides the library")
        let folder = try TemporaryFolder()
        let wav = folder.file("in.wav")
        #expect(try ToolRunner.run(try #require(ToolRunner.which("sox")), ["-n", "-r", "48000", "-c", "1", "-b", "16", wav.path, "synth", "1", "sine", "500", "gain", "-6"]).status == 0)
        let encoded = folder.file(file)
        let encoder: (String, [String]) = switch file {
        case "in.flac": ("flac", ["-s", "-o", encoded.path, wav.path])
        case "in.opus": ("opusenc", ["--quiet", wav.path, encoded.path])
        default: ("lame", ["--quiet", wav.path, encoded.path])
        }
        #expect(try ToolRunner.run(try #require(ToolRunner.which(encoder.0)), encoder.1).status == 0)
        let path = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/\(library)").resolvingSymlinksInPath().path
        #expect(FileManager.default.fileExists(atPath: path), "\(library) is installed here (its -dev package builds SoundStage)")
        let scene = folder.file("wav.json")
        try Data(#"{"duration": 0.5, "sources": [{"sound": "in.wav"}]}"#.utf8).write(to: scene)
        let rendered = folder.file("out.wav")
        // In one namespace: cover the library, then ask for both the format and a WAV scene.
        let script = """
            mount --bind /dev/null "$1" || exit 97
            "$2" info "$3"; echo "info-status=$?"
            "$2" render "$4" -o "$5"; echo "render-status=$?"
            """
        let run = try ToolRunner.run(unshare, ["--mount", "sh", "-c", script, "sh", path, tool.path, encoded.path, scene.path, rendered.path],
                                     environment: ["ALSOFT_DRIVERS": "null"])
        #expect(run.status == 0, "unshare: \(run.stderr)")
        let info = run.stdout.split(separator: "\n").first { $0.hasPrefix("info-status=") }
        #expect(info != nil && info != "info-status=0", "\(run.stdout)")
        #expect(run.stderr.contains(message) && run.stderr.contains(package) && run.stderr.contains("library missing"), "\(run.stderr)")
        #expect(run.stdout.contains("render-status=0"), "\(run.stdout) \(run.stderr)")
        let samples = try SoundFile.decode(contentsOf: rendered)
        let floats = samples.floatSamples()
        let rms = (floats.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, floats.count))).squareRoot()
        #expect(samples.frameCount == 24_000 && 20 * log10(rms) > -20, "\(samples.frameCount) frames, RMS \(20 * log10(rms)) dB")

        // Outside the namespace the library is there, and the same file decodes.
        let plain = try ToolRunner.run(tool, ["info", encoded.path])
        #expect(plain.status == 0, "\(plain.stderr)")
    }
}
