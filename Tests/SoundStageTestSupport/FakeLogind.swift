import CSystemd
import SoundStageSession
import Foundation

/// Plays logind on a private bus: owns `org.freedesktop.login1` and announces sleep and
/// wake with `PrepareForSleep(b)`, as logind does on the system bus.
package final class FakeLogind {
    private var bus: OpaquePointer?

    package init(address: String) throws {
        var bus: OpaquePointer?
        guard libsystemd.new_bus(&bus) >= 0, let bus else { throw PulseError("sd_bus_new failed") }
        self.bus = bus
        guard libsystemd.set_address(bus, address) >= 0, libsystemd.set_bus_client(bus, 1) >= 0, libsystemd.start(bus) >= 0 else {
            throw PulseError("cannot connect to \(address)")
        }
        let r = libsystemd.request_name(bus, "org.freedesktop.login1", 0)
        guard r >= 0 else { throw PulseError("cannot own org.freedesktop.login1: \(r)") }
    }

    /// Emits `PrepareForSleep(sleeping)`.
    package func prepareForSleep(_ sleeping: Bool) throws {
        let r = ss_bus_emit_bool_signal(bus, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", sleeping ? 1 : 0)
        guard r >= 0, libsystemd.flush(bus) >= 0 else { throw PulseError("cannot emit PrepareForSleep: \(r)") }
    }

    deinit { _ = libsystemd.flush_close_unref(bus) }
}
