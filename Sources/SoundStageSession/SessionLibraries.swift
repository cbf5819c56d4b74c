import CPulse
import CSystemd
import SoundStageCore

extension OptionalLibrary {
    /// libpulse, for ``AudioSession``'s own connection to the sound server.
    package static let pulse = OptionalLibrary(
        feature: "following the sound server (calls that interrupt, default output changes, a server that restarts)",
        name: "libpulse", packages: "libpulse0 (Debian, Ubuntu), pulseaudio-libs (Fedora)")
    /// libsystemd's sd-bus, for the sleep watcher.
    package static let systemd = OptionalLibrary(feature: "pausing for system sleep", name: "libsystemd",
                                                 packages: "libsystemd0 (Debian, Ubuntu), systemd-libs (Fedora)")
}

/// libpulse's functions. Only used once ``SoundServerMonitor/start()`` found them loaded.
var libpulse: ss_pulse { ss_pulse()!.pointee }

/// libsystemd's functions. Only used once ``SleepWatcher/start()`` found them loaded.
package var libsystemd: ss_systemd { ss_systemd()!.pointee }
