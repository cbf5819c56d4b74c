import Synchronization

/// Counters of live OpenAL objects, for leak checks in tests and diagnostics.
public enum Diagnostics {
    static let liveBuffers = Atomic<Int>(0)
    static let liveSources = Atomic<Int>(0)

    /// How many ``AudioBuffer`` objects (and so OpenAL buffer names) are alive.
    public static var bufferCount: Int { liveBuffers.load(ordering: .relaxed) }
    /// How many ``AudioSource`` objects (and so OpenAL source names) are alive.
    public static var sourceCount: Int { liveSources.load(ordering: .relaxed) }
}
