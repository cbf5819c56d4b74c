/// A C library SoundStage opens (`dlopen`) the first time a feature needs it, rather than
/// linking it, so a game that never uses the feature runs on a machine without it: what it
/// serves and which package provides it, for the error when it cannot be loaded.
package struct OptionalLibrary: Sendable {
    /// What needs it, as in "decoding FLAC needs libFLAC".
    package let feature: String
    package let name: String
    /// The packages that provide it, on the distributions games ship to.
    package let packages: String

    package static let flac = OptionalLibrary(feature: "decoding FLAC", name: "libFLAC",
                                              packages: "libflac12 (Debian 12), libflac12t64 (Ubuntu 24.04), flac-libs (Fedora)")
    package static let opusfile = OptionalLibrary(feature: "decoding Ogg Opus", name: "libopusfile",
                                                  packages: "libopusfile0 (Debian, Ubuntu), opusfile (Fedora)")
    package static let mpg123 = OptionalLibrary(feature: "decoding MP3", name: "libmpg123",
                                                packages: "libmpg123-0 (Debian 12), libmpg123-0t64 (Ubuntu 24.04), mpg123-libs (Fedora)")

    /// libpulse, for the audio session's own connection to the sound server.
    package static let pulse = OptionalLibrary(
        feature: "following the sound server (calls that interrupt, default output changes, a server that restarts)",
        name: "libpulse", packages: "libpulse0 (Debian, Ubuntu), pulseaudio-libs (Fedora)")
    /// libsystemd's sd-bus, for the session's sleep watcher.
    package static let systemd = OptionalLibrary(feature: "pausing for system sleep", name: "libsystemd",
                                                 packages: "libsystemd0 (Debian, Ubuntu), systemd-libs (Fedora)")

    /// The reason for ``SoundStageError/Code-swift.struct/libraryMissing``, with the loader's
    /// own message (`dlerror`).
    package func missing(_ loaderMessage: UnsafePointer<CChar>?) -> String {
        let why = loaderMessage.map { String(cString: $0) } ?? "no reason given"
        return "\(feature) needs \(name), which could not be loaded (\(why)); install it: \(packages)"
    }
}
