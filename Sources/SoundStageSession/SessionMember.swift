import Synchronization
import SoundStageCore

/// What the audio session asks of an engine or a recorder that joined it. They (later
/// layers) implement it; the session holds members weakly.
package protocol SessionMember: AnyObject, Sendable {
    /// Whether the member is recording now (a category that cannot record is refused then).
    var isRecordingForSession: Bool { get }
    /// Whether the member plays to a real device, so the session should watch the system
    /// for it (an offline engine renders on request; nothing on the system reaches it).
    var watchesSystem: Bool { get }
    /// Pauses the output for an interruption: players paused or stopped per their policy,
    /// the context suspended and the device paused.
    func sessionInterruptionBegan()
    /// Ends an interruption: the device and context run again, and with `shouldResume` the
    /// players resume per their policy.
    func sessionInterruptionEnded(shouldResume: Bool)
    /// Pauses (`false`) or resumes (`true`) the output for the session's activation, players
    /// keeping their state.
    func sessionActivated(_ active: Bool)
    /// The sound server's default output changed: an engine on the default device follows.
    func sessionDefaultOutputChanged()
    /// The sound server died: the engine's device is lost with it, and its return is a reset.
    func sessionServerLost()
    /// An output appeared or the sound server returned: an engine waiting for a device tries
    /// again now.
    func sessionOutputMayBeBack()
    /// The category's rules changed.
    func sessionCategoryChanged(_ category: AudioSession.Category)
    /// The sound server played `seconds` of silence where one of this process's playback
    /// streams ran dry (``AudioSession/WatchedEvents/outputDropouts``).
    func sessionOutputDropout(seconds: Double)
}

extension SessionMember {
    /// Members that do not play (recorders) have no dropout to count.
    package func sessionOutputDropout(seconds: Double) {}
}

/// A member held weakly, and known by a number of its own without being loaded.
///
/// Loading the weak reference makes a strong one for a moment: where another thread lets go
/// of the member's last other reference meanwhile, the member's deinit runs as that moment
/// ends, and an engine's deinit tells its session it went (``AudioSession/memberGone()``),
/// which takes the session's state. So members are loaded only outside that state's lock
/// (``Array/live``), and kept or removed by ``serial`` inside it (a sample ended its engine
/// while the session's thread looked at its members, and the precondition of a lock opened
/// from inside its own closure stopped the process). A serial, not the object's address: a
/// member made after one went may be given the same address.
struct WeakMember {
    weak var member: (any SessionMember)?
    let serial: UInt64

    private static let issued = Atomic<UInt64>(0)

    init(_ member: any SessionMember) {
        self.member = member
        serial = Self.issued.add(1, ordering: .relaxed).newValue
    }
}

extension Array where Element == WeakMember {
    /// The members still alive, as strong references: read outside the session's state lock
    /// (see ``WeakMember``).
    var live: [any SessionMember] { compactMap(\.member) }

    /// The serials of the members gone (and of `leaving`, if given): read outside the
    /// session's state lock.
    func gone(leaving: (any SessionMember)? = nil) -> Set<UInt64> {
        Set(filter { entry in entry.member.map { member in leaving.map { $0 === member } ?? false } ?? true }.map(\.serial))
    }
}
