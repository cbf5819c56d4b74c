import CSystemd
import SoundStageSession

/// A peer the tests put on a private bus: connected to `address` and owning `name`.
enum PrivateBusPeer {
    /// Connects to the bus at `address` and requests `name`; the connection is the caller's
    /// to close (`flush_close_unref`).
    static func connect(address: String, owning name: String) throws -> OpaquePointer {
        var bus: OpaquePointer?
        guard libsystemd.new_bus(&bus) >= 0, let bus else { throw PulseError("sd_bus_new failed") }
        guard libsystemd.set_address(bus, address) >= 0, libsystemd.set_bus_client(bus, 1) >= 0, libsystemd.start(bus) >= 0 else {
            _ = libsystemd.flush_close_unref(bus)
            throw PulseError("cannot connect to \(address)")
        }
        let r = libsystemd.request_name(bus, name, 0)
        guard r >= 0 else {
            _ = libsystemd.flush_close_unref(bus)
            throw PulseError("cannot own \(name): \(r)")
        }
        return bus
    }
}
