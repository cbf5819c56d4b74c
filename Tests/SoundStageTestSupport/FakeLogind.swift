import CSystemd
import SoundStageSession
import Foundation

/// Plays logind on a private bus: owns `org.freedesktop.login1` and announces sleep and
/// wake with `PrepareForSleep(b)`, as logind does on the system bus.
package final class FakeLogind {
    private var bus: OpaquePointer?

    package init(address: String) throws {
        bus = try PrivateBusPeer.connect(address: address, owning: "org.freedesktop.login1")
    }

    /// Emits `PrepareForSleep(sleeping)`.
    package func prepareForSleep(_ sleeping: Bool) throws {
        let r = ss_bus_emit_bool_signal(bus, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", sleeping ? 1 : 0)
        guard r >= 0, libsystemd.flush(bus) >= 0 else { throw PulseError("cannot emit PrepareForSleep: \(r)") }
    }

    deinit { _ = libsystemd.flush_close_unref(bus) }
}
