import CSystemd
import SoundStageSession
import Foundation

/// A peer on a private session bus that floods it: owns an MPRIS name
/// (`org.mpris.MediaPlayer2.flood`), answers nothing (it never reads what it is sent, as a
/// hung player), and announces `PlaybackStatus` as fast as the bus takes it.
/// (Unchecked: one thread uses it at a time, the one that floods.)
package final class MPRISFlood: @unchecked Sendable {
    /// The MPRIS name it owns.
    package static let busName = "org.mpris.MediaPlayer2.flood"
    private var bus: OpaquePointer?

    package init(address: String) throws {
        bus = try PrivateBusPeer.connect(address: address, owning: Self.busName)
    }

    /// Announces `PlaybackStatus` (Playing and Paused in turn) for `seconds`, flushing every
    /// thousand; returns how many signals went out.
    package func flood(seconds: Double) throws -> Int {
        let end = ContinuousClock.now + .seconds(seconds)
        var sent = 0
        while ContinuousClock.now < end {
            for _ in 0..<1_000 {
                let r = ss_bus_emit_string_property_changed(bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                                                            "PlaybackStatus", sent % 2 == 0 ? "Playing" : "Paused")
                guard r >= 0 else { throw PulseError("cannot emit PropertiesChanged after \(sent): \(r)") }
                sent += 1
            }
            guard libsystemd.flush(bus) >= 0 else { throw PulseError("cannot flush after \(sent)") }
        }
        return sent
    }

    deinit { _ = libsystemd.flush_close_unref(bus) }
}
