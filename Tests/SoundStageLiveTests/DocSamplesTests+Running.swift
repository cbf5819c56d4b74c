import Foundation
import Testing
import SoundStageTestSupport

/// Every sample of the DocSamples target, run on the PulseAudio server scripts/test.sh starts.
@Suite("Documentation samples run on the sound server")
struct DocSamplesRunTests {
    /// What a sample that cannot run here fails with, and why it cannot: each is seen once.
    static let cannotRunHere: [String: String] = [
        "on device 'USB Headset': device not found": "a settings menu's named device: there is none here",
    ]

    @Test("every sample runs on the sound server: it returns, or plays on for 2 s, without an error",
          .enabled(if: RecordingRig.enabled))
    func samplesRun() throws {
        let runner = try #require(ToolRunner.product("DocSamples"), "DocSamples is built beside the tests")
        let folder = try TemporaryFolder()
        // What the samples name, where they look: the assets, and the files they open.
        try FileManager.default.createSymbolicLink(at: folder.file("assets"), withDestinationURL: Assets.folder)
        for name in ["music.ogg", "theme.ogg", "battle.ogg"] {
            try FileManager.default.createSymbolicLink(at: folder.file(name), withDestinationURL: Assets.music)
        }
        for name in ["snare.wav", "click.wav"] {
            try FileManager.default.createSymbolicLink(at: folder.file(name), withDestinationURL: Assets.drums.appendingPathComponent("snare.wav"))
        }
        try Data(#"{ "duration": 1, "sources": [ { "sound": "assets/drums/snare.wav", "position": [-2, 0, -2] } ] }"#.utf8)
            .write(to: folder.file("scene.json"))
        let here = folder.url
        let ids = try ToolRunner.run(runner, ["list"]).stdout.split(separator: "\n").map(String.init)
        #expect(ids.count >= 50)
        let lock = NSLock()
        nonisolated(unsafe) var all: [String: (status: Int32, signalled: Bool, output: String)] = [:]
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for id in ids.indices.filter({ $0 % 2 == lane }).map({ ids[$0] }) {
                let process = Process()
                process.executableURL = runner
                process.arguments = ["run", id, "2"]
                process.currentDirectoryURL = here
                let out = Pipe()
                process.standardOutput = out
                process.standardError = out
                do { try process.run() } catch { lock.withLock { all[id] = (-1, false, "\(error)") }; continue }
                let data = out.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                lock.withLock {
                    all[id] = (process.terminationStatus, process.terminationReason == .uncaughtSignal, String(decoding: data, as: UTF8.self))
                }
            }
        }
        var ran = 0
        var seen: [String: [String]] = [:]
        for id in ids {
            let result = try #require(all[id], "\(id) was run")
            // Any device a sample opened is closed by the time it exits: OpenAL says so otherwise.
            #expect(!result.output.contains("AL lib: (EE)"), "\(id):\n\(result.output)")
            if !result.signalled, result.status == 1, let known = Self.cannotRunHere.keys.first(where: { result.output.contains($0) }) {
                seen[known, default: []].append(id)
                continue
            }
            #expect(result.status == 0 && !result.signalled, "\(id): \(result.signalled ? "killed by signal" : "exit") \(result.status)\n\(result.output)")
            if result.status == 0, !result.signalled { ran += 1 }
        }
        for (failure, why) in Self.cannotRunHere {
            #expect(seen[failure]?.count == 1, "one sample fails with \"\(failure)\" (\(why)): \(seen[failure] ?? [])")
        }
        print("doc samples: \(ran) of \(ids.count) ran; \(seen.values.map(\.count).reduce(0, +)) cannot run here: \(seen)")
    }
}
