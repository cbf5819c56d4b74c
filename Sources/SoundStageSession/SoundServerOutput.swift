/// What the session's sound server monitor says of the server's output, asked by an engine
/// before it opens a device there in place of a lost one (``AudioSession/soundServerOutput``).
package enum SoundServerOutput: Sendable, Equatable {
    /// Nothing to say: no monitor, or it never reached a server (no libpulse, or no
    /// PulseAudio-compatible server, so OpenAL Soft plays elsewhere).
    case unwatched
    /// The server the monitor was connected to went away and is not back yet, or is back
    /// and not yet read.
    case gone
    /// The server is up, and its default sink is its placeholder
    /// (``SoundServerMonitor/placeholderSinkName``) or none: a stream opened now would not
    /// last.
    case placeholder
    /// The server is up and its default sink is a real one.
    case ready
    /// The monitor could not be asked now: a ducking change held it (waiting on the server)
    /// longer than the question may wait. Ask again soon.
    case busy
    /// The server was asked and did not answer in time: busy with something else (PulseAudio
    /// moving every stream off a sink it unloads answers its clients late), or stopped. Ask
    /// again soon.
    case late

    /// Why a device should not be opened now; nil when it may be.
    package var notReady: String? {
        switch self {
        case .unwatched, .ready: nil
        case .gone: "the sound server went away and is not back yet"
        case .busy: "the sound server's monitor is busy (a ducking change waits on the server): asking again shortly"
        case .late: "the sound server did not answer in time (it is busy, or stopped): asking again shortly"
        case .placeholder: "the sound server offers only its placeholder sink (\(SoundServerMonitor.placeholderSinkName), 'Dummy Output'), which it removes as soon as another sink comes: waiting for that one"
        }
    }
}
