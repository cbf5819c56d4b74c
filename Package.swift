// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SoundStage",
    products: [
        .library(name: "SoundStage", targets: ["SoundStage"]),
        .executable(name: "soundstage", targets: ["soundstage"]),
        .executable(name: "drumdub", targets: ["DrumDub"]),
        .executable(name: "soundstage-bench", targets: ["SoundStageBenchmarks"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
        .systemLibrary(
            name: "CALUT",
            path: "Sources/CALUT",
            pkgConfig: "freealut",
            providers: [.apt(["libalut-dev"])]
        ),
        .target(
            name: "SoundStage",
            dependencies: ["COpenAL", "CVorbis", "CALUT", .product(name: "Logging", package: "swift-log")],
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
        .executableTarget(
            name: "DrumDub",
            dependencies: ["SoundStage"],
            path: "Demos/DrumDub"
        ),
        .target(
            name: "CBaseline",
            dependencies: ["COpenAL", "CVorbis"],
            path: "Benchmarks/CBaseline",
            linkerSettings: [.linkedLibrary("m"), .linkedLibrary("vorbisfile"), .linkedLibrary("vorbis"), .linkedLibrary("ogg")]
        ),
        .executableTarget(
            name: "SoundStageBenchmarks",
            dependencies: ["SoundStage", "CBaseline"],
            path: "Benchmarks/SoundStageBenchmarks"
        ),
        .testTarget(
            name: "SoundStageTests",
            dependencies: ["SoundStage", "COpenAL", .product(name: "Logging", package: "swift-log")],
            path: "Tests/SoundStageTests",
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
