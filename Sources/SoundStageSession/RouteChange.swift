import SoundStageCore

/// An engine's move from one output device to another, as ``EngineEvent/routeChanged(_:)``
/// and the audio session report it.
public struct RouteChange: Sendable, CustomStringConvertible {
    /// Why the output changed, in `AVAudioSession.RouteChangeReason`'s terms where they fit.
    public enum Reason: String, Sendable, Hashable {
        /// The device in use went away (unplugged, its sink removed, the sound server gone):
        /// the engine moved to the default device. Music players pause, as Apple recommends.
        case oldDeviceUnavailable
        /// An output appeared after none was left: the engine plays again.
        case newDeviceAvailable
        /// The system's default output changed, and the engine, opened on the default
        /// device, followed it.
        case defaultChanged
        /// The game asked for it (``AudioEngine/switchOutput(to:)``).
        case override
        /// The sound server restarted (`mediaServicesWereReset`): the engine rebuilt itself.
        case mediaServicesWereReset
    }

    /// Why.
    public let reason: Reason
    /// The device played to before (its OpenAL name), nil if none was.
    public let previous: String?
    /// The device played to now.
    public let current: String
    /// How long the move took, in seconds: a new device and context, every buffer in use
    /// uploaded again, every source rebuilt and restarted.
    public let moveSeconds: Double
    /// For a lost device, the time from noticing the loss to sound on the new device, in
    /// seconds (the audible gap, less the device's own latency); nil for a move on request.
    public let gapSeconds: Double?

    /// For example `oldDeviceUnavailable: 'Null Output' -> 'Second' (moved in 4.1 ms, gap 12.0 ms)`.
    /// A change of route, as the engine reports it.
    package init(reason: Reason, previous: String?, current: String, moveSeconds: Double, gapSeconds: Double?) {
        (self.reason, self.previous, self.current, self.moveSeconds, self.gapSeconds) = (reason, previous, current, moveSeconds, gapSeconds)
    }

    public var description: String {
        let gap = gapSeconds.map { String(format: ", gap %.1f ms", $0 * 1000) } ?? ""
        return "\(reason.rawValue): \(previous.map { "'\($0)'" } ?? "none") -> '\(current)' (moved in \(String(format: "%.1f", moveSeconds * 1000)) ms\(gap))"
    }
}
