import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension AudioBuffer {
    /// From this size up, linear PCM is copied into OpenAL's own storage, mapped, in huge
    /// pages (``HugePages``), rather than handed to `alBufferData`.
    static let mappedUploadBytes = 4 << 20

    /// Puts `samples` in OpenAL's buffer `name`: one `alBufferData`, or for a big linear PCM
    /// sound, OpenAL's storage made empty (`alBufferStorageSOFT`), mapped (`alMapBufferSOFT`,
    /// `AL_SOFTX_map_buffer`, which OpenAL Soft 1.19 and 1.23 have), advised into huge pages
    /// and written with one copy.
    ///
    /// Why: `alBufferData` copies into memory OpenAL Soft has just allocated, so the copy
    /// faults that memory in a 4 KB page at a time; for 100 MB, 25,600 faults, most of the
    /// load (86 ms of it measured, against 43 ms mapped in huge pages; `/tmp` probes in
    /// BENCHMARKS.md). OpenAL Soft 1.23 fills its storage with zeros before the map, so there
    /// the map saves nothing and costs nothing.
    static func upload(_ samples: SampleBytes, as alFormat: ALenum, _ format: BufferFormat, sampleRate: Int,
                       to name: ALuint, in context: AudioContext, scope: borrowing ALScope,
                       operation: String, object: String) throws {
        let size = ALsizei(samples.count), rate = ALsizei(sampleRate)
        guard samples.count >= mappedUploadBytes, [.uint8, .int16, .float32].contains(format.encoding),
              context.isExtensionPresent("AL_SOFTX_map_buffer"), let map = MapBufferEntryPoints.shared else {
            try scope.call(operation, on: object) {
                samples.withUnsafeBytes { alBufferData(name, alFormat, $0.baseAddress, size, rate) }
            }
            return
        }
        try scope.call(operation, on: object) { map.storage(name, alFormat, nil, size, rate, MapBufferEntryPoints.write) }
        let target = try scope.call(operation, on: object) { map.map(name, 0, size, MapBufferEntryPoints.write) }
        guard let target else {
            throw SoundStageError(.al(AL_OUT_OF_MEMORY), operation: operation, object: object, reason: "OpenAL could not map the buffer's storage")
        }
        HugePages.advise(target, count: samples.count)
        samples.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        try scope.call(operation, on: object) { map.unmap(name) }
    }
}

/// OpenAL Soft's buffer mapping (`AL_SOFTX_map_buffer`: not in its public headers, so
/// looked up by name), or nil where this OpenAL has none.
struct MapBufferEntryPoints: Sendable {
    /// OpenAL Soft's `ALbitfieldSOFT`.
    typealias ALbitfieldSOFT = UInt32
    typealias Storage = @convention(c) (ALuint, ALenum, UnsafeRawPointer?, ALsizei, ALsizei, ALbitfieldSOFT) -> Void
    typealias Map = @convention(c) (ALuint, ALsizei, ALsizei, ALbitfieldSOFT) -> UnsafeMutableRawPointer?
    typealias Unmap = @convention(c) (ALuint) -> Void
    /// `AL_MAP_WRITE_BIT_SOFT`.
    static let write: ALbitfieldSOFT = 0x2

    let storage: Storage
    let map: Map
    let unmap: Unmap

    static let shared: MapBufferEntryPoints? = {
        guard let storage = alGetProcAddress("alBufferStorageSOFT"),
              let map = alGetProcAddress("alMapBufferSOFT"),
              let unmap = alGetProcAddress("alUnmapBufferSOFT") else { return nil }
        return MapBufferEntryPoints(storage: unsafeBitCast(storage, to: Storage.self),
                                    map: unsafeBitCast(map, to: Map.self),
                                    unmap: unsafeBitCast(unmap, to: Unmap.self))
    }()
}
