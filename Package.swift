// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SoundStage",
    products: [
        .library(name: "SoundStage", targets: ["SoundStage"]),
        // A game may depend on less than everything: each module, with the modules under it.
        .library(name: "SoundStageCore", targets: ["SoundStageCore"]),
        .library(name: "SoundStageSession", targets: ["SoundStageSession"]),
        .library(name: "SoundStageRecording", targets: ["SoundStageRecording"]),
        .library(name: "SoundStageEngine", targets: ["SoundStageEngine"]),
        .library(name: "SoundStageScenes", targets: ["SoundStageScenes"]),
        .executable(name: "soundstage", targets: ["soundstage"]),
        .executable(name: "drumdub", targets: ["DrumDub"]),
        .executable(name: "soundstage-bench", targets: ["SoundStageBenchmarks"]),
        .executable(name: "soundstage-soak", targets: ["SoundStageSoak"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation` (scripts/docs.sh); a plugin, not linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenAL",
            path: "Sources/COpenAL",
            pkgConfig: "openal",
            providers: [.apt(["libopenal-dev"])]
        ),
        .systemLibrary(
            name: "CVorbis",
            path: "Sources/CVorbis",
            pkgConfig: "vorbisfile",
            providers: [.apt(["libvorbis-dev"])]
        ),
        // The optional decoders' libraries (FLAC, Opus, MP3): opened with dlopen the first time
        // a file of theirs is decoded, not linked, so a game that plays none of them needs none
        // installed. Each target holds the library's function table, typed from its headers
        // (libflac-dev, libopusfile-dev, libmpg123-dev at build time).
        .target(
            name: "CLibraryLoader",
            path: "Sources/CLibraryLoader"
        ),
        .target(
            name: "CFLAC",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CFLAC"
        ),
        .target(
            name: "COpus",
            dependencies: ["CLibraryLoader"],
            path: "Sources/COpus"
        ),
        .target(
            name: "CMPG123",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CMPG123"
        ),
        .systemLibrary(
            name: "CALUT",
            path: "Sources/CALUT",
            pkgConfig: "freealut",
            providers: [.apt(["libalut-dev"])]
        ),
        // The session's libraries, libsystemd (sd-bus, for the sleep watcher) and libpulse (its
        // own connection to the sound server): opened when a session first watches, not linked
        // (libpulse pulls in libsndfile, libFLAC, libmpg123 and X11 with it).
        .target(
            name: "CSystemd",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CSystemd"
        ),
        .target(
            name: "CPulse",
            dependencies: ["CLibraryLoader"],
            path: "Sources/CPulse"
        ),
        // The async-signal-safe SIGTSTP/SIGCONT relay of the session's suspend watcher:
        // compiled C, for its one process-wide state read by the signal handlers.
        .target(
            name: "CSignalRelay",
            path: "Sources/CSignalRelay"
        ),
        // The process's exit handler, registered as the library loads (a constructor), so it
        // runs before OpenAL Soft's clean-up however late OpenAL is first used.
        .target(
            name: "CProcessExit",
            path: "Sources/CProcessExit"
        ),
        // The library, in modules along its layers (ARCHITECTURE.md): each sees only the
        // modules below it, and what they share beyond the public API has `package` access.
        // OpenAL and files: errors, the OpenAL gateway and its lock, devices and contexts,
        // properties, effects, every codec, signal measures, buffers, sources, the listener.
        .target(
            name: "SoundStageCore",
            dependencies: ["COpenAL", "CVorbis", "CFLAC", "COpus", "CMPG123", "CALUT", "CProcessExit",
                           .product(name: "Logging", package: "swift-log")],
            path: "Sources/SoundStageCore"
        ),
        // The process's audio session: categories, interruptions, the sound server, sleep, Ctrl-Z.
        .target(
            name: "SoundStageSession",
            dependencies: ["SoundStageCore", "CPulse", "CSystemd", "CSignalRelay"],
            path: "Sources/SoundStageSession"
        ),
        // Recording from a capture device into a file.
        .target(
            name: "SoundStageRecording",
            dependencies: ["SoundStageCore", "SoundStageSession", "CVorbis"],
            path: "Sources/SoundStageRecording"
        ),
        // The engine: players, voices, buses, zones, music, the service thread.
        .target(
            name: "SoundStageEngine",
            dependencies: ["SoundStageCore", "SoundStageSession", "COpenAL"],
            path: "Sources/SoundStageEngine"
        ),
        // Scenes: the JSON format, offline renders, plots.
        .target(
            name: "SoundStageScenes",
            dependencies: ["SoundStageCore", "SoundStageEngine"],
            path: "Sources/SoundStageScenes"
        ),
        // `import SoundStage`: every module above, and the documentation catalog.
        .target(
            name: "SoundStage",
            dependencies: ["SoundStageCore", "SoundStageSession", "SoundStageRecording", "SoundStageEngine", "SoundStageScenes"],
            path: "Sources/SoundStage"
        ),
        .executableTarget(
            name: "soundstage",
            dependencies: [
                "SoundStage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/soundstage"
        ),
        // ncurses, for the drumdub game's screen. Linked by the module map: Debian's
        // ncurses.pc adds -D flags SwiftPM refuses with a warning, and the header is on the
        // default path.
        .systemLibrary(
            name: "CNcurses",
            path: "Demos/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The game's signal handling that must be C: quit signals as a flag, and a crash
        // that restores the terminal before it dies.
        .target(
            name: "CTerminalGuard",
            path: "Demos/CTerminalGuard"
        ),
        // SDL2, for the game's window (`drumdub --window`): its headers at build time
        // (libsdl2-dev), the library opened when a window is asked for, so the terminal game
        // runs without it. The demo's only: the library never links it.
        .target(
            name: "CSDL2",
            dependencies: ["CLibraryLoader"],
            path: "Demos/CSDL2"
        ),
        .executableTarget(
            name: "DrumDub",
            dependencies: ["SoundStage", "CNcurses", "CTerminalGuard", "CSDL2"],
            path: "Demos/DrumDub"
        ),
        .target(
            name: "CBaseline",
            dependencies: ["COpenAL", "CVorbis", "CFLAC", "COpus", "CMPG123"],
            path: "Benchmarks/CBaseline",
            linkerSettings: [.linkedLibrary("m"), .linkedLibrary("vorbisfile"), .linkedLibrary("vorbis"), .linkedLibrary("ogg"), .linkedLibrary("FLAC"),
                             .linkedLibrary("opusfile"), .linkedLibrary("mpg123")]
        ),
        .executableTarget(
            name: "SoundStageBenchmarks",
            dependencies: ["SoundStage", "CBaseline"],
            path: "Benchmarks/SoundStageBenchmarks"
        ),
        // A game's load for an hour offline or ten minutes live: memory, gaps, objects
        // (scripts/soak.sh).
        .executableTarget(
            name: "SoundStageSoak",
            dependencies: ["SoundStage", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Soak"
        ),
        // The libFuzzer targets, against the public API. scripts/fuzz.sh builds them with
        // `swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc
        // -DSOUNDSTAGE_FUZZER`: libFuzzer's main drives them. Built plainly,
        // `soundstage-fuzz TARGET FILE|FOLDER...` runs inputs through the same code.
        .executableTarget(
            name: "soundstage-fuzz",
            dependencies: ["SoundStage"],
            path: "Fuzz",
            exclude: ["corpus", "lsan.supp", "make-seeds.sh", "scene.dict"]
        ),
        // Every Swift code block of the README, the DocC articles and the public API's doc
        // comments, as written (generated by DocSamplesTests): the build compiles them
        // against the public API only, and the tests run them. Not a product.
        .executableTarget(
            name: "DocSamples",
            dependencies: ["SoundStage"],
            path: "Tests/DocSamples"
        ),
        // A process whose first OpenAL use comes as it exits (the exit race, forced by an
        // exit handler of CExitRace): run by ProcessExitTests. Not a product.
        .target(
            name: "CExitRace",
            path: "Tests/CExitRace"
        ),
        .executableTarget(
            name: "ExitRace",
            dependencies: ["SoundStage", "CExitRace"],
            path: "Tests/ExitRace"
        ),
        // A game that lets its engine go at the end of main without ending its session: run
        // by AudioSessionMusicAtExitTests. Not a product.
        .executableTarget(
            name: "MusicAtExit",
            dependencies: ["SoundStage"],
            path: "Tests/MusicAtExit"
        ),
        // A game whose sound server is stopped (SIGSTOP) in the middle of a device reset or
        // its exit: run by FrozenServerTests. Not a product.
        .executableTarget(
            name: "FrozenServer",
            dependencies: ["SoundStage"],
            path: "Tests/FrozenServer"
        ),
        // The tests, in targets by tier, in folders that mirror Sources: offline renders
        // (parallel), the live ones on the real sound server (scripts/test.sh runs them in a
        // process of their own, serialized), and the game's (offline scripts, and the game in
        // a terminal). What they share (rigs, measures, the sound server, child processes) is
        // a target of its own, reached with `package` access.
        .target(
            name: "SoundStageTestSupport",
            dependencies: ["SoundStage", "CSystemd"],
            path: "Tests/SoundStageTestSupport"
        ),
        .testTarget(
            name: "SoundStageTests",
            dependencies: ["SoundStage", "SoundStageTestSupport", "COpenAL", .product(name: "Logging", package: "swift-log")],
            path: "Tests/SoundStageTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SoundStageLiveTests",
            dependencies: ["SoundStage", "SoundStageTestSupport"],
            path: "Tests/SoundStageLiveTests"
        ),
        .testTarget(
            name: "DrumDubTests",
            dependencies: ["SoundStage", "SoundStageTestSupport"],
            path: "Tests/DrumDubTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
