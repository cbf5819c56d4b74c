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

/// A member held weakly.
struct WeakMember {
    weak var member: (any SessionMember)?
}
