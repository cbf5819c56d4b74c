import Foundation
import Testing
import SoundStage
import SoundStageCore
import SoundStageTestSupport

@Suite("SoundStageTool: info, convert, render, play")
struct SoundStageToolTests {
    @Test("info --json gives exactly the documented keys, with soxi's frames and rate; convert matches oggdec")
    func infoAndConvert() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let wav = folder.file("in.wav"), ogg = folder.file("in.ogg"), out = folder.file("out.wav"), ref = folder.file("ref.wav")
        let sox = try #require(ToolRunner.which("sox")), oggenc = try #require(ToolRunner.which("oggenc"))
        let oggdec = try #require(ToolRunner.which("oggdec")), soxi = try #require(ToolRunner.which("soxi"))
        #expect(try ToolRunner.run(sox, ["-n", "-r", "32000", "-c", "2", "-b", "16", wav.path, "synth", "2", "sine", "500", "sine", "750"]).status == 0)
        #expect(try ToolRunner.run(oggenc, ["-Q", "-o", ogg.path, wav.path]).status == 0)

        let info = try ToolRunner.run(tool, ["info", "--json", wav.path, ogg.path])
        #expect(info.status == 0, "\(info.stderr)")
        let objects = info.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 2)
        for (object, url) in zip(objects, [wav, ogg]) {
            let container = url == wav ? "WAV" : "Ogg"
            let o = try #require(object)
            #expect(Set(o.keys) == ["path", "container", "encoding", "channels", "sampleRate", "frames", "duration", "damage"])
            #expect(o["path"] as? String == url.path && o["container"] as? String == container)
            let frames = try ToolRunner.run(soxi, ["-s", url.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect("\(o["frames"] as? Int ?? -1)" == frames && o["sampleRate"] as? Int == 32_000 && o["channels"] as? Int == 2)
            #expect(abs((o["duration"] as? Double ?? 0) - 2) < 1e-9)
        }

        let converted = try ToolRunner.run(tool, ["convert", ogg.path, "-o", out.path, "--format", "pcm16"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try ToolRunner.run(oggdec, ["-Q", "-o", ref.path, ogg.path]).status == 0)
        let scene = try LoopbackRig()
        let ours = try AudioBuffer(context: scene.context, contentsOf: out).floatSamples()
        let theirs = try AudioBuffer(context: scene.context, contentsOf: ref).floatSamples()
        #expect(ours.count == theirs.count)
        #expect(Measure.snrDB(ours, against: theirs, count: min(ours.count, theirs.count)) >= 60)
    }

    @Test("a file that cannot be read: non-zero exit, one line on stderr, no output file")
    func badFile() throws {
        let tool = try #require(ToolRunner.soundstage)
        let folder = try TemporaryFolder()
        let text = folder.file("notes.wav"), out = folder.file("out.wav")
        try "not audio".write(to: text, atomically: true, encoding: .utf8)
        for args in [["info", text.path], ["info", "--json", folder.file("missing.ogg").path], ["convert", text.path, "-o", out.path]] {
            let r = try ToolRunner.run(tool, args)
            #expect(r.status != 0)
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("soundstage: "), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("soundstage devices names the OpenAL it runs on: the one this process loaded (scripts/test.sh --openal 1.23 swaps it)")
    func devicesNameTheOpenAL() throws {
        let tool = try #require(ToolRunner.soundstage)
        let out = try ToolRunner.run(tool, ["devices"], environment: ["ALSOFT_DRIVERS": "null"])
        let version = try AudioContext(device: try AudioDevice.openLoopback()).version
        #expect(out.status == 0, "\(out.stderr)")
        #expect(version.hasPrefix("1.1 ALSOFT 1.") && out.stdout.contains("OpenAL: \(version)\n"), "\(version): \(out.stdout)")
    }

    @Test("OpenAL Soft is told to keep its streams on their device (pulse/allow-moves = false); a process's own ALSOFT_CONF is kept")
    func configurationGiven() throws {
        // In this process: the memory file OpenAL Soft was given holds the setting.
        let configuration = AudioDevice.configuration
        #expect(configuration.hasPrefix("streams kept on their device"), "\(configuration)")
        let path = try #require(configuration.firstMatch(of: /ALSOFT_CONF=(\/proc\/self\/fd\/\d+)/)?.1, "\(configuration)")
        #expect(try String(contentsOfFile: String(path), encoding: .utf8) == "[general]\nrt-prio = 1\n[pulse]\nallow-moves = false\n")
        let tool = try #require(ToolRunner.soundstage)
        let inherited = try ToolRunner.run(tool, ["devices"], environment: ["ALSOFT_DRIVERS": "null"])
        #expect(inherited.stdout.contains("OpenAL configuration: streams kept on their device ([pulse] allow-moves = false, in ALSOFT_CONF=/proc/self/fd/"), "\(inherited.stdout)")
        let folder = try TemporaryFolder()
        let own = folder.file("alsoft.conf")
        try "[general]\n".write(to: own, atomically: true, encoding: .utf8)
        let kept = try ToolRunner.run(tool, ["devices"], environment: ["ALSOFT_DRIVERS": "null", "ALSOFT_CONF": own.path])
        #expect(kept.stdout.contains("OpenAL configuration: as the process's own ALSOFT_CONF=\(own.path) says"), "\(kept.stdout)")
    }

    @Test("SoundStage's names for OpenAL Soft (its configuration's memory file, its log's pipe) are gone from the environment once OpenAL started: a child's environment holds none, and another OpenAL program started with a file at the log's descriptor number leaves it whole")
    func namesNotInherited() throws {
        _ = AudioDevice.configuration   // OpenAL Soft started
        let names = ["ALSOFT_CONF", "ALSOFT_LOGFILE", "SOUNDSTAGE_ALSOFT_CONF", "SOUNDSTAGE_ALSOFT_LOGFILE"]
        for name in names { #expect(getenv(name) == nil, "\(name)=\(String(cString: getenv(name)!))") }
        let env = try ToolRunner.run(try #require(ToolRunner.which("env")), [])
        for name in names { #expect(!env.stdout.contains("\(name)="), "a child's environment: \(env.stdout)") }
        // A program with OpenAL Soft of its own (Python's ctypes), a file of its own at the
        // number the parent's log pipe had: it would truncate it, were the name inherited.
        let pipe = try #require(OpenALLog.pipeName, "OpenAL Soft's log goes through SoundStage's pipe")
        let number = try #require(Int(pipe.split(separator: "/").last ?? ""))
        let folder = try TemporaryFolder()
        let victim = folder.file("victim.txt")
        try "the child's own file\n".write(to: victim, atomically: true, encoding: .utf8)
        let python = try #require(ToolRunner.which("python3"), "python3 is installed with the test packages")
        let program = "import ctypes; al = ctypes.CDLL('libopenal.so.1'); al.alcLoopbackOpenDeviceSOFT.restype = ctypes.c_void_p; print('opened', bool(al.alcLoopbackOpenDeviceSOFT(None)))"
        // bash: dash takes descriptor numbers of one digit only.
        let child = try ToolRunner.run(try #require(ToolRunner.which("bash")), ["-c", "exec \(number)<>\(victim.path); exec \(python.path) -c \"\(program)\""])
        #expect(child.stdout.contains("opened True"), "\(child)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "the child's own file\n")
    }

    @Test("soundstage effects lists EFX, the effect types, filters, HRTF sets and the 113 reverb presets")
    func effects() throws {
        let tool = try #require(ToolRunner.soundstage)
        let out = try ToolRunner.run(tool, ["effects"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("EFX: yes") && out.stdout.contains("pitch shifter") && out.stdout.contains("EAX reverb")
                && out.stdout.contains("CASTLE_SMALLROOM"), "\(out.stdout)")
        let presets = try ToolRunner.run(tool, ["effects", "--presets"])
        let lines = presets.stdout.split(separator: "\n")
        #expect(lines.count == 113 && lines.contains("CAVE (.cave): decay 2.91 s"), "\(lines.prefix(3))")
    }

    @Test("soundstage render: a good scene writes a WAV and a plot; a bad one exits non-zero with one line and no file")
    func tool() throws {
        let tool = try #require(ToolRunner.soundstage)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("soundstage-render-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("out.wav"), svg = dir.appendingPathComponent("out.svg")
        let ok = try ToolRunner.run(tool, ["render", Assets.scenes.appendingPathComponent("doppler-flyby.json").path, "-o", wav.path, "--plot", svg.path, "--format", "float32"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("6.00 s") && ok.stdout.contains("RMS"), "\(ok.stdout)")
        let size = try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int
        #expect(size == 44 + 6 * 48_000 * 2 * 4)
        #expect(FileManager.default.fileExists(atPath: svg.path))
        #expect(ok.stdout.contains("voices: 1 sources, up to 1 real and 0 virtual at once; 0 stolen, 0 refused"), "\(ok.stdout)")

        let bad = dir.appendingPathComponent("bad.json")
        try #"{"duration": 1, "sources": [{"sound": "missing.wav"}]}"#.write(to: bad, atomically: true, encoding: .utf8)
        let badOut = dir.appendingPathComponent("bad.wav")
        let failed = try ToolRunner.run(tool, ["render", bad.path, "-o", badOut.path])
        #expect(failed.status != 0)
        let lines = failed.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("$.sources[0].sound") && lines[0].contains("not found"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: badOut.path))
    }

}
