import Foundation
import SoundStage
import Testing
import SoundStageTestSupport

/// The optional libraries (libFLAC, libopusfile, libmpg123, libpulse, libsystemd), which
/// SoundStage opens when a feature first needs them rather than linking them.
extension SoundStageToolTests {
    @Test("ldd of the tool: OpenAL (and what it needs), Vorbis and Ogg, ALUT, the C and Swift runtimes, nothing else")
    func onlyTheDesignsLibrariesLinked() throws {
        let tool = try #require(ToolRunner.soundstage)
        let ldd = try #require(ToolRunner.which("ldd"))
        func libraries(_ path: String) throws -> Set<String> {
            let out = try ToolRunner.run(ldd, [path])
            #expect(out.status == 0, "\(out.stderr)")
            return Set(out.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) } })
        }
        let linked = try libraries(tool.path)
        let openAL = try libraries(URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libopenal.so.1").resolvingSymlinksInPath().path)
        let design = ["linux-vdso.so", "libvorbis", "libogg.so", "libopenal.so", "libalut.so"]
        let runtimes = ["libswift", "libFoundation", "lib_FoundationICU", "libdispatch.so", "libBlocksRuntime.so", "libc.so", "libm.so",
                        "libpthread.so", "libdl.so", "libstdc++.so", "libgcc_s.so", "/lib64/ld-linux", "ld-linux"]
        let others = linked.filter { name in !openAL.contains(name) && !(design + runtimes).contains { name.hasPrefix($0) } }
        #expect(others.isEmpty, "linked beyond the design's libraries: \(others.sorted())")
        for optional in ["libFLAC", "libopusfile", "libmpg123", "libpulse", "libsystemd", "libsndfile", "libX11"] {
            #expect(!linked.contains { $0.hasPrefix(optional) }, "\(optional) linked: \(linked.sorted())")
        }
        #expect(linked.contains("libopenal.so.1") && linked.contains("libvorbisfile.so.3") && linked.contains("libalut.so.0"), "\(linked.sorted())")
    }

    /// Runs `script` (sh, with `$1` the library's file and the rest `arguments`) in a mount
    /// namespace of its own (`unshare --mount`, as root) where the library is covered by
    /// /dev/null: `dlopen` finds it and cannot load it, as on a machine without its package.
    private func withHidden(_ library: String, _ script: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let unshare = try #require(ToolRunner.which("unshare"), "unshare (util-linux) hides the library")
        let path = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/\(library)").resolvingSymlinksInPath().path
        #expect(FileManager.default.fileExists(atPath: path), "\(library) is installed here (its -dev package builds SoundStage)")
        return try ToolRunner.run(unshare, ["--mount", "sh", "-c", "mount --bind /dev/null \"$1\" || exit 97\n" + script, "sh", path] + arguments,
                                  environment: ["ALSOFT_DRIVERS": "null"])
    }

    /// A WAV scene of half a second, and where to render it.
    private func wavScene(_ folder: TemporaryFolder) throws -> (wav: URL, scene: URL, rendered: URL) {
        let wav = folder.file("in.wav")
        #expect(try ToolRunner.run(try #require(ToolRunner.which("sox")), ["-n", "-r", "48000", "-c", "1", "-b", "16", wav.path, "synth", "1", "sine", "500", "gain", "-6"]).status == 0)
        let scene = folder.file("wav.json")
        try Data(#"{"duration": 0.5, "sources": [{"sound": "in.wav"}]}"#.utf8).write(to: scene)
        return (wav, scene, folder.file("out.wav"))
    }

    /// The scene rendered to half a second of the tone.
    private func expectRendered(_ rendered: URL) throws {
        let samples = try SoundFile.decode(contentsOf: rendered)
        let floats = samples.floatSamples()
        let rms = (floats.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, floats.count))).squareRoot()
        #expect(samples.frameCount == 24_000 && 20 * log10(rms) > -20, "\(samples.frameCount) frames, RMS \(20 * log10(rms)) dB")
    }

    @Test("with a decoder's library hidden, the tool starts, its format fails with a typed error naming the package, and a WAV scene still renders",
          arguments: [("libFLAC.so.12", "in.flac", "decoding FLAC needs libFLAC", "libflac12"),
                      ("libopusfile.so.0", "in.opus", "decoding Ogg Opus needs libopusfile", "libopusfile0"),
                      ("libmpg123.so.0", "in.mp3", "decoding MP3 needs libmpg123", "libmpg123-0")])
    func decoderLibraryHidden(library: String, file: String, message: String, package: String) throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let (wav, scene, rendered) = try wavScene(folder)
        let encoded = folder.file(file)
        let encoder: (String, [String]) = switch file {
        case "in.flac": ("flac", ["-s", "-o", encoded.path, wav.path])
        case "in.opus": ("opusenc", ["--quiet", wav.path, encoded.path])
        default: ("lame", ["--quiet", wav.path, encoded.path])
        }
        #expect(try ToolRunner.run(try #require(ToolRunner.which(encoder.0)), encoder.1).status == 0)
        let run = try withHidden(library, """
            "$2" info "$3"; echo "info-status=$?"
            "$2" render "$4" -o "$5"; echo "render-status=$?"
            """, [tool.path, encoded.path, scene.path, rendered.path])
        #expect(run.status == 0, "unshare: \(run.stderr)")
        let info = run.stdout.split(separator: "\n").first { $0.hasPrefix("info-status=") }
        #expect(info != nil && info != "info-status=0", "\(run.stdout)")
        #expect(run.stderr.contains("library missing: \(message)") && run.stderr.contains(package), "\(run.stderr)")
        #expect(run.stdout.contains("render-status=0"), "\(run.stdout) \(run.stderr)")
        try expectRendered(rendered)
        // Outside the namespace the library is there, and the same file decodes.
        let plain = try ToolRunner.run(tool, ["info", encoded.path])
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    @Test("with libpulse or libsystemd hidden, a session plays and says which watcher it goes without and why; a WAV scene still renders",
          arguments: [("libpulse.so.0", "soundServerUnavailable(following the sound server", "needs libpulse", "libpulse0"),
                      ("libsystemd.so.0", "watcherUnavailable(system sleep: pausing for system sleep", "needs libsystemd", "libsystemd0")])
    func sessionLibraryHidden(library: String, event: String, message: String, package: String) throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let (_, scene, rendered) = try wavScene(folder)
        let run = try withHidden(library, """
            "$2" session --seconds 1 --tone 440; echo "session-status=$?"
            "$2" render "$3" -o "$4"; echo "render-status=$?"
            """, [tool.path, scene.path, rendered.path])
        #expect(run.status == 0, "unshare: \(run.stderr)")
        let line = run.stdout.split(separator: "\n").first { $0.contains(event) }
        #expect(line.map { $0.contains(message) && $0.contains(package) } == true, "\(run.stdout)")
        #expect(run.stdout.contains("playing sine 440.0 Hz") && run.stdout.contains("session-status=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("render-status=0"), "\(run.stdout) \(run.stderr)")
        try expectRendered(rendered)
    }
}
